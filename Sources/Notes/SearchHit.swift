// A note a search found: its title, a fragment around the matches, its score.

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

    public init(id: NoteID, title: String, snippet: String, score: Double) {
        self.id = id
        self.title = title
        self.snippet = snippet
        self.score = score
    }
}
