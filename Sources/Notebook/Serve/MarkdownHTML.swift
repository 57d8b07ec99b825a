// A note's body as HTML for `notes serve`'s page. A note is data, not markup: every character of
// it reaches the page escaped, and a link keeps its destination only when that is http, https,
// mailto or relative. The Markdown is a small, predictable subset (not CommonMark): each
// construct is matched whole or left as literal text.
import Notes

/// Text made safe for HTML text and attribute values: & < > " ' escaped.
public enum HTML {
    public static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendEscaped(text.utf8, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendEscaped(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case ascii("&"): out += "&amp;".utf8
            case ascii("<"): out += "&lt;".utf8
            case ascii(">"): out += "&gt;".utf8
            case ascii("\""): out += "&quot;".utf8
            case ascii("'"): out += "&#39;".utf8
            default: out.append(byte)
            }
        }
    }
}

public struct MarkdownHTML: Sendable {
    /// The href of a wiki link's target (`[[Target]]`, `[[Target|shown text]]`, `[[Target#heading]]` keeps the whole target string up to `|`), or nil when it names no note: then rendered as `<span class="broken">shown text</span>`.
    public var wikiLink: @Sendable (String) -> String?
    /// HTML for a checklist item's box, given its number among the note's checklist items (0, 1, 2 ... in document order, counting ticked and unticked, but NOT counting lines inside fenced code blocks) and whether it is ticked. Default: `<input type="checkbox" disabled>` (with ` checked` when ticked).
    public var checkbox: @Sendable (_ index: Int, _ done: Bool) -> String

    public init(wikiLink: @escaping @Sendable (String) -> String? = { _ in nil },
                checkbox: @escaping @Sendable (Int, Bool) -> String = { _, done in done ? "<input type=\"checkbox\" disabled checked>" : "<input type=\"checkbox\" disabled>" }) {
        self.wikiLink = wikiLink
        self.checkbox = checkbox
    }

    /// The note's body as HTML.
    public func render(_ markdown: String) -> String {
        // "\r\n" is one Character, and a newline: it ends a line like "\n" does.
        var blocks = BlockRenderer(options: self, lines: markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline))
        return blocks.render()
    }

    fileprivate func inline(_ text: some StringProtocol) -> String {
        var renderer = InlineRenderer(text, options: self)
        return renderer.render()
    }
}

private func ascii(_ scalar: Unicode.Scalar) -> UInt8 { UInt8(scalar.value) }

// MARK: - Blocks

private enum ListKind { case bullets, numbers, tasks }

private struct ListItem {
    var indent: Int
    var kind: ListKind
    var number = 1
    var text: String
    var done = false
}

/// What a line starts, judged from that line alone.
private enum LineStart {
    case blank, rule, text
    case fence(marker: Character, length: Int, language: String)
    case heading(level: Int, text: String)
    case quote(Substring)
    case item(ListItem)

    init(_ line: Substring) {
        let body = line.drop { $0 == " " || $0 == "\t" }
        if body.allSatisfy(\.isWhitespace) { self = .blank; return }
        self = Self.readFence(body) ?? Self.readHeading(body) ?? Self.readRule(body) ?? Self.readQuote(body) ?? Self.readItem(line, body) ?? .text
    }

    static func readFence(_ body: Substring) -> Self? {
        guard let marker = body.first, marker == "`" || marker == "~" else { return nil }
        let length = body.prefix { $0 == marker }.count
        guard length >= 3 else { return nil }
        // The language names a CSS class: only characters that cannot leave it.
        let language = body.dropFirst(length).drop(while: \.isWhitespace)
            .prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "_+-".contains($0)) }
        return .fence(marker: marker, length: length, language: String(language))
    }

    static func readHeading(_ body: Substring) -> Self? {
        let level = body.prefix { $0 == "#" }.count
        // A space after the hashes: "#tag" at the start of a line is a tag, not a heading.
        guard (1...6).contains(level), let after = body.dropFirst(level).first, after == " " || after == "\t" else { return nil }
        var text = body.dropFirst(level).trimmingWhitespace()
        var unclosed = Substring(text)
        while unclosed.last == "#" { unclosed.removeLast() }
        if unclosed.isEmpty || unclosed.last == " " || unclosed.last == "\t" { text = unclosed.trimmingWhitespace() }
        return .heading(level: level, text: text)
    }

    static func readRule(_ body: Substring) -> Self? {
        guard let mark = body.first, "-*_".contains(mark) else { return nil }
        let marks = body.filter { $0 != " " && $0 != "\t" }
        return marks.count >= 3 && marks.allSatisfy({ $0 == mark }) ? .rule : nil
    }

    static func readQuote(_ body: Substring) -> Self? {
        guard body.first == ">" else { return nil }
        let rest = body.dropFirst()
        return .quote(rest.first == " " ? rest.dropFirst() : rest)
    }

    /// Leading spaces, a tab counting four.
    static func indentation(_ line: Substring) -> Int {
        line.prefix { $0 == " " || $0 == "\t" }.reduce(0) { $0 + ($1 == "\t" ? 4 : 1) }
    }

    static func readItem(_ line: Substring, _ body: Substring) -> Self? {
        let indent = indentation(line)
        // Notes' own reading of a checklist line, so the page numbers the items `notes done` ticks.
        if let task = Checklist.item(line) { return .item(ListItem(indent: indent, kind: .tasks, text: task.text, done: task.done)) }
        func spaced(_ rest: Substring) -> Bool { rest.first == " " || rest.first == "\t" }
        if let bullet = body.first, "-*+".contains(bullet), spaced(body.dropFirst()) {
            return .item(ListItem(indent: indent, kind: .bullets, text: body.dropFirst().trimmingWhitespace()))
        }
        let digits = body.prefix { ("0"..."9").contains($0) }
        let rest = body.dropFirst(digits.count)
        guard (1...9).contains(digits.count), let mark = rest.first, mark == "." || mark == ")", spaced(rest.dropFirst()),
              let number = Int(digits) else { return nil }
        return .item(ListItem(indent: indent, kind: .numbers, number: number, text: rest.dropFirst().trimmingWhitespace()))
    }
}

private struct BlockRenderer {
    let options: MarkdownHTML
    let lines: [Substring]
    var next = 0
    /// The checklist items rendered so far: the number the next one's checkbox is given.
    var tasks = 0

    mutating func render() -> String {
        var html: [String] = []
        while next < lines.count {
            switch LineStart(lines[next]) {
            case .blank: next += 1
            case .rule: next += 1; html.append("<hr>")
            case let .heading(level, text): next += 1; html.append("<h\(level)>\(options.inline(text))</h\(level)>")
            case let .fence(marker, length, language): html.append(code(marker, length, language))
            case .quote: html.append(quote())
            case .item: html.append(list())
            case .text: html.append(paragraph())
            }
        }
        return html.joined(separator: "\n")
    }

    /// A fenced block, verbatim, up to a line of at least as many of its marker (or the end).
    mutating func code(_ marker: Character, _ length: Int, _ language: String) -> String {
        next += 1
        var content: [Substring] = []
        while next < lines.count {
            let line = lines[next]
            next += 1
            let body = line.trimmingWhitespace()
            if body.count >= length, body.allSatisfy({ $0 == marker }) { break }
            content.append(line)
        }
        let attribute = language.isEmpty ? "" : " class=\"language-\(HTML.escape(language))\""
        return "<pre><code\(attribute)>\(HTML.escape(content.joined(separator: "\n")))</code></pre>"
    }

    mutating func quote() -> String {
        var text: [Substring] = []
        while next < lines.count, case let .quote(rest) = LineStart(lines[next]) {
            text.append(rest)
            next += 1
        }
        return "<blockquote>\(options.inline(text.joined(separator: "\n")))</blockquote>"
    }

    mutating func paragraph() -> String {
        var text: [String] = []
        while next < lines.count, case .text = LineStart(lines[next]) {
            text.append(lines[next].trimmingWhitespace())
            next += 1
        }
        return "<p>\(options.inline(text.joined(separator: "\n")))</p>"
    }

    /// Consecutive items, with indented plain lines continuing the item above them.
    mutating func list() -> String {
        var items: [ListItem] = []
        while next < lines.count {
            let line = lines[next]
            switch LineStart(line) {
            case let .item(item): items.append(item)
            case .text where !items.isEmpty && LineStart.indentation(line) >= 2:
                items[items.count - 1].text += "\n" + line.trimmingWhitespace()
            default: return listHTML(items)
            }
            next += 1
        }
        return listHTML(items)
    }

    /// The items as nested lists: an item 2 or more columns deeper than the list above it opens a
    /// sub-list inside that list's last item; a shallower one closes lists back to its own depth.
    mutating func listHTML(_ items: [ListItem]) -> String {
        var html = ""
        var open: [(indent: Int, kind: ListKind)] = []
        func close() {
            html += open.removeLast().kind == .numbers ? "</li></ol>" : "</li></ul>"
        }
        for item in items {
            while open.count > 1, item.indent < open[open.count - 1].indent { close() }
            var sibling = false
            if let top = open.last, item.indent < top.indent + 2 {
                // Same depth: the next item of this list, or the first of a list of another kind.
                if top.kind == item.kind { html += "</li>"; sibling = true } else { close() }
            }
            if !sibling {
                open.append((item.indent, item.kind))
                switch item.kind {
                case .bullets: html += "<ul>"
                case .tasks: html += "<ul class=\"checklist\">"
                case .numbers: html += item.number == 1 ? "<ol>" : "<ol start=\"\(item.number)\">"
                }
            }
            if item.kind == .tasks {
                html += "<li class=\"task\">" + options.checkbox(tasks, item.done) + " " + options.inline(item.text)
                tasks += 1
            } else {
                html += "<li>" + options.inline(item.text)
            }
        }
        while !open.isEmpty { close() }
        return html
    }
}

// MARK: - Inline

/// Inline Markdown, read over UTF-8 bytes: every marker is ASCII, so no offset falls inside a
/// character. Closers are found by binary search in position lists made in one pass, never by
/// scanning ahead, so no input (5,000 `[`, a 100,000-character line) costs more than n log n.
private struct InlineRenderer {
    /// What a position list holds: one byte (`[`, `]`, `(`, `)`), or runs of `*` or `_` of exactly `length`.
    struct Marker: Hashable {
        var byte: UInt8
        var length = 0
        static let open = Marker(byte: ascii("[")), close = Marker(byte: ascii("]"))
        static let openParen = Marker(byte: ascii("(")), paren = Marker(byte: ascii(")"))
    }

    let bytes: [UInt8]
    let options: MarkdownHTML
    /// Each code span's start to its end: nothing inside one is a marker, so they are found first.
    var codeSpans: [Int: Int] = [:]
    var positions: [Marker: [Int]] = [:]
    var out: [UInt8] = []

    init(_ text: some StringProtocol, options: MarkdownHTML) {
        bytes = Array(text.utf8)
        self.options = options
        findCodeSpans()
        indexMarkers()
    }

    mutating func render() -> String {
        render(0..<bytes.count, inLink: false)
        return String(decoding: out, as: UTF8.self)
    }

    /// `range` as HTML. Inside a link's text no link starts: an `<a>` inside an `<a>` is invalid.
    mutating func render(_ range: Range<Int>, inLink: Bool) {
        var i = range.lowerBound
        while i < range.upperBound {
            if let after = construct(at: i, before: range.upperBound, inLink: inLink) {
                i = after
            } else {
                HTML.appendEscaped(CollectionOfOne(bytes[i]), to: &out)
                i += 1
            }
        }
    }

    /// Renders the construct that starts at `i` and ends by `end`, if there is one; the offset after it.
    mutating func construct(at i: Int, before end: Int, inLink: Bool) -> Int? {
        switch bytes[i] {
        case ascii("`"): return codeSpan(at: i, before: end)
        case ascii("*"), ascii("_"): return emphasis(at: i, before: end, inLink: inLink)
        case ascii("["): return inLink ? nil : wikiLink(at: i, before: end) ?? link(at: i, before: end)
        case ascii("h"), ascii("H"): return inLink ? nil : autolink(at: i, before: end)
        default: return nil
        }
    }

    mutating func codeSpan(at i: Int, before end: Int) -> Int? {
        guard let close = codeSpans[i], close <= end else { return nil }
        let length = run(at: i)
        out += "<code>".utf8
        HTML.appendEscaped(bytes[(i + length)..<(close - length)], to: &out)
        out += "</code>".utf8
        return close
    }

    /// `*em*`, `**strong**`, `***both***` or the same with `_`: a run closed by the next run of the
    /// same marker and length. `_` neither opens nor closes inside a word (snake_case).
    mutating func emphasis(at i: Int, before end: Int, inLink: Bool) -> Int? {
        let marker = bytes[i]
        guard i == 0 || bytes[i - 1] != marker else { return nil }
        let length = run(at: i)
        let underscore = marker == ascii("_")
        guard length <= 3, i + length < end, !Self.isSpace(bytes[i + length]),
              !underscore || i == 0 || !Self.isWord(bytes[i - 1]),
              let close = first(Marker(byte: marker, length: length), after: i), close + length <= end,
              !Self.isSpace(bytes[close - 1]),
              !underscore || close + length == bytes.count || !Self.isWord(bytes[close + length]) else { return nil }
        out += ["<em>", "<strong>", "<em><strong>"][length - 1].utf8
        render((i + length)..<close, inLink: inLink)
        out += ["</em>", "</strong>", "</strong></em>"][length - 1].utf8
        return close + length
    }

    /// `[[Target]]` or `[[Target|shown text]]`, its href from `wikiLink`.
    mutating func wikiLink(at i: Int, before end: Int) -> Int? {
        guard i + 1 < end, bytes[i + 1] == ascii("["), let close = first(.close, after: i + 1), close + 1 < end,
              bytes[close + 1] == ascii("]"), (first(.open, after: i + 1) ?? end) > close else { return nil }
        let inner = String(decoding: bytes[(i + 2)..<close], as: UTF8.self)
        let parts = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let target = parts[0].trimmingWhitespace()
        guard !target.isEmpty, !inner.contains(where: \.isNewline) else { return nil }
        let label = parts.count > 1 ? parts[1].trimmingWhitespace() : ""
        let shown = HTML.escape(label.isEmpty ? target : label)
        if let href = options.wikiLink(target).flatMap(Self.followable) {
            out += "<a class=\"wikilink\" href=\"\(HTML.escape(href.href))\">\(shown)</a>".utf8
        } else {
            out += "<span class=\"broken\">\(shown)</span>".utf8
        }
        return close + 2
    }

    /// `[text](destination)`, the text without brackets of its own; with a destination that may
    /// not be followed, the text alone.
    mutating func link(at i: Int, before end: Int) -> Int? {
        guard let close = first(.close, after: i), close + 1 < end, bytes[close + 1] == ascii("("),
              (first(.open, after: i) ?? end) > close,
              let paren = destinationEnd(after: close + 1), paren < end else { return nil }
        // `[text](url "title")`: the title is not shown; anything else after a space is no URL.
        let destination = String(decoding: bytes[(close + 2)..<paren], as: UTF8.self).trimmingWhitespace()
        let space = destination.firstIndex(where: \.isWhitespace) ?? destination.endIndex
        let title = destination[space...].trimmingWhitespace()
        let quoted = title.isEmpty || (title.count >= 2 && title.first == title.last && "\"'".contains(title.first!))
        let href = quoted ? Self.followable(String(destination[..<space])) : nil
        if let href { openAnchor(href) }
        render((i + 1)..<close, inLink: true)
        if href != nil { out += "</a>".utf8 }
        return paren + 1
    }

    /// A bare http:// or https:// URL, up to whitespace, less the punctuation that ends a sentence.
    mutating func autolink(at i: Int, before end: Int) -> Int? {
        guard i == 0 || !Self.isWord(bytes[i - 1]),
              let scheme = ["https://", "http://"].first(where: { matches($0, at: i, before: end) })?.utf8.count else { return nil }
        var stop = i + scheme
        // Controls end it too: a browser would drop them from the href, not from the text.
        while stop < end, bytes[stop] > 0x20, bytes[stop] != 0x7F { stop += 1 }
        while stop > i + scheme, ".,;:!?)".utf8.contains(bytes[stop - 1]) { stop -= 1 }
        guard stop > i + scheme, let href = Self.followable(String(decoding: bytes[i..<stop], as: UTF8.self)) else { return nil }
        openAnchor(href)
        HTML.appendEscaped(bytes[i..<stop], to: &out)
        out += "</a>".utf8
        return stop
    }

    /// The `)` that closes a destination opened at `start`: the first one after as many `(` as
    /// `)` (Wikipedia's "Swift_(language)"), looking a few deep at most, else simply the first.
    func destinationEnd(after start: Int) -> Int? {
        let parens = positions[.paren] ?? []
        let firstClose = Self.rank(in: parens, after: start)
        guard firstClose < parens.count else { return nil }
        let opens = positions[.openParen] ?? []
        let opened = Self.rank(in: opens, after: start)
        for candidate in firstClose..<min(firstClose + 4, parens.count)
        where Self.rank(in: opens, after: parens[candidate]) - opened == candidate - firstClose {
            return parens[candidate]
        }
        return parens[firstClose]
    }

    mutating func openAnchor(_ href: (href: String, external: Bool)) {
        out += "<a href=\"\(HTML.escape(href.href))\" rel=\"noopener noreferrer\"\(href.external ? " target=\"_blank\"" : "")>".utf8
    }

    /// The URL as an href, or nil when it may not be followed. Browsers drop tabs and line breaks
    /// anywhere in a URL, and controls and spaces at its ends, before they read its scheme
    /// ("\u{1}java\tscript:" is javascript:), so it is read the same way here first.
    static func followable(_ url: String) -> (href: String, external: Bool)? {
        var scalars = url.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }[...]
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        guard !scalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        var href = ""
        href.unicodeScalars.append(contentsOf: scalars)
        // A scheme ends at a colon before any / ? #; without one the URL is relative.
        guard let colon = href.firstIndex(where: { ":/?#".contains($0) }), href[colon] == ":" else { return (href, false) }
        let scheme = href[..<colon].lowercased()
        guard ["http", "https", "mailto"].contains(scheme) else { return nil }
        return (href, scheme != "mailto")
    }

    // MARK: Positions

    mutating func findCodeSpans() {
        var runs: [Int: [Int]] = [:]
        var order: [(start: Int, length: Int)] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == ascii("`") else { i += 1; continue }
            let length = run(at: i)
            runs[length, default: []].append(i)
            order.append((i, length))
            i += length
        }
        // Left to right: a run closes at the next run of the same length, or stays literal.
        var end = 0
        for (start, length) in order where start >= end {
            if let close = Self.first(in: runs[length] ?? [], after: start) {
                end = close + length
                codeSpans[start] = end
            }
        }
    }

    mutating func indexMarkers() {
        var i = 0
        while i < bytes.count {
            if let end = codeSpans[i] { i = end; continue }
            switch bytes[i] {
            case ascii("*"), ascii("_"):
                let length = run(at: i)
                if length <= 3 { positions[Marker(byte: bytes[i], length: length), default: []].append(i) }
                i += length
            case ascii("["), ascii("]"), ascii("("), ascii(")"):
                positions[Marker(byte: bytes[i]), default: []].append(i)
                i += 1
            default: i += 1
            }
        }
    }

    func first(_ marker: Marker, after offset: Int) -> Int? {
        Self.first(in: positions[marker] ?? [], after: offset)
    }

    /// The first of the sorted `list` greater than `offset`.
    static func first(in list: [Int], after offset: Int) -> Int? {
        let index = rank(in: list, after: offset)
        return index < list.count ? list[index] : nil
    }

    /// The index in the sorted `list` of its first element greater than `offset` (or its count).
    static func rank(in list: [Int], after offset: Int) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] > offset { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// How many times the byte at `i` repeats from there.
    func run(at i: Int) -> Int {
        var j = i
        while j < bytes.count, bytes[j] == bytes[i] { j += 1 }
        return j - i
    }

    /// ASCII `word`, ignoring case, at `i`.
    func matches(_ word: String, at i: Int, before end: Int) -> Bool {
        let word = Array(word.utf8)
        guard i + word.count <= end else { return false }
        return word.indices.allSatisfy { bytes[i + $0] == word[$0] || (word[$0] >= ascii("a") && bytes[i + $0] == word[$0] - 32) }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// Letters, digits, and every byte of a non-ASCII character (Greek, emoji): a word goes on through them.
    static func isWord(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (ascii("0")...ascii("9")).contains(byte) || (ascii("A")...ascii("Z")).contains(byte) || (ascii("a")...ascii("z")).contains(byte)
    }
}
