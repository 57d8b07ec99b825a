// Markdown read the way Obsidian reads it: which parts of a note are prose (where #tags live)
// and which are links to other notes. One scanner, so tags and links never disagree about what
// is code, a URL or HTML.

enum MarkdownText {
    /// A part of the text that matters to tags or links. Everything else (fenced and inline
    /// code, HTML tags and comments, `%%comments%%`, URLs, link text and destinations) is passed
    /// over.
    enum Piece: Equatable {
        /// Running text; a piece starts after a line break or something passed over.
        case prose(Substring)
        /// A `[[wikilink]]`, `![[embed]]` or relative Markdown link to a note.
        case link(NoteLink)
    }

    /// Every prose run and note link, in order.
    static func pieces(_ text: String) -> [Piece] {
        var scanner = Scanner()
        // By byte: "\r\n" gives an empty line between the two, which changes nothing here.
        for line in text.utf8.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 10 || $0 == 13 }) {
            scanner.scan(Substring(line))
        }
        return scanner.pieces
    }

    private struct Scanner {
        var pieces: [Piece] = []
        /// The fence that opened the current code block (``` or ~~~, possibly longer).
        var fence: Substring?
        /// The text that closes a comment left open on an earlier line: `-->` or `%%`.
        var openComment: String?

        mutating func scan(_ line: Substring) {
            let bytes = line.utf8
            // Trimming every line costs more than the rest of the scan: only a line that may be
            // a fence, or any line inside one, is trimmed. A fence may be in a blockquote or a
            // callout (`> ```css`).
            let firstByte = bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            func unquoted() -> Substring {
                Substring(line.drop { $0 == " " || $0 == "\t" || $0 == ">" }.trimmingWhitespace())
            }
            if let open = fence {
                let trimmed = unquoted()
                if trimmed.hasPrefix(open), trimmed.allSatisfy({ $0 == open.first }) { fence = nil }
                return
            }
            if openComment == nil, firstByte == UInt8(ascii: "`") || firstByte == UInt8(ascii: "~") || firstByte == UInt8(ascii: ">") {
                let trimmed = unquoted()
                let run = trimmed.prefix { $0 == trimmed.first }
                if run.count >= 3, run.first == "`" || run.first == "~" {
                    fence = run
                    return
                }
            }
            var index = line.startIndex
            var proseStart = index
            func flush(upTo end: Substring.Index) {
                if proseStart < end { pieces.append(.prose(line[proseStart..<end])) }
            }
            if let close = openComment {
                guard let end = line.range(of: close) else { return }
                openComment = nil
                index = end.upperBound
                proseStart = index
            }
            // Every construct starts with an ASCII byte, so the scan walks bytes; slices cut
            // before an ASCII byte are on character boundaries.
            while index < bytes.endIndex {
                switch bytes[index] {
                case UInt8(ascii: "`"), UInt8(ascii: "<"), UInt8(ascii: "%"), UInt8(ascii: "!"), UInt8(ascii: "["), UInt8(ascii: ":"):
                    if let skipped = skippable(line, at: index, after: proseStart) {
                        flush(upTo: skipped.start)
                        if case let .link(link) = skipped.piece { pieces.append(.link(link)) }
                        if let close = skipped.opensComment {
                            openComment = close
                            return
                        }
                        index = skipped.end
                        proseStart = index
                        continue
                    }
                default:
                    break
                }
                bytes.formIndex(after: &index)
            }
            flush(upTo: line.endIndex)
        }

        /// What is not prose at `index` of `line` (a URL starts before its `://`, but not before
        /// `proseStart`): where it starts and ends, and the link it is.
        func skippable(_ line: Substring, at index: Substring.Index, after proseStart: Substring.Index)
            -> (start: Substring.Index, end: Substring.Index, piece: Piece?, opensComment: String?)? {
            let rest = line[index...]
            switch rest.utf8.first {
            case UInt8(ascii: "`"):
                let run = rest.prefix { $0 == "`" }
                let after = rest[run.endIndex...]
                // An unmatched backtick is a literal one.
                guard let close = after.range(of: run) else { return nil }
                return (index, close.upperBound, nil, nil)
            case UInt8(ascii: "<"):
                if rest.hasPrefix("<!--") {
                    guard let close = rest.dropFirst(4).range(of: "-->") else { return (index, rest.endIndex, nil, "-->") }
                    return (index, close.upperBound, nil, nil)
                }
                guard let next = rest.dropFirst().first, next.isLetter || next == "/" || next == "!",
                      let close = rest.firstIndex(of: ">") else { return nil }
                return (index, rest.index(after: close), nil, nil)
            case UInt8(ascii: "%"):
                guard rest.hasPrefix("%%") else { return nil }
                guard let close = rest.dropFirst(2).range(of: "%%") else { return (index, rest.endIndex, nil, "%%") }
                return (index, close.upperBound, nil, nil)
            case UInt8(ascii: "!"):
                if rest.dropFirst().hasPrefix("[[") {
                    guard let (end, inner) = wikilink(rest.dropFirst()) else { return nil }
                    return (index, end, NoteLink(wikilink: inner, embed: true).map(Piece.link), nil)
                }
                guard rest.dropFirst().first == "[", let (end, destination) = markdownLink(rest.dropFirst()) else { return nil }
                return (index, end, NoteLink(markdownDestination: destination, embed: true).map(Piece.link), nil)
            case UInt8(ascii: "["):
                if rest.hasPrefix("[[") {
                    guard let (end, inner) = wikilink(rest) else { return nil }
                    return (index, end, NoteLink(wikilink: inner, embed: false).map(Piece.link), nil)
                }
                guard let (end, destination) = markdownLink(rest) else { return nil }
                return (index, end, NoteLink(markdownDestination: destination, embed: false).map(Piece.link), nil)
            case UInt8(ascii: ":"):
                guard rest.hasPrefix("://"), let start = urlStart(line, colon: index, after: proseStart) else { return nil }
                return (start, rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex, nil, nil)
            default:
                return nil
            }
        }

        /// Where the scheme before `://` begins (`https` in `see (https://...`): a run of ASCII
        /// letters, digits, `+`, `.` and `-` starting with a letter.
        func urlStart(_ line: Substring, colon: Substring.Index, after proseStart: Substring.Index) -> Substring.Index? {
            let bytes = line.utf8
            var start = colon
            while start > proseStart {
                let before = bytes.index(before: start)
                let byte = bytes[before]
                let isSchemeByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                guard isSchemeByte else { break }
                start = before
            }
            guard start < colon, let first = bytes[start...].first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else { return nil }
            return start
        }

        /// `[[inner]]` on one line: where it ends and what is inside.
        func wikilink(_ rest: Substring) -> (Substring.Index, Substring)? {
            let inside = rest.dropFirst(2)
            guard let close = inside.range(of: "]]") else { return nil }
            return (close.upperBound, inside[..<close.lowerBound])
        }

        /// `[text](destination)` on one line, brackets in the text balanced: where it ends and the
        /// destination.
        func markdownLink(_ rest: Substring) -> (Substring.Index, Substring)? {
            var depth = 0
            var index = rest.startIndex
            while index < rest.endIndex {
                switch rest[index] {
                case "[": depth += 1
                case "]": depth -= 1
                default: break
                }
                if depth == 0 { break }
                index = rest.index(after: index)
            }
            guard index < rest.endIndex else { return nil }
            let open = rest.index(after: index)
            guard open < rest.endIndex, rest[open] == "(" else { return nil }
            let inside = rest[rest.index(after: open)...]
            if inside.first == "<" {
                guard let close = inside.firstIndex(of: ">"), let paren = inside[close...].firstIndex(of: ")") else { return nil }
                return (inside.index(after: paren), inside[inside.index(after: inside.startIndex)..<close])
            }
            var parens = 0
            var end = inside.startIndex
            while end < inside.endIndex {
                let character = inside[end]
                if character == "(" { parens += 1 }
                if character == ")" {
                    if parens == 0 { break }
                    parens -= 1
                }
                end = inside.index(after: end)
            }
            guard end < inside.endIndex else { return nil }
            // A title after the destination (`(note.md "Title")`) is not part of it.
            let destination = inside[..<end].prefix { !$0.isWhitespace }
            return (inside.index(after: end), destination)
        }
    }
}

extension Substring {
    /// The first occurrence of `needle`, found by byte (the standard library's generic
    /// `firstRange(of:)` costs more than the whole rest of the scan).
    func range<S: StringProtocol>(of needle: S) -> Range<Index>? {
        let target = Array(needle.utf8)
        guard let first = target.first else { return nil }
        let bytes = utf8
        var index = bytes.startIndex
        while let candidate = bytes[index...].firstIndex(of: first) {
            if bytes[candidate...].starts(with: target) {
                return candidate..<bytes.index(candidate, offsetBy: target.count)
            }
            index = bytes.index(after: candidate)
        }
        return nil
    }
}

/// A link from a note to another note, as written.
public struct NoteLink: Hashable, Sendable {
    /// The name or path linked to, without the heading and shown text: `Troubleshoot Obsidian
    /// Sync` in `[[Troubleshoot Obsidian Sync#Conflicts|see here]]`, `../Other note.md` in a
    /// Markdown link (percent-decoded).
    public var target: String
    /// `Conflicts` in `[[Note#Conflicts]]`, `^block` in `[[Note#^block]]`.
    public var heading: String?
    /// `![[...]]`: the note is shown inside this one.
    public var embed: Bool
    /// A Markdown link: `target` is a file path relative to the linking note's folder.
    public var relative: Bool

    init(target: String, heading: String? = nil, embed: Bool = false, relative: Bool = false) {
        self.target = target
        self.heading = heading
        self.embed = embed
        self.relative = relative
    }

    /// Files a link may point to that are not notes: linking them is not linking a note.
    static let attachmentExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "bmp", "svg", "webp", "avif", "heic", "tif", "tiff", "ico",
        "pdf", "mp3", "wav", "m4a", "ogg", "flac", "3gp", "webm", "mp4", "mov", "mkv", "ogv", "avi",
        "canvas", "base", "excalidraw", "zip", "csv", "json", "html", "txt",
    ]
    static let noteExtensions = [".md", ".markdown"]

    /// From the inside of `[[...]]`: `Name`, `Name|text`, `Name#Heading`, `Name.md`, or `Name\|text`
    /// in a table. Nil for a heading in the same note (`[[#Heading]]`) and for attachments.
    init?(wikilink inner: Substring, embed: Bool) {
        var text = String(inner)
        // Inside a table the pipe is escaped as `\|`.
        if let pipe = text.firstIndex(of: "|") {
            text = String(text[..<pipe])
            if text.hasSuffix("\\") { text.removeLast() }
        }
        var heading: String?
        if let hash = text.firstIndex(of: "#") {
            heading = text[text.index(after: hash)...].trimmingWhitespace()
            text = String(text[..<hash])
        }
        let target = text.trimmingWhitespace()
        guard !target.isEmpty, let name = NoteLink.withoutNoteExtension(target) else { return nil }
        self.init(target: name, heading: heading.flatMap { $0.isEmpty ? nil : $0 }, embed: embed)
    }

    /// From a Markdown link's destination: only relative paths to `.md` files (percent-encoded,
    /// as Obsidian writes them), not URLs, anchors or attachments.
    init?(markdownDestination destination: Substring, embed: Bool) {
        var path = Substring(destination)
        var heading: String?
        if let hash = path.firstIndex(of: "#") {
            heading = NoteLink.percentDecoded(path[path.index(after: hash)...])
            path = path[..<hash]
        }
        guard !path.isEmpty, !path.contains(":") else { return nil }
        let decoded = NoteLink.percentDecoded(path)
        guard NoteLink.noteExtensions.contains(where: { decoded.lowercased().hasSuffix($0) }),
              let name = NoteLink.withoutNoteExtension(decoded) else { return nil }
        self.init(target: name, heading: heading.flatMap { $0.isEmpty ? nil : $0 }, embed: embed, relative: true)
    }

    /// `name` without `.md`, or nil when it names an attachment (`diagram.png`).
    static func withoutNoteExtension(_ name: String) -> String? {
        let lowered = name.lowercased()
        if let suffix = noteExtensions.first(where: { lowered.hasSuffix($0) }) { return String(name.dropLast(suffix.count)) }
        if let dot = lowered.lastIndex(of: "."), attachmentExtensions.contains(String(lowered[lowered.index(after: dot)...])) { return nil }
        return name
    }

    /// `%20` and the like decoded; a malformed escape is kept as written.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(text)
    }

    /// The name this link looks for, folded (see `NoteNames.fold`): a Markdown link's path is
    /// taken from the linking note's folder (`sourceFolder`, "" at the top), a wikilink's as it is.
    public func lookupKey(sourceFolder: String) -> String {
        guard relative else { return NoteNames.fold(target) }
        var components = target.hasPrefix("/") ? [] : sourceFolder.split(separator: "/").map(String.init)
        for component in target.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(String(component))
            }
        }
        return NoteNames.fold(components.joined(separator: "/"))
    }
}

extension NoteLink {
    /// Every link in a note's text, in order.
    public static func inText(_ text: String) -> [NoteLink] {
        MarkdownText.pieces(text).compactMap { if case let .link(link) = $0 { link } else { nil } }
    }
}
