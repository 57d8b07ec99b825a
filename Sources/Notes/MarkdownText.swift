// Markdown read the way Obsidian reads it: which parts of a note are prose (where #tags live)
// and which are links to other notes. One scanner, so tags and links never disagree about what
// is code, a URL or HTML.

public enum MarkdownText {
    /// A part of the text that matters to tags or links. Everything else (fenced and inline
    /// code, HTML tags and comments, `%%comments%%`, URLs, link text and destinations) is passed
    /// over.
    public enum Piece: Equatable {
        /// Running text; a piece starts after a line break or something passed over.
        case prose(Substring)
        /// A `[[wikilink]]`, `![[embed]]` or relative Markdown link to a note.
        case link(NoteLink)
    }

    /// Every prose run and note link, in order.
    public static func pieces(_ text: String) -> [Piece] {
        var scanner = Scanner()
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) { scanner.scan(line) }
        return scanner.pieces
    }

    private struct Scanner {
        var pieces: [Piece] = []
        /// The fence that opened the current code block (``` or ~~~, possibly longer).
        var fence: Substring?
        /// The text that closes a comment left open on an earlier line: `-->` or `%%`.
        var openComment: String?

        mutating func scan(_ line: Substring) {
            let trimmed = Substring(line.trimmingWhitespace())
            if let open = fence {
                if trimmed.hasPrefix(open), trimmed.allSatisfy({ $0 == open.first }) { fence = nil }
                return
            }
            if openComment == nil, let mark = trimmed.first, mark == "`" || mark == "~" {
                let run = trimmed.prefix { $0 == mark }
                if run.count >= 3 {
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
                guard let end = line.firstRange(of: close) else { return }
                openComment = nil
                index = end.upperBound
                proseStart = index
            }
            while index < line.endIndex {
                let rest = line[index...]
                if let skipped = skippable(rest, atWordStart: index == line.startIndex || line[line.index(before: index)].isWhitespace) {
                    flush(upTo: index)
                    if case let .link(link) = skipped.piece { pieces.append(.link(link)) }
                    if let close = skipped.opensComment {
                        openComment = close
                        return
                    }
                    index = skipped.end
                    proseStart = index
                    continue
                }
                index = line.index(after: index)
            }
            flush(upTo: line.endIndex)
        }

        /// What starts at `rest` and is not prose, and where it ends.
        func skippable(_ rest: Substring, atWordStart: Bool) -> (end: Substring.Index, piece: Piece?, opensComment: String?)? {
            guard let first = rest.first else { return nil }
            switch first {
            case "`":
                let run = rest.prefix { $0 == "`" }
                let after = rest[run.endIndex...]
                // An unmatched backtick is a literal one.
                guard let close = after.firstRange(of: run) else { return nil }
                return (close.upperBound, nil, nil)
            case "<":
                if rest.hasPrefix("<!--") {
                    guard let close = rest.dropFirst(4).firstRange(of: "-->") else { return (rest.endIndex, nil, "-->") }
                    return (close.upperBound, nil, nil)
                }
                guard let next = rest.dropFirst().first, next.isLetter || next == "/" || next == "!",
                      let close = rest.firstIndex(of: ">") else { return nil }
                return (rest.index(after: close), nil, nil)
            case "%" where rest.hasPrefix("%%"):
                guard let close = rest.dropFirst(2).firstRange(of: "%%") else { return (rest.endIndex, nil, "%%") }
                return (close.upperBound, nil, nil)
            case "!" where rest.dropFirst().hasPrefix("[["):
                guard let (end, inner) = wikilink(rest.dropFirst()) else { return nil }
                return (end, NoteLink(wikilink: inner, embed: true).map(Piece.link), nil)
            case "[" where rest.hasPrefix("[["):
                guard let (end, inner) = wikilink(rest) else { return nil }
                return (end, NoteLink(wikilink: inner, embed: false).map(Piece.link), nil)
            case "!" where rest.dropFirst().first == "[":
                guard let (end, destination) = markdownLink(rest.dropFirst()) else { return nil }
                return (end, NoteLink(markdownDestination: destination, embed: true).map(Piece.link), nil)
            case "[":
                guard let (end, destination) = markdownLink(rest) else { return nil }
                return (end, NoteLink(markdownDestination: destination, embed: false).map(Piece.link), nil)
            default:
                guard atWordStart, first.isLetter, let end = urlEnd(rest) else { return nil }
                return (end, nil, nil)
            }
        }

        /// `[[inner]]` on one line: where it ends and what is inside.
        func wikilink(_ rest: Substring) -> (Substring.Index, Substring)? {
            let inside = rest.dropFirst(2)
            guard let close = inside.firstRange(of: "]]") else { return nil }
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

        /// The end of a URL (`scheme://...`) starting at `rest`: it runs to the next blank.
        func urlEnd(_ rest: Substring) -> Substring.Index? {
            let scheme = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-") }
            guard !scheme.isEmpty, rest[scheme.endIndex...].hasPrefix("://") else { return nil }
            return rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
        }
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

    public init(target: String, heading: String? = nil, embed: Bool = false, relative: Bool = false) {
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
