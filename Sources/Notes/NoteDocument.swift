// A note as a Markdown file with front matter: the format of `notes export` and of the sync
// repository, readable with `cat` and any Markdown editor.
//
//     ---
//     id: 0193f2a1-8b2c-7d3e-9f40-123456789abc
//     title: "Call the dentist"
//     tags: [health, home]
//     created: 2026-11-29T13:34:33.123Z
//     updated: 2026-11-29T13:34:33.123Z
//     ---
//     Call the dentist tomorrow #health
//
// The body follows the closing `---`; the file adds one newline after it, which parsing removes.
// An export adds the note's analysis and the user's corrections (NoteDocument+Analysis.swift).

public enum NoteDocument {
    /// What a file says; fields a plain Markdown file lacks are nil.
    public struct Parsed: Equatable, Sendable {
        var id: NoteID?
        var title: String?
        var tags: [String]?
        /// Other names links may use for the note (Obsidian's `aliases:`).
        var aliases: [String]?
        var created: Timestamp?
        var updated: Timestamp?
        var body: String
        /// The analysis `notes export` wrote, and the user's corrections over it.
        var analysis: Analysis?
        var corrections = Corrections.none
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case unterminatedFrontMatter
        case invalidField(name: String, value: String)

        public var description: String {
            switch self {
            case .unterminatedFrontMatter: "the front matter opened with --- is never closed"
            case let .invalidField(name, value): "front matter field '\(name)' has an invalid value: \(value)"
            }
        }
    }

    /// `aliases`, `analysis` and `corrections` are written only when there are some (the sync
    /// repository never has them: it keeps analyses in files of their own).
    public static func render(_ note: Note, aliases: [String] = [], analysis: Analysis? = nil, corrections: Corrections = .none) -> String {
        var text = "---\n"
        text += "id: \(note.id)\n"
        text += "title: \(QuotedString.quoted(note.title))\n"
        text += "tags: [\(note.tags.joined(separator: ", "))]\n"
        if !aliases.isEmpty { text += "aliases: [\(aliases.map(QuotedString.quoted).joined(separator: ", "))]\n" }
        text += "created: \(note.created.iso8601)\n"
        text += "updated: \(note.updated.iso8601)\n"
        if let analysis { text += render(analysis: analysis) }
        text += render(corrections: corrections)
        text += "---\n"
        // Always one more newline than the body has: parse removes exactly one.
        return text + note.body + "\n"
    }

    /// Reads a file written by `render`, or a plain Markdown file (no front matter). Unknown
    /// front matter keys (from Obsidian, Jekyll, ...) are ignored.
    public static func parse(_ text: String) throws(ParseError) -> Parsed {
        var parsed = Parsed(body: text)
        let normalized = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        guard normalized.hasPrefix("---\n") || normalized.hasPrefix("---\r\n") else {
            parsed.body = stripOneNewline(normalized)
            return parsed
        }
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)[...]
        lines.removeFirst()
        var closed = false
        while let line = lines.popFirst() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed == "---" {
                closed = true
                break
            }
            // An indented line belongs to the key above it (a nested value from another tool),
            // never to a key of ours.
            guard let first = trimmed.first, first != " ", first != "\t", let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = trimmed[..<colon].trimmingWhitespace().lowercased()
            let value = trimmed[trimmed.index(after: colon)...].trimmingWhitespace()
            switch key {
            case "id":
                guard let id = NoteID(QuotedString.unquoted(value)) else { throw .invalidField(name: key, value: value) }
                parsed.id = id
            case "title":
                parsed.title = QuotedString.unquoted(value)
            case "tags":
                parsed.tags = list(value, continuedBy: &lines)
            case "aliases", "alias":
                parsed.aliases = list(value, continuedBy: &lines)
            case "created", "date":
                guard let time = Timestamp(iso8601: QuotedString.unquoted(value)) else { throw .invalidField(name: key, value: value) }
                if key == "created" || parsed.created == nil { parsed.created = time }
            case "updated", "modified":
                guard let time = Timestamp(iso8601: QuotedString.unquoted(value)) else { throw .invalidField(name: key, value: value) }
                parsed.updated = time
            case analysisKey:
                parsed.analysis = analysis(fromBlock: indentedBlock(&lines))
            case correctionsKey:
                parsed.corrections = corrections(fromBlock: indentedBlock(&lines))
            default:
                continue
            }
        }
        guard closed else { throw .unterminatedFrontMatter }
        parsed.body = stripOneNewline(lines.joined(separator: "\n"))
        return parsed
    }

    /// The indented lines that follow a key (its nested value), taken from `lines`.
    private static func indentedBlock(_ lines: inout ArraySlice<Substring>) -> [Substring] {
        var block: [Substring] = []
        while let next = lines.first, next.hasPrefix(" ") || next.hasPrefix("\t") {
            block.append(next.hasSuffix("\r") ? next.dropLast() : next)
            lines.removeFirst()
        }
        return block
    }

    /// The newline that `render` adds after the body (files from other tools end with one too).
    private static func stripOneNewline(_ text: String) -> String {
        if text.hasSuffix("\r\n") { return String(text.dropLast(2)) }
        if text.hasSuffix("\n") { return String(text.dropLast()) }
        return text
    }

    /// `[a, b]`, `a, b` or a single word; or, when `value` is empty, the block form Obsidian
    /// writes, one `  - item` per following line (taken from `lines`).
    static func list(_ value: String, continuedBy lines: inout ArraySlice<Substring>) -> [String] {
        var items = list(value)
        while value.isEmpty, let next = lines.first, next.trimmingWhitespace().hasPrefix("- ") {
            items.append(QuotedString.unquoted(String(next.trimmingWhitespace().dropFirst(2)).trimmingWhitespace()))
            lines.removeFirst()
        }
        return items.filter { !$0.isEmpty }
    }

    /// `[a, b]`, `a, b` or a single word. A comma inside a quoted item is part of it.
    static func list(_ value: String) -> [String] {
        var inner = Substring(value)
        if inner.hasPrefix("["), inner.hasSuffix("]") { inner = inner.dropFirst().dropLast() }
        var items: [String] = []
        var item = ""
        var quote: Character?
        var escaped = false
        for character in inner {
            if let open = quote {
                if open == "\"", character == "\\", !escaped { escaped = true } else {
                    if character == open, !escaped { quote = nil }
                    escaped = false
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "," {
                items.append(item)
                item = ""
                continue
            }
            item.append(character)
        }
        items.append(item)
        return items.map { QuotedString.unquoted($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    public func replacingOccurrences(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
