// Which notes a listing or a search keeps: a tag, a category, an urgency, a time span, a limit.

/// Which notes a listing (`notes list`) or a search keeps.
public struct NoteFilter: Sendable {
    public var tag: String?
    public var category: Category?
    public var urgency: Int?
    public var since: Timestamp?
    public var until: Timestamp?
    public var limit: Int?

    /// Whether it keeps every live note.
    public var keepsAll: Bool { tag == nil && category == nil && urgency == nil && since == nil && until == nil && limit == nil }

    public init(tag: String? = nil, category: Category? = nil, urgency: Int? = nil,
                since: Timestamp? = nil, until: Timestamp? = nil, limit: Int? = nil) {
        self.tag = tag
        self.category = category
        self.urgency = urgency
        self.since = since
        self.until = until
        self.limit = limit
    }
}
