// A link between two notes as the notebook keeps it: where it is written, what it names, and
// the note it points at (none when it is broken).

/// A link as `notes links` and `notes show` list it.
public struct StoredLink: Equatable, Sendable {
    public var source: NoteID
    public var sourceTitle: String
    /// As written: the name or path in `[[target#heading]]` or `[text](target.md)`.
    public var target: String
    public var heading: String?
    public var embed: Bool
    /// A Markdown link (`[text](target.md)`): `target` is a path from the linking note's folder.
    public var markdown: Bool
    /// The note it points at; nil for a broken link.
    public var resolved: NoteID?
    public var resolvedTitle: String?

    public init(source: NoteID, sourceTitle: String, target: String, heading: String?, embed: Bool, markdown: Bool,
                resolved: NoteID?, resolvedTitle: String?) {
        self.source = source
        self.sourceTitle = sourceTitle
        self.target = target
        self.heading = heading
        self.embed = embed
        self.markdown = markdown
        self.resolved = resolved
        self.resolvedTitle = resolvedTitle
    }
}
