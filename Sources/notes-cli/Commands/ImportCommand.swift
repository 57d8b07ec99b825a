// `notes import`: Markdown files, ours (with front matter) or any other tool's.
import Notes
import Storage

struct ImportCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Import Markdown notes from a directory or file.",
        discussion: """
            Reads *.md, *.markdown and *.txt files, recursively, skipping hidden folders. Files from
            'notes export' keep their id, title, tags and times; other Markdown files get the first
            heading or line as title and the file's modification time. Importing the same files
            again changes nothing; a note already here is replaced only by a newer copy.
            """,
        options: [.json],
        positionals: [PositionalSpec(name: "path", help: "A directory (or a single file) to import.")]
    )

    static let extensions = [".md", ".markdown", ".txt"]

    let path: String
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        path = try arguments.requirePositionals(["path"])[0]
        json = arguments.has("json")
    }

    func run(_ context: Context) throws {
        let root: String
        let files: [String]
        if FileSystem.isDirectory(path) {
            root = path
            files = try FileSystem.files(under: path).filter { file in ImportCommand.extensions.contains { file.lowercased().hasSuffix($0) } }
        } else if FileSystem.exists(path) {
            root = "."
            files = [path]
        } else {
            throw CommandFailure("\(path) does not exist")
        }
        var notes: [Note] = []
        var skipped: [(file: String, reason: String)] = []
        var seen = Set<NoteID>()
        for file in files {
            let fullPath = root == "." ? file : root + "/" + file
            do {
                let note = try ImportCommand.note(fromFile: fullPath, relativePath: file)
                guard seen.insert(note.id).inserted else {
                    skipped.append((file, "another file has the same id \(note.id)"))
                    continue
                }
                notes.append(note)
            } catch {
                skipped.append((file, NotesCLI.describe(error, context: context)))
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
            ]))
        } else {
            for (file, reason) in skipped { context.terminal.printError(context.terminal.yellow("Skipped ") + file + ": " + reason) }
            context.terminal.printError("Imported \(notes.count) note\(notes.count == 1 ? "" : "s"): \(added) added, \(updated) updated, \(unchanged) unchanged"
                + (skipped.isEmpty ? "" : "; \(skipped.count) file\(skipped.count == 1 ? "" : "s") skipped"))
        }
    }

    /// A note from one file. Files without an id get one derived from their path, so that
    /// importing the same folder twice does not duplicate anything.
    static func note(fromFile path: String, relativePath: String) throws -> Note {
        let text = try NoteInput.decode(try FileSystem.read(path))
        let parsed = try NoteDocument.parse(text)
        let modified = Timestamp(milliseconds: FileSystem.modificationTime(path) ?? 0)
        let created = parsed.created ?? parsed.updated ?? modified
        let id = parsed.id ?? {
            var generator = SeededGenerator(text: relativePath)
            return NoteID(milliseconds: created.milliseconds, using: &generator)
        }()
        let body = NoteInput.normalizedBody(parsed.body)
        let title = parsed.title ?? NoteText.title(from: body)
        guard !body.isEmpty || !title.isEmpty else { throw NoteInputError.empty }
        return Note(id: id, title: title, body: body, tags: (parsed.tags ?? []) + Tags.inText(body),
                    created: created, updated: parsed.updated ?? max(created, modified))
    }
}
