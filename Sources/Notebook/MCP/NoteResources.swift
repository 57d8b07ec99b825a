// Each note as a resource, `notes://ID`: listed a page at a time, read as Markdown with front
// matter (the file `notes export` writes for it).
import MCP
import Notes
import Storage

enum NoteResources {
    static let scheme = "notes://"
    static let mimeType = "text/markdown"
    /// Notes a `resources/list` page: 10,000 notes come in ten pages.
    static let pageSize = 1000

    static func uri(_ id: NoteID) -> String { scheme + id.rawValue }

    /// A page of the notes, oldest first (ids are UUIDv7: stable as notes are added); the
    /// cursor is where the next page starts.
    static func list(cursor: String?, store: NoteStore) throws(RPCError) -> JSON {
        let start: Int
        if let cursor {
            guard let offset = Int(cursor), offset >= 0 else { throw RPCError(RPCError.invalidParams, "Invalid cursor '\(cursor)': pass the nextCursor of the page before") }
            start = offset
        } else {
            start = 0
        }
        let notes: [Note]
        do {
            notes = try store.notesWithAnalyses(forLines: true).map(\.note).sorted { $0.id < $1.id }
        } catch {
            throw RPCError(RPCError.internalError, "cannot read the notebook: \(error)")
        }
        let page = notes.dropFirst(start).prefix(pageSize)
        let next = start + page.count < notes.count ? [("nextCursor", JSON.string(String(start + page.count)))] : []
        return .object([("resources", .array(page.map { note in
            .object([
                ("uri", .string(uri(note.id))), ("name", .string(note.title)), ("title", .string(note.title)),
                ("mimeType", .string(mimeType)), ("annotations", .object([("lastModified", .string(note.updated.iso8601))])),
            ])
        }))] + next)
    }

    /// The note a `notes://` URI names (an id, a handle or a unique part of one), or nil.
    static func note(at uri: String, store: NoteStore) throws -> Note? {
        guard uri.hasPrefix(scheme) else { return nil }
        let reference = String(uri.dropFirst(scheme.count))
        guard let id = try? store.resolve(reference) else { return nil }
        return try store.note(id)
    }

    static func read(_ uri: String, store: NoteStore) throws -> JSON? {
        guard let note = try note(at: uri, store: store) else { return nil }
        let text = NoteDocument.render(note, aliases: try store.aliases(of: note.id))
        return .object([("contents", .array([.object([("uri", .string(uri)), ("mimeType", .string(mimeType)), ("text", .string(text))])]))])
    }

    static let template = JSON.object([
        ("uriTemplate", .string(scheme + "{id}")), ("name", .string("note")), ("title", .string("A note")),
        ("description", .string("A note by its id, as Markdown with front matter (id, title, tags, created, updated).")),
        ("mimeType", .string(mimeType)),
    ])
}
