// Full-text search over titles, bodies, summaries and tasks, ranked by bm25.
import Notes

public struct SearchHit: Equatable, Sendable {
    public var id: NoteID
    public var title: String
    /// A fragment around the matches, each match between `SearchHit.highlightStart` and `highlightEnd`.
    public var snippet: String
    /// Higher is better (bm25, negated).
    public var score: Double

    /// Markers that cannot occur in note text (control characters), replaced for display.
    public static let highlightStart = "\u{2}"
    public static let highlightEnd = "\u{3}"
}

extension NoteStore {
    /// Column weights for bm25: a word in the title counts most, then the analysis, then the body.
    static let rankWeights = "bm25(notes_fts, 10.0, 1.0, 3.0)"

    /// Notes matching `query` (see SearchQuery), best first. An empty query finds nothing.
    public func search(_ query: String, filter: NoteFilter = NoteFilter()) throws -> [SearchHit] {
        guard let match = SearchQuery(query).matchExpression else { return [] }
        var conditions = ["notes_fts MATCH ?", "n.deleted IS NULL"]
        var values: [any DatabaseValueConvertible] = [match]
        if let tag = filter.tag {
            conditions.append("n.seq IN (SELECT note_seq FROM note_tags WHERE tag = ?)")
            values.append(Tags.normalized([tag]).first ?? tag)
        }
        appendTimeConditions(filter, to: &conditions, values: &values)
        let sql = """
            SELECT n.id, n.title,
                   snippet(notes_fts, -1, '\(SearchHit.highlightStart)', '\(SearchHit.highlightEnd)', '…', 16),
                   \(NoteStore.rankWeights) AS rank
            FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY rank LIMIT \(filter.limit ?? 50)
            """
        return try database.statement(sql).rows(values) {
            SearchHit(id: NoteID($0.string(0))!, title: $0.string(1), snippet: $0.string(2), score: -$0.double(3))
        }
    }
}
