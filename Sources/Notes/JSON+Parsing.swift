// A strict JSON parser (RFC 8259) for text from outside: a client's requests to `notes mcp`.
// Anything else is refused with the byte offset: invalid UTF-8, lone surrogates, a key given
// twice, nesting deeper than a limit, numbers that no Double can hold.

/// Why a text is not JSON, and where.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The byte offset of the problem in the text.
    public var offset: Int
    public var description: String { "\(message) at byte \(offset)" }

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}

extension JSON {
    /// The deepest nesting `parse` accepts by default: far more than any request needs, and
    /// little enough that a hostile `[[[[...` cannot exhaust the stack.
    public static let defaultMaximumDepth = 64

    /// Parses one JSON document (surrounded by white space at most). Integers that fit in an
    /// `Int` are `.int`, every other number is `.double`.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSON {
        var parser = StrictParser(bytes: Array(bytes), maximumDepth: maximumDepth)
        return try parser.document()
    }

    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSON {
        try parse(text.utf8, maximumDepth: maximumDepth)
    }
}

private struct StrictParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    var depth = 0

    /// A number longer than this is refused before converting it: no Double needs 400 digits,
    /// and converting a megabyte of them would take a while.
    static let longestNumber = 400

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(message: message, offset: offset ?? index)
    }

    mutating func document() throws(JSONParseError) -> JSON {
        skipSpace()
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw fail("unexpected text after the JSON value") }
        return value
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
    }

    mutating func value() throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw fail("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { (parser: inout StrictParser) throws(JSONParseError) in try parser.object() }
        case UInt8(ascii: "["): return try nested { (parser: inout StrictParser) throws(JSONParseError) in try parser.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    mutating func nested(_ body: (inout StrictParser) throws(JSONParseError) -> JSON) throws(JSONParseError) -> JSON {
        depth += 1
        guard depth <= maximumDepth else { throw fail("JSON nested deeper than \(maximumDepth) levels") }
        defer { depth -= 1 }
        return try body(&self)
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(word)") }
            index += 1
        }
    }

    mutating func object() throws(JSONParseError) -> JSON {
        index += 1
        var pairs: [(String, JSON)] = []
        var keys = Set<String>()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a property name") }
            let start = index
            let key = try string()
            guard keys.insert(key).inserted else { throw fail("duplicate property \"\(key)\"", at: start) }
            skipSpace()
            try literal(":")
            skipSpace()
            pairs.append((key, try value()))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: "}") { return .object(pairs) }
            guard next == UInt8(ascii: ",") else { index -= 1; throw fail("expected , or }") }
        }
    }

    mutating func array() throws(JSONParseError) -> JSON {
        index += 1
        var items: [JSON] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: "]") { return .array(items) }
            guard next == UInt8(ascii: ",") else { index -= 1; throw fail("expected , or ]") }
        }
    }

    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    mutating func number() throws(JSONParseError) -> JSON {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw fail("expected a digit") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw fail("leading zero in a number", at: integerStart) }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw fail("expected a digit after .") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected an exponent") }
        }
        guard index - start <= Self.longestNumber else { throw fail("number longer than \(Self.longestNumber) characters", at: start) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw fail("number out of range", at: start) }
        return .double(value)
    }

    mutating func string() throws(JSONParseError) -> String {
        index += 1
        var text = String.UnicodeScalarView()
        var runStart = index
        func flush(_ parser: StrictParser) throws(JSONParseError) {
            guard let run = String(validating: parser.bytes[runStart..<parser.index], as: UTF8.self) else {
                throw parser.fail("invalid UTF-8 in a string", at: runStart + NoteInput.invalidUTF8Offset(parser.bytes[runStart..<parser.index]))
            }
            text.append(contentsOf: run.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(self)
                index += 1
                return String(text)
            }
            if byte < 0x20 { throw fail("control character in a string") }
            guard byte == UInt8(ascii: "\\") else { index += 1; continue }
            try flush(self)
            index += 1
            guard index < bytes.count else { throw fail("unterminated string") }
            let escape = bytes[index]
            index += 1
            if let character = JSON.escapedCharacter(escape) {
                text.append(character)
            } else if escape == UInt8(ascii: "u") {
                text.append(try escapedScalar())
            } else {
                throw fail("invalid escape", at: index - 2)
            }
            runStart = index
        }
    }

    /// The scalar of a `\uXXXX` escape (the `\u` already read), or of a surrogate pair.
    mutating func escapedScalar() throws(JSONParseError) -> Unicode.Scalar {
        let start = index - 2
        let first = try hex4()
        if (0xDC00...0xDFFF).contains(first) { throw fail("unpaired surrogate", at: start) }
        guard (0xD800...0xDBFF).contains(first) else { return Unicode.Scalar(first)! }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw fail("unpaired surrogate", at: start)
        }
        index += 2
        let second = try hex4()
        guard (0xDC00...0xDFFF).contains(second) else { throw fail("unpaired surrogate", at: start) }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexDigitValue(bytes[index]) else { throw fail("invalid \\u escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

extension JSON {
    /// The character a one-letter escape stands for (`n` in `\n`), or nil (`\u` is not one).
    /// Both JSON parsers read escapes with it: this one and the AI's, of generated output.
    public static func escapedCharacter(_ letter: UInt8) -> Unicode.Scalar? {
        switch letter {
        case UInt8(ascii: "\""): "\""
        case UInt8(ascii: "\\"): "\\"
        case UInt8(ascii: "/"): "/"
        case UInt8(ascii: "b"): "\u{8}"
        case UInt8(ascii: "f"): "\u{C}"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "t"): "\t"
        default: nil
        }
    }
}

/// The value of a hexadecimal digit, or nil.
public func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
