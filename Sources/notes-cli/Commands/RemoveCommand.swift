// `notes rm`: delete notes (a tombstone stays for sync).
import Notes
import Storage

struct RemoveCommand: NotesCommand {
    static let force = Flag("-f", "--force", help: "Delete without asking.")
    static let notes = Argument("id", type: .note, help: "The notes to delete: handles, or unique starts or ends of their ids.", repeating: true)

    static let configuration = CommandConfiguration(
        name: "rm",
        abstract: "Delete notes.",
        discussion: "Asks first on a terminal. Without a terminal, -f is required.",
        options: [force],
        arguments: [notes]
    )

    let references: [String]
    let force: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        references = arguments.all(Self.notes)
        force = arguments[Self.force]
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        // Resolve every reference before deleting any, so a typo deletes nothing.
        var notes: [Note] = []
        for reference in references {
            let id = try store.resolve(reference)
            if let note = try store.note(id), !notes.contains(where: { $0.id == id }) { notes.append(note) }
        }
        // Links from the notes that stay will point at nothing: say so before and after.
        let removed = Set(notes.map(\.id))
        var linkingNotes = Set<NoteID>()
        for note in notes { for link in try store.backlinks(to: note.id) where !removed.contains(link.source) { linkingNotes.insert(link.source) } }
        let linked = linkingNotes.isEmpty ? "" : " (\(linkingNotes.count) other note\(linkingNotes.count == 1 ? " links" : "s link") to \(notes.count == 1 ? "it" : "them"))"
        if !force {
            guard context.terminal.stdinIsTerminal else {
                throw CommandFailure("refusing to delete without confirmation; use 'notes rm -f' in scripts")
            }
            let what = notes.count == 1 ? "'\(notes[0].title)'" : "\(notes.count) notes"
            guard context.terminal.confirm("Delete \(what)\(linked)?") else {
                context.terminal.printError("Nothing deleted.")
                return
            }
        }
        let now = Clock.now()
        let handles = try store.handles(for: notes.map(\.id))
        for note in notes {
            try store.delete(note.id, at: now)
            context.terminal.printError("Deleted \(handles[note.id] ?? note.id.rawValue)  \(note.title)")
        }
        if !linkingNotes.isEmpty {
            context.terminal.printError("Links from \(linkingNotes.count) note\(linkingNotes.count == 1 ? "" : "s") are broken now (unless another note has the name): see 'notes links --broken'.")
        }
    }
}
