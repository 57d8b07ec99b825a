// The JSON shapes of docs/scripting.md's "Contract for scripts", in one place: `--json` prints them
// and `notes mcp` returns them as its tools' structured output.
import Notes
import Storage

extension Note {
    /// `{"id", "title", "body", "tags", "created", "updated", "analysis"}`.
    public func json(analysis: Analysis?) -> JSON {
        .object([
            ("id", .string(id.rawValue)),
            ("title", .string(title)),
            ("body", .string(body)),
            ("tags", .array(tags.map(JSON.string))),
            ("created", .string(created.iso8601)),
            ("updated", .string(updated.iso8601)),
            ("analysis", analysis.map(\.json) ?? .null),
        ])
    }
}

extension Analysis {
    public var json: JSON {
        .object([
            ("category", .string(category.rawValue)),
            ("urgency", .int(urgency)),
            ("tasks", .array(tasks.map(\.json))),
            ("summary", .string(summary)),
            ("model", .string(model)),
            ("analyzed_at", .string(analyzedAt.iso8601)),
            ("stage", .string(stage.rawValue)),
        ])
    }
}

extension TaskItem {
    /// `{"text", "done", "due": "2026-12-04" or null}`.
    public var json: JSON {
        .object([("text", .string(text)), ("done", .bool(done)), ("due", .optional(due))])
    }
}

extension TaskEntry {
    /// `{"note", "number", "text", "done", "due", "urgency", "note_title"}`: one line of `notes tasks --json`.
    public var json: JSON {
        .object([
            ("note", .string(noteID.rawValue)), ("number", .int(index + 1)), ("text", .string(task.text)),
            ("done", .bool(task.done)), ("due", .optional(task.due)), ("urgency", .int(urgency)),
            ("note_title", .string(noteTitle)),
        ])
    }
}

extension NotebookSearch.Result {
    /// `{"id", "title", "snippet", "score", "match"}`, the matches in the snippet between `**`.
    public var json: JSON {
        .object([
            ("id", .string(hit.id.rawValue)),
            ("title", .string(hit.title)),
            ("snippet", .string(hit.snippet.replacingOccurrences(SearchHit.highlightStart, with: "**")
                .replacingOccurrences(SearchHit.highlightEnd, with: "**"))),
            ("score", .double((hit.score * 1000).rounded() / 1000)),
            ("match", .string(match.rawValue)),
        ])
    }
}

extension NotebookSearch.Related {
    /// `{"id", "title", "score"}`, the score the cosine similarity rounded to three places.
    public var json: JSON { .object([("id", .string(id.rawValue)), ("title", .string(title)), ("score", .double(roundedSimilarity))]) }

    /// The similarity as listings show it: three decimal places.
    public var roundedSimilarity: Double { (Double(similarity) * 1000).rounded() / 1000 }
}

extension StoredLink {
    /// The fields every link shares: `{"target", "heading", "embed", "markdown"}`.
    public var jsonFields: [(String, JSON)] {
        [("target", .string(target)), ("heading", .optional(heading)), ("embed", .bool(embed)), ("markdown", .bool(markdown))]
    }

    /// A link from a note: the note it points at (`id` and `title`, null when broken).
    public var outgoingJSON: JSON {
        .object([("id", resolved.map { .string($0.rawValue) } ?? .null), ("title", .optional(resolvedTitle))] + jsonFields)
    }

    /// A link to a note, or a broken link: the note it is written in.
    public var incomingJSON: JSON {
        .object([("id", .string(source.rawValue)), ("title", .string(sourceTitle))] + jsonFields)
    }
}

extension Note {
    /// `notes links ID --json`: `{"id", "title", "links": [...], "backlinks": [...]}`.
    public func linksJSON(links: [StoredLink], backlinks: [StoredLink]) -> JSON {
        .object([
            ("id", .string(id.rawValue)), ("title", .string(title)),
            ("links", .array(links.map(\.outgoingJSON))),
            ("backlinks", .array(backlinks.map(\.incomingJSON))),
        ])
    }
}

extension AskTurn {
    /// `{"question", "answer", "sources": [{"id", "title"}]}`.
    public var json: JSON {
        .object([
            ("question", .string(question)), ("answer", .string(answer)),
            ("sources", .array(sources.map { .object([("id", .string($0.id.rawValue)), ("title", .string($0.title))]) })),
        ])
    }
}

extension NotebookQuestions.Answer {
    /// `{"answer", "sources": [{"id", "title"}], "searches": [...], "see_also": [{"id", "title"}]}`.
    public var json: JSON {
        func notes(_ list: [NotebookQuestions.Source]) -> JSON { .array(list.map { .object([("id", .string($0.id.rawValue)), ("title", .string($0.title))]) }) }
        return .object([
            ("answer", .string(text)),
            ("sources", notes(sources)),
            ("searches", .array(searches.map(JSON.string))),
            ("see_also", notes(seeAlso)),
        ])
    }
}
