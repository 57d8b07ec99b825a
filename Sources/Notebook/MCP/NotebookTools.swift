// The notebook's tools: the same library calls as `notes search`, `show`, `related`, `links`,
// `tasks`, `ask`, `add`, `edit --append` and `done`, returning the same JSON as their `--json`.
import MCP
import Notes
import Storage

enum NotebookTools {
    /// Every tool, reading ones first; the writing ones are listed with `--allow-write` only.
    static let all: [MCPTool] = [search, show, related, links, tasks, ask, add, append, done]

    /// The note the `id` argument names.
    static func note(_ arguments: JSON, _ access: NotebookAccess) throws -> Note {
        let reference = arguments["id"]!.string!
        guard let note = try access.store.note(try access.store.resolve(reference)) else { throw NoteStoreError.notFound(reference) }
        return note
    }

    static let noteID = ToolSchema.string(description: "The note's id (or its handle, or any unique start or end of its id).", minLength: 1, maxLength: 64)

    static let search = MCPTool(
        name: "search", title: "Search notes",
        description: """
            Searches the user's notes by their words and by their meaning together, best match first (a note with the very \
            words ranks above one that only means the same). The query takes "quoted phrases", prefix*, OR, -word, and \
            filters alone or with words: tag:home, category:work, urgency:>=4, created:2026-11, updated:<7d, due:<7d (an \
            open task due within 7 days), due:today, links:ID; a leading - negates a filter.
            """,
        input: .object(properties: [
            ("query", .string(description: "Words to look for, and filters.", minLength: 1, maxLength: 1000)),
            ("mode", .string(description: "hybrid (default): words and meaning; words: words only; meaning: meaning only.",
                             choices: ["hybrid", "words", "meaning"])),
            ("tag", .string(description: "Only notes with this tag.", minLength: 1, maxLength: 200)),
            ("category", .string(description: "Only notes of this category.", choices: Category.allCases.map(\.rawValue))),
            ("urgency", .integer(description: "Only notes of this urgency.", minimum: 1, maximum: 5)),
            ("limit", .integer(description: "At most this many results (default 20).", minimum: 1, maximum: 200)),
        ], required: ["query"]),
        output: .record([("results", .array(of: .record([
            ("id", .string()), ("title", .string()), ("snippet", .string(description: "Matches between **.")),
            ("score", .number(description: "Higher is better.")),
            ("match", .string(description: "How it was found.", choices: ["words", "meaning", "both"])),
        ])))]),
        writes: false
    ) { arguments, access in
        let mode: NotebookSearch.Mode = switch arguments["mode"]?.string {
        case "words": .words
        case "meaning": .meaning
        default: .hybrid
        }
        let search = NotebookSearch(store: access.store, embedder: mode == .words ? nil : access.searchEmbedding)
        if mode == .meaning, let reason = search.meaningUnavailable { throw ToolFailure("cannot search by meaning: \(reason)") }
        let filter = NoteFilter(tag: arguments["tag"]?.string, category: arguments["category"]?.string.flatMap(Category.init(rawValue:)),
                                urgency: arguments["urgency"]?.int, limit: arguments["limit"]?.int ?? 20)
        let query = arguments["query"]!.string!
        // A read-only server does not store the vectors it would make.
        if mode != .words, access.allowWrite { search.embedNewestNotes() }
        let results = try access.store.reading { try search.search(query, filter: filter, mode: mode, now: access.now()) }
        return .object([("results", .array(results.map(\.json)))])
    }

    static let noteOutput = ToolSchema.record([
        ("id", .string()), ("title", .string()), ("body", .string()), ("tags", .array(of: .string())),
        ("created", .string(description: "ISO 8601, UTC.")), ("updated", .string(description: "ISO 8601, UTC.")),
        ("analysis", .nullable(.record([
            ("category", .string()), ("urgency", .integer(minimum: 1, maximum: 5)), ("tasks", .array(of: .record([
                ("text", .string()), ("done", .boolean()), ("due", .nullable(.string(description: "The day it is due, 2026-12-04.")))]))),
            ("summary", .string()), ("model", .string()), ("analyzed_at", .string()), ("stage", .string(choices: ["quick", "full"])),
        ]))),
    ])

    static let show = MCPTool(
        name: "show", title: "Show a note",
        description: "Returns one note in full: its title, text, tags, dates, and its analysis (category, urgency 1 to 5, tasks with their due days, summary) when it has one.",
        input: .object(properties: [("id", noteID)], required: ["id"]),
        output: noteOutput,
        writes: false
    ) { arguments, access in
        let note = try note(arguments, access)
        return note.json(analysis: try access.store.analysis(for: note.id))
    }

    static let related = MCPTool(
        name: "related", title: "Related notes",
        description: "Lists the notes nearest in meaning to a note, best first; the score is the cosine similarity (-1 to 1) of their closest parts.",
        input: .object(properties: [("id", noteID), ("limit", .integer(description: "At most this many (default 10).", minimum: 1, maximum: 100))],
                       required: ["id"]),
        output: .record([("results", .array(of: .record([("id", .string()), ("title", .string()), ("score", .number())])))]),
        writes: false
    ) { arguments, access in
        let id = try access.store.resolve(arguments["id"]!.string!)
        let search = NotebookSearch(store: access.store, embedder: access.embedding)
        // A read-only server does not even store the vectors it would make.
        if access.allowWrite { search.embedNewestNotes() }
        guard let related = try search.related(to: id, limit: arguments["limit"]?.int ?? 10, computeIfMissing: access.allowWrite) else {
            throw ToolFailure("note \(try access.store.handle(of: id)) has no vector yet: \(search.meaningUnavailable ?? "the daemon or 'notes analyze' makes them")")
        }
        return .object([("results", .array(related.map(\.json)))])
    }

    static let link = ToolSchema.record([
        ("id", .nullable(.string(description: "The other note's id; null for a broken link."))), ("title", .nullable(.string())),
        ("target", .string(description: "The name or path as written.")), ("heading", .nullable(.string())),
        ("embed", .boolean()), ("markdown", .boolean()),
    ])

    static let links = MCPTool(
        name: "links", title: "Links of a note",
        description: "Lists what a note links to ([[Name]] and Markdown links; a broken one has no id) and the notes that link to it.",
        input: .object(properties: [("id", noteID)], required: ["id"]),
        output: .record([("id", .string()), ("title", .string()), ("links", .array(of: link)), ("backlinks", .array(of: link))]),
        writes: false
    ) { arguments, access in
        let note = try note(arguments, access)
        return note.linksJSON(links: try access.store.links(from: note.id), backlinks: try access.store.backlinks(to: note.id))
    }

    static let tasks = MCPTool(
        name: "tasks", title: "Tasks",
        description: "Lists the open tasks the analyses found across notes, soonest due first, then most urgent. Each has its note and its number there (for `done`).",
        input: .object(properties: [
            ("due", .string(description: "today: due today or before; week: within 7 days (overdue ones included); overdue: before today.",
                            choices: TaskWindow.allCases.map(\.rawValue))),
            ("include_done", .boolean(description: "Include the tasks marked done (default false).")),
        ], required: []),
        output: .record([("tasks", .array(of: .record([
            ("note", .string()), ("number", .integer(minimum: 1)), ("text", .string()), ("done", .boolean()),
            ("due", .nullable(.string())), ("urgency", .integer(minimum: 1, maximum: 5)), ("note_title", .string()),
        ])))]),
        writes: false
    ) { arguments, access in
        let includeDone = arguments["include_done"]?.bool ?? false
        let entries = try arguments["due"]?.string.flatMap(TaskWindow.init(rawValue:)).map { try $0.tasks(in: access.store, includeDone: includeDone, now: access.now()) }
            ?? access.store.tasks(includeDone: includeDone)
        return .object([("tasks", .array(entries.map(\.json)))])
    }

    static let ask = MCPTool(
        name: "ask", title: "Ask the notes",
        description: """
            Answers a question from the user's notes with the local reading model, and names the notes the answer comes from \
            (only notes it read while answering). When the notes do not say, it says so and cites nothing. Takes seconds.
            """,
        input: .object(properties: [("question", .string(description: "What to find out.", minLength: 1, maxLength: 2000))], required: ["question"]),
        output: .record([
            ("answer", .string()),
            ("sources", .array(of: .record([("id", .string()), ("title", .string())]))),
            ("searches", .array(of: .string(), description: "What the model searched for, in order.")),
            ("see_also", .array(of: .record([("id", .string()), ("title", .string())]),
                                description: "When nothing is cited: the notes closest to the question, which do not hold the answer.")),
        ]),
        writes: false
    ) { arguments, access in
        let question = arguments["question"]!.string!
        let questions = try NotebookQuestions.open(home: access.home, environment: access.environment, now: access.now(),
                                                   makingVectors: access.allowWrite)
        let answer = try waitFor {
            try await questions.prewarm()
            return try await questions.ask(question) { _ in }
        }
        return answer.json
    }

    static let written = ToolSchema.record([("id", .string()), ("title", .string())])

    static let add = MCPTool(
        name: "add", title: "Add a note",
        description: "Adds a note to the notebook. Its first line is its title; #words in the text are its tags. The daemon analyses it and sync carries it, like any note.",
        input: .object(properties: [
            ("text", .string(description: "The note's text (Markdown).", minLength: 1)),
            ("title", .string(description: "A title other than the first line.", minLength: 1, maxLength: 500)),
        ], required: ["text"]),
        output: written,
        writes: true
    ) { arguments, access in
        let text = try NoteInput.decode(Array(arguments["text"]!.string!.utf8))
        let note = try NoteInput.makeNote(text: text, title: arguments["title"]?.string, extraTags: [], at: access.now())
        try access.store.insert(note)
        return .object([("id", .string(note.id.rawValue)), ("title", .string(note.title))])
    }

    static let append = MCPTool(
        name: "append", title: "Append to a note",
        description: "Adds a line (or lines) at the end of a note, as `notes edit --append` does.",
        input: .object(properties: [("id", noteID), ("text", .string(description: "What to add.", minLength: 1))], required: ["id", "text"]),
        output: written,
        writes: true
    ) { arguments, access in
        let original = try note(arguments, access)
        let addition = try NoteInput.decode(Array(arguments["text"]!.string!.utf8))
        guard let note = try NoteEdits.edited(original, body: NoteEdits.appending(addition, to: original.body), at: access.now()) else {
            throw ToolFailure("nothing to append: the text is blank")
        }
        try access.store.update(note)
        return .object([("id", .string(note.id.rawValue)), ("title", .string(note.title))])
    }

    static let done = MCPTool(
        name: "done", title: "Mark a task done",
        description: "Marks a task done (or open again with done: false): the note and the task's number, as `tasks` lists them.",
        input: .object(properties: [
            ("id", noteID), ("number", .integer(description: "The task's number in its note, from 1.", minimum: 1)),
            ("done", .boolean(description: "false marks it open again (default true).")),
        ], required: ["id", "number"]),
        output: .record([("note", .string()), ("number", .integer(minimum: 1)), ("text", .string()), ("done", .boolean())]),
        writes: true
    ) { arguments, access in
        let reference = arguments["id"]!.string!
        let number = arguments["number"]!.int!
        let done = arguments["done"]?.bool ?? true
        let task = try NoteEdits.markTask(reference, number: number, done: done, in: access.store, at: access.now())
        return .object([("note", .string(try access.store.resolve(reference).rawValue)), ("number", .int(number)),
                        ("text", .string(task.text)), ("done", .bool(done))])
    }
}
