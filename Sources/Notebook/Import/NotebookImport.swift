// `notes import`'s work: Markdown files from a folder (ours, from `notes export`, or any other
// tool's) read into notes, then stored. The command parses, calls this and prints the summary.
import Notes
import Storage

public enum NotebookImport {
    /// What is imported: files with these endings; every other file is counted and left out.
    public static let extensions = [".md", ".markdown", ".txt"]

    /// The notes read from `path`, and what could not be read.
    public struct Plan {
        public var notes: [ImportedNote]
        public var skipped: [(file: String, reason: String)]
        /// Files that are not notes (attachments), left out.
        public var otherFiles: Int
    }

    public struct Summary: Equatable, Sendable {
        public var added: Int
        public var updated: Int
        public var unchanged: Int
    }

    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) does not exist" }
    }

    /// Reads the notes of a folder (recursively, hidden folders skipped) or of a single file.
    /// A file that cannot be read or parsed, or that repeats another's id, is skipped with its
    /// reason (`describe` words an error as the caller prints it).
    public static func plan(_ path: String, describe: (any Error) -> String) throws -> Plan {
        let root: String
        let candidates: [String]
        if FileSystem.isDirectory(path) {
            root = path
            candidates = try FileSystem.files(under: path)
        } else if FileSystem.exists(path) {
            root = "."
            candidates = [path]
        } else {
            throw Missing(path: path)
        }
        let files = candidates.filter { file in extensions.contains { file.lowercased().hasSuffix($0) } }
        var read: [NoteImport.File] = []
        var skipped: [(file: String, reason: String)] = []
        for file in files {
            let fullPath = root == "." ? file : root + "/" + file
            do {
                let text = try NoteInput.decode(try FileSystem.read(fullPath))
                read.append(NoteImport.File(relativePath: file, document: try NoteDocument.parse(text),
                                            modified: Timestamp(milliseconds: FileSystem.identity(of: fullPath)?.modifiedMilliseconds ?? 0)))
            } catch {
                skipped.append((file, describe(error)))
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
                skipped.append((file.relativePath, describe(error)))
            }
        }
        return Plan(notes: notes, skipped: skipped, otherFiles: candidates.count - files.count)
    }

    /// Stores the plan's notes: new ones added, older copies replaced by newer ones, the same
    /// left as they are. `progress` is told how many are done.
    public static func run(_ plan: Plan, into notebook: LocalNotebook, progress: (Int) -> Void = { _ in }) throws -> Summary {
        try run(plan, into: notebook.store, progress: progress)
    }

    public static func run(_ plan: Plan, into store: NoteStore, progress: (Int) -> Void = { _ in }) throws -> Summary {
        let outcomes = try store.importNotes(plan.notes, progress: progress)
        return Summary(added: outcomes.filter { $0 == .added }.count, updated: outcomes.filter { $0 == .updated }.count,
                       unchanged: outcomes.filter { $0 == .unchanged }.count)
    }
}
