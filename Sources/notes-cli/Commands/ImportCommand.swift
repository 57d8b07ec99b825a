// `notes import`: Markdown files, ours (with front matter) or any other tool's.
import Notebook
import Notes

struct ImportCommand: NotesCommand {
    static let path = Argument("path", type: .text("path", completion: .files), help: "A directory (or a single file) to import.")

    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Import Markdown notes from a directory or file.",
        discussion: """
            Reads *.md, *.markdown and *.txt files, recursively, skipping hidden folders; other
            files (attachments) are counted and left out. Files from 'notes export' keep their id,
            title, tags, aliases and times. Other files are titled by front matter 'title', else,
            in an Obsidian vault (a .obsidian folder, or notes with [[wikilinks]]), by their file
            name, else by their first '# heading', else their file name. [[Links]] between the
            notes are resolved. Importing the same files again changes nothing; a note already
            here is replaced only by a newer copy.
            """,
        options: [Common.json],
        arguments: [path]
    )

    let path: String
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        path = arguments[Self.path]!
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let plan = try NotebookImport.plan(path) { NotesCLI.describe($0, context: context) }
        let progress = ProgressBar(terminal: context.terminal, total: plan.notes.count, label: "Importing")
        let pauseAt = Settings(context.environment)[.importPauseAt].flatMap(Int.init)
        let terminal = context.terminal
        let summary = try NotebookImport.run(plan, into: context.notebook()) { done in
            progress.update(done)
            if let pauseAt, done == pauseAt { terminal.pauseForKillTest(at: "\(done) notes stored") }
        }
        progress.finish()
        let (skipped, otherFiles) = (plan.skipped, plan.otherFiles)
        if json {
            context.terminal.emit(.object([
                ("added", .int(summary.added)), ("updated", .int(summary.updated)), ("unchanged", .int(summary.unchanged)),
                ("skipped", .array(skipped.map { .object([("file", .string($0.file)), ("reason", .string($0.reason))]) })),
                ("other_files", .int(otherFiles)),
            ]))
        } else {
            for (file, reason) in skipped { context.terminal.printError(context.terminal.yellow("Skipped ") + file + ": " + reason) }
            let count = plan.notes.count
            context.terminal.printError("Imported \(count) note\(count == 1 ? "" : "s"): \(summary.added) added, \(summary.updated) updated, \(summary.unchanged) unchanged"
                + (skipped.isEmpty ? "" : "; \(skipped.count) file\(skipped.count == 1 ? "" : "s") skipped")
                + (otherFiles == 0 ? "" : "; \(otherFiles) other file\(otherFiles == 1 ? "" : "s") (not Markdown or text) left out"))
        }
    }
}
