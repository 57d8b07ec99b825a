// `notes export`: every note as a Markdown file with front matter.
import Notes
import Storage

struct ExportCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write every note to DIR as Markdown with front matter.",
        discussion: "One file per note, named <id>.md. 'notes import DIR' reads them back with every field.",
        positionals: [PositionalSpec(name: "dir", help: "The directory to write to (created if missing).")]
    )

    let directory: String

    init(arguments: ParsedArguments) throws(UsageError) {
        directory = try arguments.requirePositionals(["dir"])[0]
    }

    func run(_ context: Context) throws {
        let notes = try context.store().notes()
        try FileSystem.makeDirectories(directory)
        let progress = ProgressBar(terminal: context.terminal, total: notes.count, label: "Exporting")
        for (index, note) in notes.enumerated() {
            try FileSystem.writeAtomically(Array(NoteDocument.render(note).utf8), to: directory + "/" + note.id.rawValue + ".md")
            progress.update(index + 1)
        }
        progress.finish()
        context.terminal.printError("Exported \(notes.count) note\(notes.count == 1 ? "" : "s") to \(directory)")
    }
}
