// `notes rm`: delete notes (a tombstone stays for sync).
import Notebook
import Notes

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
        let notebook = try context.notebook()
        let removal = try notebook.removal(of: references)
        let (notes, linkingNotes) = (removal.notes, removal.linkingNotes)
        // Links from the notes that stay will point at nothing: say so before and after.
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
        try notebook.delete(removal, at: Timestamp.current) { note, handle in
            context.terminal.printError("Deleted \(handle)  \(note.title)")
        }
        if !linkingNotes.isEmpty {
            context.terminal.printError("Links from \(linkingNotes.count) note\(linkingNotes.count == 1 ? "" : "s") are broken now (unless another note has the name): see 'notes links --broken'.")
        }
    }
}
