// `notes export` as a use case: every note as a Markdown file with its analysis and the user's
// corrections in front matter, and the folder kept a mirror of the notebook.
import Notes
import Storage

/// A folder holds one export: `.notes-export` lists the files the last one wrote, each with the
/// fingerprint of what it wrote. The next export into the folder removes the files of notes that
/// are gone (deleted, or renamed to another file), but only those it wrote and nobody changed
/// since: a file another program edited, and every file notes did not write, stays.
public enum NotebookExport {
    public static let manifestName = ".notes-export"

    public struct Summary: Equatable, Sendable {
        public var written: Int
        /// Files of the last export whose notes are gone, removed (relative paths).
        public var removed: [String]
        /// Files of the last export whose notes are gone, kept because they changed since.
        public var keptChanged: [String]
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notAFolder(String)

        public var description: String {
            switch self {
            case let .notAFolder(path): "\(path) is a file, not a folder: export writes a folder of notes; nothing was written"
            }
        }
    }

    public static func export(_ notebook: LocalNotebook, to directory: String, progress: (Int, Int) -> Void = { _, _ in }) throws -> Summary {
        try export(notebook.store, to: directory, progress: progress)
    }

    public static func export(_ store: NoteStore, to directory: String, progress: (Int, Int) -> Void = { _, _ in }) throws -> Summary {
        if FileSystem.exists(directory), !FileSystem.isDirectory(directory) { throw Failure.notAFolder(directory) }
        try FileSystem.createDirectories(directory)
        let notes = try store.notes()
        let files = fileNames(for: notes, sourcePaths: try store.sourcePaths())
        let previous = readManifest(in: directory)
        var written: [(path: String, fingerprint: String)] = []
        for (index, note) in notes.enumerated() {
            let relative = files[note.id]!
            let file = directory + "/" + relative
            if let slash = file.lastIndex(of: "/") { try FileSystem.createDirectories(String(file[..<slash])) }
            let kept = try store.analysisAndCorrections(for: note.id)
            let text = NoteDocument.render(note, aliases: try store.aliases(of: note.id), analysis: kept?.analysis,
                                           corrections: kept?.corrections ?? .none)
            try FileSystem.writeAtomically(Array(text.utf8), to: file)
            written.append((relative, ContentHash.of(text)))
            progress(index + 1, notes.count)
        }
        var summary = Summary(written: notes.count, removed: [], keptChanged: [])
        let now = Set(written.map(\.path))
        for (relative, fingerprint) in previous where !now.contains(relative) {
            let file = directory + "/" + relative
            guard let bytes = try? FileSystem.read(file) else { continue }
            if ContentHash.of(String(decoding: bytes, as: UTF8.self)) == fingerprint {
                try FileSystem.remove(file)
                summary.removed.append(relative)
            } else {
                summary.keptChanged.append(relative)
            }
        }
        // Files kept because they changed stay listed, so a later export still knows them as its own.
        let listed = written + previous.filter { summary.keptChanged.contains($0.path) }
        try FileSystem.writeAtomically(Array(listed.map { "\($0.fingerprint) \($0.path)\n" }.joined().utf8),
                                       to: directory + "/" + manifestName)
        return summary
    }

    /// What the last export into `directory` wrote: (relative path, fingerprint).
    static func readManifest(in directory: String) -> [(path: String, fingerprint: String)] {
        guard let bytes = try? FileSystem.read(directory + "/" + manifestName) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { (line: Substring) -> (path: String, fingerprint: String)? in
            guard let space = line.firstIndex(of: " ") else { return nil }
            let path = String(line[line.index(after: space)...])
            // A manifest someone edited cannot remove files elsewhere.
            guard staysInside(path) else { return nil }
            return (path, String(line[..<space]))
        }
    }

    /// Whether a relative path names a file inside the folder (no `/` start, no `..` or `.`).
    static func staysInside(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }

    /// Each note's file, relative to the export directory: its imported path when it has one
    /// that no other note claims (oldest first) and that stays inside the directory, else its id.
    static func fileNames(for notes: [Note], sourcePaths: [NoteID: String]) -> [NoteID: String] {
        var names: [NoteID: String] = [:]
        var taken = Set(notes.map { $0.id.rawValue.lowercased() + ".md" })
        for note in notes.sorted(by: { $0.id < $1.id }) {
            if let path = sourcePaths[note.id], staysInside(path), taken.insert(path.lowercased() + ".md").inserted {
                names[note.id] = path + ".md"
            } else {
                names[note.id] = note.id.rawValue + ".md"
            }
        }
        return names
    }
}
