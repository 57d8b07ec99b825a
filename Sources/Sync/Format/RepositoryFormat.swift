// The layout of the sync repository, readable with plain git, `cat` and any Markdown editor:
//
//     .notes-format            "notes-sync-format: 1": newer formats are refused, not misread
//     notes/<id>.md            a note: front matter and body (NoteDocument)
//     analysis/<id>.yml        its analysis, so other machines need not recompute it
//     deleted/<id>             a tombstone: "deleted: <time>"
//     conflicts/<id>           a flag for the user: "kind: edited-on-both" and "copy: <id>",
//                              or "kind: edit-beat-delete"
import Notes

public enum RepositoryFormat {
    public static let version = 1
    static let markerName = ".notes-format"
    static var marker: [UInt8] { Array("notes-sync-format: \(version)\n".utf8) }

    public enum Folder: String, CaseIterable, Sendable {
        case notes, analysis, deleted, conflicts

        func fileName(_ id: NoteID) -> String {
            switch self {
            case .notes: id.rawValue + ".md"
            case .analysis: id.rawValue + ".yml"
            case .deleted, .conflicts: id.rawValue
            }
        }

        func id(fromFileName name: String) -> NoteID? {
            switch self {
            case .notes: name.hasSuffix(".md") ? NoteID(String(name.dropLast(3))) : nil
            case .analysis: name.hasSuffix(".yml") ? NoteID(String(name.dropLast(4))) : nil
            case .deleted, .conflicts: NoteID(name)
            }
        }
    }

    /// The version a marker file declares, or nil when it is not one.
    static func version(ofMarker bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        guard text.hasPrefix("notes-sync-format:") else { return nil }
        return Int(text.dropFirst("notes-sync-format:".count).trimmingWhitespace())
    }

    // MARK: Notes

    static func noteFile(_ note: Note) -> [UInt8] { Array(NoteDocument.render(note).utf8) }

    static func note(fromFile bytes: [UInt8], id: NoteID) throws -> Note {
        let text = String(decoding: bytes, as: UTF8.self)
        let parsed: NoteDocument.Parsed
        do { parsed = try NoteDocument.parse(text) } catch {
            throw SyncError.unreadableFile(path: "notes/" + Folder.notes.fileName(id), reason: error.description)
        }
        return NoteRules.note(synced: parsed, id: id)
    }

    // MARK: Tombstones

    static func tombstoneFile(_ time: Timestamp) -> [UInt8] { Array("deleted: \(time.iso8601)\n".utf8) }

    static func tombstone(fromFile bytes: [UInt8]) -> Timestamp {
        let fields = keyValues(bytes)
        return fields["deleted"].flatMap { Timestamp(iso8601: $0) } ?? Timestamp(milliseconds: 0)
    }

    // MARK: Conflict flags

    static func conflictFile(_ kind: ConflictKind) -> [UInt8] {
        switch kind {
        case let .editedOnBoth(copy): Array("kind: edited-on-both\ncopy: \(copy)\n".utf8)
        case .editBeatDelete: Array("kind: edit-beat-delete\n".utf8)
        }
    }

    static func conflict(fromFile bytes: [UInt8]) -> ConflictKind? {
        let fields = keyValues(bytes)
        switch fields["kind"] {
        case "edited-on-both": return fields["copy"].flatMap(NoteID.init).map { .editedOnBoth(copy: $0) }
        case "edit-beat-delete": return .editBeatDelete
        default: return nil
        }
    }

    // MARK: Analyses

    static func analysisFile(_ analysis: Analysis) -> [UInt8] {
        var text = analysis.scalarFields.map { "\($0.key): \($0.value)\n" }.joined()
        text += "tasks:\n"
        for task in analysis.tasks {
            text += "  - \(task.done ? "[x]" : "[ ]") \(quoted(task.text))\n"
            // On a line of its own: a version that predates due days reads past it.
            if let due = task.due { text += "    due: \(due)\n" }
        }
        return Array(text.utf8)
    }

    /// Nil when the file is not a readable analysis: it is derived data, recomputed if lost.
    static func analysis(fromFile bytes: [UInt8]) -> Analysis? {
        let text = String(decoding: bytes, as: UTF8.self)
        var fields: [String: String] = [:]
        var tasks: [TaskItem] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("  - [") {
                let done = line.hasPrefix("  - [x]")
                guard let body = unquoted(String(line.dropFirst(8))) else { return nil }
                tasks.append(TaskItem(text: body, done: done))
            } else if line.hasPrefix("    due: "), !tasks.isEmpty {
                tasks[tasks.count - 1].due = String(line.dropFirst(9)).trimmingWhitespace()
            } else if let colon = line.firstIndex(of: ":") {
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingWhitespace()
            }
        }
        return Analysis(scalarFields: fields, tasks: tasks)
    }

    // MARK: Small text helpers

    private static func keyValues(_ bytes: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingWhitespace()] = line[line.index(after: colon)...].trimmingWhitespace()
        }
        return fields
    }

    static func quoted(_ text: String) -> String { QuotedString.quoted(text) }

    /// The text of a double-quoted scalar, or nil when `text` is not one.
    static func unquoted(_ text: String) -> String? {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        return QuotedString.unquoted(text)
    }
}
