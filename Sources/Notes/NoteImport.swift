// Markdown files from other tools (and from `notes export`) as notes, named the way their
// owners know them.

/// A note read from a file, with what the file says beside the note itself.
public struct ImportedNote: Equatable, Sendable {
    public var note: Note
    /// Other names links may use for it (front matter `aliases`).
    public var aliases: [String]
    /// The file's path in the imported folder without its extension (`Help/Sync/Troubleshoot`):
    /// a name links may use, and where `notes export` writes the note back.
    public var path: String
    /// The analysis and corrections an export wrote beside the note: restored with it.
    public var analysis: Analysis?
    public var corrections: Corrections

    public init(note: Note, aliases: [String], path: String, analysis: Analysis? = nil, corrections: Corrections = .none) {
        self.note = note
        self.aliases = aliases
        self.path = path
        self.analysis = analysis
        self.corrections = corrections
    }
}

public enum NoteImport {
    /// One file to import: its path under the imported folder, its text as read, and its
    /// modification time.
    public struct File: Sendable {
        public var relativePath: String
        var document: NoteDocument.Parsed
        var modified: Timestamp

        public init(relativePath: String, document: NoteDocument.Parsed, modified: Timestamp) {
            self.relativePath = relativePath
            self.document = document
            self.modified = modified
        }

        /// The path without the file's extension.
        var path: String {
            guard let dot = relativePath.lastIndex(of: "."), !relativePath[dot...].contains("/") else { return relativePath }
            return String(relativePath[..<dot])
        }

        public var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }
    }

    /// Whether files are an Obsidian-style vault, where a note's name is its file name: the
    /// folder has `.obsidian`, or any of its notes uses a `[[wikilink]]`.
    public static func isVault(_ files: [File], hasObsidianFolder: Bool) -> Bool {
        hasObsidianFolder || files.contains { file in
            // Most files have no `[[` at all: a byte search is enough for them.
            file.document.body.utf8.contains(UInt8(ascii: "[")) && file.document.body.contains("[[")
                && NoteLink.inText(file.document.body).contains { !$0.relative }
        }
    }

    /// The note a file holds, by `NoteRules` (its title: front matter `title`; in a vault the
    /// file name; otherwise the first `#` heading, then the file name, never a line of HTML).
    /// Files without an id get one derived from their path, so that importing the same folder
    /// twice does not duplicate anything.
    public static func note(from file: File, inVault: Bool) throws(NoteInputError) -> ImportedNote {
        let parsed = file.document
        let id = parsed.id ?? {
            let created = NoteRules.times(created: parsed.created, updated: parsed.updated, fallback: file.modified).created
            var generator = SeededGenerator(text: file.relativePath)
            return NoteID(milliseconds: created.milliseconds, using: &generator)
        }()
        let note = try NoteRules.note(id: id, body: parsed.body, title: parsed.title, tags: parsed.tags ?? [],
                                      created: parsed.created, updated: parsed.updated, fallbackTime: file.modified,
                                      origin: .imported(fileName: file.fileName, inVault: inVault))
        return ImportedNote(note: note, aliases: parsed.aliases ?? [], path: file.path, analysis: parsed.analysis, corrections: parsed.corrections)
    }

    /// The text of the first level-one heading outside code, without HTML tags; nil when there
    /// is none or it is only markup.
    static func firstHeading(_ body: String) -> String? {
        for case let .prose(run) in MarkdownText.pieces(body) where run.hasPrefix("# ")
            && (run.startIndex == body.startIndex || body[body.index(before: run.startIndex)].isNewline) {
            // A heading's prose may stop at an HTML tag or a link: take the whole line.
            let lineEnd = body[run.startIndex...].firstIndex(where: \.isNewline) ?? body.endIndex
            let text = MarkdownText.pieces(String(body[run.startIndex..<lineEnd])).compactMap { piece -> String? in
                switch piece {
                case let .prose(text): String(text)
                case let .link(link): link.target
                }
            }.joined()
            let title = NoteText.title(from: text)
            if !title.isEmpty { return title }
        }
        return nil
    }
}
