// A note as the user sees it: a title, a body, tags and two timestamps.

public struct Note: Hashable, Sendable {
    public var id: NoteID
    public var title: String
    public var body: String
    /// Lowercase, sorted, without duplicates: see `Tags.normalized`.
    public var tags: [String]
    public var created: Timestamp
    public var updated: Timestamp

    public init(id: NoteID, title: String, body: String, tags: [String], created: Timestamp, updated: Timestamp) {
        self.id = id
        self.title = title
        self.body = body
        self.tags = Tags.normalized(tags)
        self.created = created
        self.updated = updated
    }

    /// What analysis depends on: a change here makes the note pending again.
    public var contentHash: String { ContentHash.of(title + "\u{0}" + body) }
}

/// Rules for the text a user types.
public enum NoteText {
    /// The note as one text for a reader: the body, after the title when the title is not
    /// simply the body's first line.
    public static func fullText(title: String, body: String) -> String {
        title == NoteText.title(from: body) ? body : title + "\n" + body
    }

    /// The longest title kept; longer first lines are cut at a word boundary.
    static let maximumTitleLength = 120

    /// The first non-blank line, without Markdown heading marks or trailing #tags, cut to
    /// `maximumTitleLength`.
    public static func title(from body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).lazy
            .map { $0.trimmingWhitespace() }
            .first { !$0.isEmpty } ?? ""
        var title = Substring(line)
        if title.hasPrefix("#") {
            let stripped = title.drop { $0 == "#" }
            if stripped.first == " " { title = stripped.dropFirst() }
        }
        var words = title.split(separator: " ", omittingEmptySubsequences: false)
        while words.count > 1, let last = words.last, last.hasPrefix("#"), !Tags.inText(String(last)).isEmpty {
            words.removeLast()
        }
        if words.contains(where: { !$0.isEmpty && !$0.hasPrefix("#") }) { title = Substring(words.joined(separator: " ")) }
        return shorten(String(title).trimmingWhitespace(), to: maximumTitleLength)
    }

    static func shorten(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            return String(cut[..<space]) + "…"
        }
        return String(cut) + "…"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
