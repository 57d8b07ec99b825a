// `notes import`: Markdown files, ours (with front matter) or any other tool's.
import Notes
import Storage

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

    static let extensions = [".md", ".markdown", ".txt"]

    let path: String
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        path = arguments[Self.path]!
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let root: String
        let candidates: [String]
        if FileSystem.isDirectory(path) {
            root = path
            candidates = try FileSystem.files(under: path)
        } else if FileSystem.exists(path) {
            root = "."
            candidates = [path]
        } else {
            throw CommandFailure("\(path) does not exist")
        }
        let files = candidates.filter { file in ImportCommand.extensions.contains { file.lowercased().hasSuffix($0) } }
        let otherFiles = candidates.count - files.count
        var read: [NoteImport.File] = []
        var skipped: [(file: String, reason: String)] = []
        for file in files {
            let fullPath = root == "." ? file : root + "/" + file
            do {
                let text = try NoteInput.decode(try FileSystem.read(fullPath))
                read.append(NoteImport.File(relativePath: file, document: try NoteDocument.parse(text),
                                            modified: Timestamp(milliseconds: FileSystem.identity(of: fullPath)?.modifiedMilliseconds ?? 0)))
            } catch {
                skipped.append((file, NotesCLI.describe(error, context: context)))
            }
        }
        let inVault = NoteImport.isVault(read, hasObsidianFolder: root != "." && FileSystem.isDirectory(root + "/.obsidian"))
        var notes: [ImportedNote] = []
        var seen = Set<NoteID>()
        for file in read {
            do {
                var imported = try NoteImport.note(from: file, inVault: inVault)
                // A single file is named by its own name, not by the path it was given as.
                if root == "." { imported.path = file.fileName }
                guard seen.insert(imported.note.id).inserted else {
                    skipped.append((file.relativePath, "another file has the same id \(imported.note.id)"))
                    continue
                }
                notes.append(imported)
            } catch {
                skipped.append((file.relativePath, NotesCLI.describe(error, context: context)))
            }
        }
        let progress = ProgressBar(terminal: context.terminal, total: notes.count, label: "Importing")
        let outcomes = try context.store().importNotes(notes) { progress.update($0) }
        progress.finish()
        let added = outcomes.filter { $0 == .added }.count
        let updated = outcomes.filter { $0 == .updated }.count
        let unchanged = outcomes.filter { $0 == .unchanged }.count
        if json {
            context.terminal.emit(.object([
                ("added", .int(added)), ("updated", .int(updated)), ("unchanged", .int(unchanged)),
                ("skipped", .array(skipped.map { .object([("file", .string($0.file)), ("reason", .string($0.reason))]) })),
                ("other_files", .int(otherFiles)),
            ]))
        } else {
            for (file, reason) in skipped { context.terminal.printError(context.terminal.yellow("Skipped ") + file + ": " + reason) }
            context.terminal.printError("Imported \(notes.count) note\(notes.count == 1 ? "" : "s"): \(added) added, \(updated) updated, \(unchanged) unchanged"
                + (skipped.isEmpty ? "" : "; \(skipped.count) file\(skipped.count == 1 ? "" : "s") skipped")
                + (otherFiles == 0 ? "" : "; \(otherFiles) other file\(otherFiles == 1 ? "" : "s") (not Markdown or text) left out"))
        }
    }
}
