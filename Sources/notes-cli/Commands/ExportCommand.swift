// `notes export`: every note as a Markdown file with front matter (`NotebookExport`).
import Notebook
import Notes

struct ExportCommand: NotesCommand {
    static let directory = Argument("dir", type: .text("dir", completion: .directories), help: "The directory to write to (created if missing).")

    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write every note to DIR as Markdown with front matter.",
        discussion: """
            One file per note: an imported note goes back under the name and folder it was
            imported from, any other note is named <id>.md. The front matter holds the note's
            analysis (with its tasks' done marks and due days) and your corrections, under keys
            other tools read past, so 'notes import DIR' into a new notebook restores all of it.
            Exporting into the same folder again mirrors the notebook: the files of notes that
            are gone are removed, unless they changed since the last export (those are kept and
            named). Files notes did not write are never touched.
            """,
        arguments: [directory]
    )

    let directory: String

    init(arguments: ParsedArguments) throws(UsageError) {
        directory = arguments[Self.directory]!
    }

    func run(_ context: Context) throws {
        var progress: ProgressBar?
        let summary = try NotebookExport.export(try context.notebook(), to: directory) { done, total in
            if progress == nil { progress = ProgressBar(terminal: context.terminal, total: total, label: "Exporting") }
            progress?.update(done)
        }
        progress?.finish()
        let terminal = context.terminal
        for file in summary.keptChanged {
            terminal.printError(terminal.yellow("Kept ") + file + ": its note is gone, but the file changed since the last export")
        }
        var line = "Exported \(summary.written) note\(summary.written == 1 ? "" : "s") to \(directory)"
        if !summary.removed.isEmpty {
            line += "; removed \(summary.removed.count) file\(summary.removed.count == 1 ? "" : "s") of notes that are gone"
        }
        terminal.printError(line)
    }
}
