// Generated JSON as a value, and the conversions from it to typed Swift values.
import Notes

/// A generated (or partially generated) JSON value. Object properties keep their order.
public struct GeneratedContent: Sendable, Hashable, CustomStringConvertible {
    public indirect enum Kind: Sendable, Hashable {
        case null
        case bool(Bool)
        /// Kept as written, so integers stay exact.
        case number(String)
        case string(String)
        case array([GeneratedContent])
        case structure(properties: [String: GeneratedContent], orderedKeys: [String])
    }

    public var kind: Kind
    /// False for a snapshot cut short while streaming.
    public var isComplete: Bool

    public init(kind: Kind, isComplete: Bool = true) {
        self.kind = kind
        self.isComplete = isComplete
    }

    /// Parses JSON text. With `partial`, a truncated text is closed where it stops.
    public init(json: String, partial: Bool = false) throws(GenerationDecodingError) {
        var parser = JSONParser(bytes: Array(json.utf8), partial: partial)
        self = try parser.parseDocument()
    }

    public var jsonString: String {
        var out = ""
        write(to: &out)
        return out
    }

    public var description: String { jsonString }

    func write(to out: inout String) {
        switch kind {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): JSONParser.quote(text, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .structure(let properties, let keys):
            out += "{"
            for (index, key) in keys.enumerated() {
                if index > 0 { out += ", " }
                JSONParser.quote(key, into: &out)
                out += ": "
                properties[key]?.write(to: &out)
            }
            out += "}"
        }
    }

    /// The value of a property converted to `T`; a missing property converts from `null`, so an
    /// `Optional` property comes out as `nil` and anything else throws.
    public func value<T: ConvertibleFromGeneratedContent>(_ type: T.Type = T.self, forProperty name: String) throws(GenerationDecodingError) -> T {
        guard case .structure(let properties, _) = kind else {
            throw GenerationDecodingError("expected an object with property \"\(name)\", got \(jsonString)")
        }
        do {
            return try T(properties[name] ?? GeneratedContent(kind: .null))
        } catch {
            throw GenerationDecodingError("property \"\(name)\": \(error.message)")
        }
    }
}

/// Generated content that cannot become the requested value, with the reason.
public struct GenerationDecodingError: Error, CustomStringConvertible, Sendable, Hashable {
    let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "cannot decode generated content: \(message)" }
}

public protocol ConvertibleFromGeneratedContent {
    init(_ content: GeneratedContent) throws(GenerationDecodingError)
}

protocol ConvertibleToGeneratedContent {
    var generatedContent: GeneratedContent { get }
}

/// A type a model can generate: it declares its schema and is built from the generated content.
public protocol Generable: ConvertibleFromGeneratedContent {
    static var generationSchema: GenerationSchema { get }
}

extension GeneratedContent: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) { self = content }
}

extension String: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        guard case .string(let text) = content.kind else { throw GenerationDecodingError("expected a string, got \(content.jsonString)") }
        self = text
    }
}

extension Int: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        guard case .number(let text) = content.kind, let value = Int(text) else {
            throw GenerationDecodingError("expected an integer, got \(content.jsonString)")
        }
        self = value
    }
}

extension Double: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        guard case .number(let text) = content.kind, let value = Double(text) else {
            throw GenerationDecodingError("expected a number, got \(content.jsonString)")
        }
        self = value
    }
}

extension Bool: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        guard case .bool(let value) = content.kind else { throw GenerationDecodingError("expected a boolean, got \(content.jsonString)") }
        self = value
    }
}

extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        guard case .array(let items) = content.kind else { throw GenerationDecodingError("expected an array, got \(content.jsonString)") }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do { result.append(try Element(item)) } catch { throw GenerationDecodingError("item \(index): \(error.message)") }
        }
        self = result
    }
}

extension Optional: ConvertibleFromGeneratedContent where Wrapped: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        if case .null = content.kind { self = nil } else { self = try Wrapped(content) }
    }
}

/// A strict JSON parser (RFC 8259) over bytes, that can also close a truncated document.
struct JSONParser {
    let bytes: [UInt8]
    let partial: Bool
    var index = 0

    init(bytes: [UInt8], partial: Bool) {
        self.bytes = bytes
        self.partial = partial
    }

    /// Thrown inside when a partial document ends; caught by the enclosing container.
    private struct Truncated: Error {}

    mutating func parseDocument() throws(GenerationDecodingError) -> GeneratedContent {
        do {
            skipSpace()
            let value = try parseValue()
            skipSpace()
            guard index == bytes.count else { throw GenerationDecodingError("unexpected text after the JSON value at byte \(index)") }
            return value
        } catch let error as GenerationDecodingError {
            throw error
        } catch {
            return GeneratedContent(kind: .null, isComplete: false)
        }
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func fail(_ message: String) -> GenerationDecodingError {
        GenerationDecodingError("\(message) at byte \(index)")
    }

    private mutating func peek() throws -> UInt8 {
        guard index < bytes.count else {
            if partial { throw Truncated() }
            throw fail("unexpected end of JSON")
        }
        return bytes[index]
    }

    private mutating func expect(_ literal: String) throws {
        for byte in literal.utf8 {
            guard try peek() == byte else { throw fail("expected \(literal)") }
            index += 1
        }
    }

    private mutating func parseValue() throws -> GeneratedContent {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let (text, complete) = try parseString()
            return GeneratedContent(kind: .string(text), isComplete: complete)
        case UInt8(ascii: "t"): try expect("true"); return GeneratedContent(kind: .bool(true))
        case UInt8(ascii: "f"): try expect("false"); return GeneratedContent(kind: .bool(false))
        case UInt8(ascii: "n"): try expect("null"); return GeneratedContent(kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseObject() throws -> GeneratedContent {
        index += 1
        var properties: [String: GeneratedContent] = [:]
        var keys: [String] = []
        func snapshot(_ complete: Bool) -> GeneratedContent {
            GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys), isComplete: complete)
        }
        do {
            skipSpace()
            if try peek() == UInt8(ascii: "}") { index += 1; return snapshot(true) }
            while true {
                skipSpace()
                guard try peek() == UInt8(ascii: "\"") else { throw fail("expected a property name") }
                let (key, keyComplete) = try parseString()
                guard keyComplete else { return snapshot(false) }
                guard properties[key] == nil else { throw fail("duplicate property \"\(key)\"") }
                skipSpace()
                try expect(":")
                skipSpace()
                do {
                    let value = try parseValue()
                    properties[key] = value
                    keys.append(key)
                    if !value.isComplete { return snapshot(false) }
                } catch is Truncated {
                    return snapshot(false)
                }
                skipSpace()
                let next = try peek()
                index += 1
                if next == UInt8(ascii: "}") { return snapshot(true) }
                guard next == UInt8(ascii: ",") else { index -= 1; throw fail("expected , or }") }
            }
        } catch is Truncated {
            return snapshot(false)
        }
    }

    private mutating func parseArray() throws -> GeneratedContent {
        index += 1
        var items: [GeneratedContent] = []
        do {
            skipSpace()
            if try peek() == UInt8(ascii: "]") { index += 1; return GeneratedContent(kind: .array(items)) }
            while true {
                skipSpace()
                let value = try parseValue()
                items.append(value)
                if !value.isComplete { return GeneratedContent(kind: .array(items), isComplete: false) }
                skipSpace()
                let next = try peek()
                index += 1
                if next == UInt8(ascii: "]") { return GeneratedContent(kind: .array(items)) }
                guard next == UInt8(ascii: ",") else { index -= 1; throw fail("expected , or ]") }
            }
        } catch is Truncated {
            return GeneratedContent(kind: .array(items), isComplete: false)
        }
    }

    private mutating func parseNumber() throws -> GeneratedContent {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) { parser.index += 1 }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        let intDigits = digits(&self)
        guard intDigits > 0 else { if partial && index == bytes.count { throw Truncated() }; throw fail("expected a digit") }
        if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { throw fail("leading zero in a number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { if partial && index == bytes.count { throw Truncated() }; throw fail("expected a digit after .") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { if partial && index == bytes.count { throw Truncated() }; throw fail("expected an exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // A number at the very end of a partial document may still grow.
        return GeneratedContent(kind: .number(text), isComplete: !(partial && index == bytes.count))
    }

    /// The string's text and whether its closing quote was seen.
    private mutating func parseString() throws -> (String, Bool) {
        index += 1
        var scalars = String.UnicodeScalarView()
        var chunkStart = index
        func flush(_ parser: JSONParser, upTo end: Int) throws -> Void {
            guard let text = String(validating: parser.bytes[chunkStart..<end], as: UTF8.self) else {
                throw parser.fail("invalid UTF-8 in a string")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else {
                guard partial else { throw fail("unterminated string") }
                // Drop an incomplete UTF-8 sequence at the cut.
                var end = index
                var back = 0
                while end > chunkStart, back < 3, bytes[end - 1] & 0xC0 == 0x80 { end -= 1; back += 1 }
                if end > chunkStart, bytes[end - 1] >= 0xC0 { end -= 1 } else { end = index }
                try flush(self, upTo: end)
                return (String(scalars), false)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(self, upTo: index)
                index += 1
                return (String(scalars), true)
            }
            if byte < 0x20 { throw fail("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                try flush(self, upTo: index)
                index += 1
                guard index < bytes.count else {
                    guard partial else { throw fail("unterminated escape") }
                    return (String(scalars), false)
                }
                let escape = bytes[index]
                index += 1
                if let character = JSON.escapedCharacter(escape) {
                    scalars.append(character)
                    chunkStart = index
                    continue
                }
                switch escape {
                case UInt8(ascii: "u"):
                    guard let first = try readHex4() else { return (String(scalars), false) }
                    if (0xD800...0xDBFF).contains(first) {
                        guard index + 1 < bytes.count || !partial else { return (String(scalars), false) }
                        guard bytes.count > index + 1, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired surrogate")
                        }
                        index += 2
                        guard let second = try readHex4() else { return (String(scalars), false) }
                        guard (0xDC00...0xDFFF).contains(second) else { throw fail("unpaired surrogate") }
                        scalars.append(Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!)
                    } else if let scalar = Unicode.Scalar(first) {
                        scalars.append(scalar)
                    } else {
                        throw fail("unpaired surrogate")
                    }
                default: throw fail("invalid escape")
                }
                chunkStart = index
                continue
            }
            index += 1
        }
    }

    /// Four hex digits, or nil when a partial document ends inside them.
    private mutating func readHex4() throws -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                if partial { return nil }
                throw fail("unterminated \\u escape")
            }
            guard let digit = hexDigitValue(bytes[index]) else { throw fail("invalid \\u escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    static func quote(_ text: String, into out: inout String) {
        out += QuotedString.quoted(text)
    }
}
