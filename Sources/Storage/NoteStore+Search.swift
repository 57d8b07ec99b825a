// Full-text search over titles, bodies, summaries and tasks, ranked by bm25.
import Notes

extension NoteStore {
    /// Column weights for bm25: a word in the title counts most, then the analysis, then the body.
    static let rankWeights = "bm25(notes_fts, 10.0, 1.0, 3.0)"
    /// FTS5's snippet() slows down sharply on huge documents with many matches (20 s for a
    /// 10 MB note here), so beyond this size the snippet is cut from the text's beginning.
    static let largeNoteCharacters = 200_000
    static let largeNoteScan = 200_000

    /// Notes matching `query` (see SearchQuery), best first. An empty query finds nothing; a
    /// query of filters alone finds every note they keep, newest change first. A `links:` id
    /// that matches no note, or several, is an error; so is a malformed filter
    /// (`SearchQueryError`). Relative dates in filters count from `now`.
    public func search(_ query: String, filter: NoteFilter = NoteFilter(), now: Timestamp = .current) throws -> [SearchHit] {
        let parsed = SearchQuery(query)
        if let invalid = parsed.invalidFilter { throw invalid }
        return try search(parsed, expression: parsed.matchExpression, filter: filter, now: now)
    }

    /// The notes that have at least one of the query's rare words (words in at most 1% of the
    /// notes, or 3), but not the excluded ones, best first: for a query whose words do not all
    /// occur in one note, so that a note with its rare word still ranks by words. Empty for a
    /// query of fewer than two words or without a rare one.
    public func searchRareWords(_ query: String, filter: NoteFilter = NoteFilter(), now: Timestamp = .current) throws -> [SearchHit] {
        let parsed = SearchQuery(query)
        if let invalid = parsed.invalidFilter { throw invalid }
        guard parsed.includedTerms.count >= 2 else { return [] }
        let notes = try database.scalarInt("SELECT count(*) FROM notes WHERE deleted IS NULL") ?? 0
        let maximum = max(3, notes / 100)
        func quoted(_ term: String) -> String { "\"" + term.replacingOccurrences("\"", with: "\"\"") + "\"" }
        let count = try database.statement("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH ?")
        let rare = try parsed.includedTerms.filter { term in
            let frequency = try count.firstRow([quoted(term)]) { $0.int(0) } ?? 0
            return frequency > 0 && frequency <= maximum
        }
        guard !rare.isEmpty else { return [] }
        var expression = "(" + rare.map(quoted).joined(separator: " OR ") + ")"
        if !parsed.excludedTerms.isEmpty { expression += " NOT (" + parsed.excludedTerms.map(quoted).joined(separator: " OR ") + ")" }
        return try search(parsed, expression: expression, filter: filter, now: now)
    }

    private func search(_ parsed: SearchQuery, expression: String?, filter: NoteFilter, now: Timestamp) throws -> [SearchHit] {
        guard !parsed.isEmpty else { return [] }
        var (conditions, values) = try filterConditions(parsed, filter: filter, now: now)
        conditions.insert("n.deleted IS NULL", at: 0)
        if let match = expression {
            // Before the filters' conditions, as its value is before theirs.
            conditions.insert("notes_fts MATCH ?", at: 1)
            values.insert(match, at: 0)
        }
        guard expression != nil else {
            let sql = """
                SELECT n.id, n.title, substr(n.body, 1, 2000) FROM notes n WHERE \(conditions.joined(separator: " AND "))
                ORDER BY n.updated DESC, n.id DESC LIMIT \(filter.limit ?? 50)
                """
            return try database.statement(sql).rows(values) {
                let title = $0.string(1)
                return SearchHit(id: NoteID($0.string(0))!, title: title,
                                 snippet: Snippet.withoutTitle(Snippet.around([], in: $0.string(2)), title: title), score: 0)
            }
        }
        let sql = """
            SELECT n.id, n.title,
                   CASE WHEN length(n.body) > \(NoteStore.largeNoteCharacters) THEN substr(n.body, 1, \(NoteStore.largeNoteScan))
                        ELSE snippet(notes_fts, 1, '\(SearchHit.highlightStart)', '\(SearchHit.highlightEnd)', '…', 16) END,
                   length(n.body) > \(NoteStore.largeNoteCharacters),
                   \(NoteStore.rankWeights) AS rank
            FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY rank LIMIT \(filter.limit ?? 50)
            """
        return try database.statement(sql).rows(values) {
            let snippet = $0.int(3) == 1 ? Snippet.around(parsed.terms, in: $0.string(2)) : $0.string(2)
            let title = $0.string(1)
            return SearchHit(id: NoteID($0.string(0))!, title: title, snippet: Snippet.withoutTitle(snippet, title: title), score: -$0.double(4))
        }
    }
}

extension NoteStore {
    /// SQL conditions (on `n`) for the query's filters and the command's options, without the
    /// words: shared by search by words and by meaning.
    public func filterConditions(_ parsed: SearchQuery, filter: NoteFilter, now: Timestamp) throws -> (sql: [String], values: [any DatabaseValueConvertible]) {
        var (conditions, values) = self.conditions(for: parsed.filters, now: now)
        for link in parsed.linksTo {
            conditions.append("n.seq \(link.negated ? "NOT IN" : "IN") (SELECT l.source_seq FROM links l JOIN notes t ON t.seq = l.target_seq WHERE t.id = ?)")
            values.append(try resolve(link.reference).rawValue)
        }
        if let tag = filter.tag {
            conditions.append("n.seq IN (SELECT note_seq FROM note_tags WHERE tag = ?)")
            values.append(Tags.normalized([tag]).first ?? tag)
        }
        appendTimeConditions(filter, to: &conditions, values: &values)
        return (conditions, values)
    }

    /// Title and opening of each note, in the order given, for notes found by meaning alone (no
    /// words to highlight). Unknown or deleted ids are left out.
    public func openings(of ids: [NoteID]) throws -> [SearchHit] {
        let statement = try database.statement("SELECT n.title, substr(n.body, 1, 2000) FROM notes n WHERE n.id = ? AND n.deleted IS NULL")
        return try ids.compactMap { id in
            try statement.firstRow([id.rawValue]) { row in
                let title = row.string(0)
                return SearchHit(id: id, title: title, snippet: Snippet.withoutTitle(Snippet.around([], in: row.string(1)), title: title), score: 0)
            }
        }
    }

    /// The notes among `ids` that contain any of `terms` (stemmed, as search by words reads them).
    public func containing(anyOf terms: [String], among ids: [NoteID]) throws -> Set<NoteID> {
        guard !terms.isEmpty, !ids.isEmpty else { return [] }
        let match = terms.map { "\"" + $0.replacingOccurrences("\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
        let list = ids.map { "'" + $0.rawValue + "'" }.joined(separator: ",")
        return Set(try database.statement("""
            SELECT n.id FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid WHERE notes_fts MATCH ? AND n.id IN (\(list))
            """).rows([match]) { NoteID($0.string(0))! })
    }
}

/// A snippet made by hand: a few words around the first term found, for notes too large for FTS5's.
enum Snippet {
    /// The snippet of the body without the title it starts with (the title is the body's first
    /// line unless the user gave another), since the title is shown above it; unless little but
    /// the title is there.
    static func withoutTitle(_ snippet: String, title: String) -> String {
        let marks: Set<Character> = [Character(SearchHit.highlightStart), Character(SearchHit.highlightEnd)]
        guard !title.isEmpty, String(snippet.filter { !marks.contains($0) }).hasPrefix(title) else { return snippet }
        var matched = 0
        var open = false
        var index = snippet.startIndex
        while index < snippet.endIndex, matched < title.count {
            let character = snippet[index]
            if character == Character(SearchHit.highlightStart) { open = true } else if character == Character(SearchHit.highlightEnd) { open = false } else { matched += 1 }
            index = snippet.index(after: index)
        }
        // A highlight closed right after the title belongs to it.
        if index < snippet.endIndex, snippet[index] == Character(SearchHit.highlightEnd) {
            open = false
            index = snippet.index(after: index)
        }
        let rest = snippet[index...].drop { $0.isWhitespace || $0 == ":" || $0 == "-" }
        // A one-line note is its title (and tags): then the snippet stays whole.
        guard rest.split(whereSeparator: \.isWhitespace).filter({ !$0.hasPrefix("#") }).count >= 2 else { return snippet }
        return (open ? SearchHit.highlightStart : "") + rest
    }

    static func around(_ terms: [String], in text: String, words: Int = 16) -> String {
        let lowered = text.lowercased()
        let position = terms.lazy.compactMap { lowered.firstRange(of: $0.lowercased()) }.min { $0.lowerBound < $1.lowerBound }
        guard let position, lowered.count == text.count else {
            return text.split(separator: " ", maxSplits: words, omittingEmptySubsequences: true).prefix(words).joined(separator: " ") + "…"
        }
        // Same length after lowercasing: indices carry over from `lowered` to `text`.
        let start = text.index(text.startIndex, offsetBy: lowered.distance(from: lowered.startIndex, to: position.lowerBound))
        let end = text.index(start, offsetBy: lowered.distance(from: position.lowerBound, to: position.upperBound))
        let before = text[..<start].split(separator: " ").suffix(words / 2).joined(separator: " ")
        let after = text[end...].split(separator: " ", maxSplits: words / 2 + 1).prefix(words / 2).joined(separator: " ")
        return "…" + before + " " + SearchHit.highlightStart + text[start..<end] + SearchHit.highlightEnd + after + "…"
    }
}
