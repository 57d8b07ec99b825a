// `notes export`: every note as a Markdown file with front matter.
import Notes
import Storage

struct ExportCommand: NotesCommand {
    static let directory = Argument("dir", type: .text("dir", completion: .directories), help: "The directory to write to (created if missing).")

    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write every note to DIR as Markdown with front matter.",
        discussion: """
            One file per note: an imported note goes back under the name and folder it was
            imported from, any other note is named <id>.md. 'notes import DIR' reads them back
            with every field.
            """,
        arguments: [directory]
    )

    let directory: String

    init(arguments: ParsedArguments) throws(UsageError) {
        directory = arguments[Self.directory]!
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let notes = try store.notes()
        let files = ExportCommand.fileNames(for: notes, sourcePaths: try store.sourcePaths())
        try FileSystem.createDirectories(directory)
        let progress = ProgressBar(terminal: context.terminal, total: notes.count, label: "Exporting")
        for (index, note) in notes.enumerated() {
            let file = directory + "/" + files[note.id]!
            if let slash = file.lastIndex(of: "/") { try FileSystem.createDirectories(String(file[..<slash])) }
            try FileSystem.writeAtomically(Array(NoteDocument.render(note, aliases: try store.aliases(of: note.id)).utf8), to: file)
            progress.update(index + 1)
        }
        progress.finish()
        context.terminal.printError("Exported \(notes.count) note\(notes.count == 1 ? "" : "s") to \(directory)")
    }

    /// Each note's file, relative to the export directory: its imported path when it has one
    /// that no other note claims (oldest first) and that stays inside the directory, else its id.
    static func fileNames(for notes: [Note], sourcePaths: [NoteID: String]) -> [NoteID: String] {
        var names: [NoteID: String] = [:]
        var taken = Set(notes.map { $0.id.rawValue.lowercased() + ".md" })
        for note in notes.sorted(by: { $0.id < $1.id }) {
            if let path = sourcePaths[note.id], !path.hasPrefix("/"),
               !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
               taken.insert(path.lowercased() + ".md").inserted {
                names[note.id] = path + ".md"
            } else {
                names[note.id] = note.id.rawValue + ".md"
            }
        }
        return names
    }
}
