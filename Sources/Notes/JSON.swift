// JSON values: what the CLI writes for scripts (with a stable key order) and what `notes mcp`
// reads from its client, written and parsed by hand.

/// A JSON value. Objects keep their keys in order: the output's order is part of the contract.
public indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value of an object's key (the last one, were a key written twice), or nil.
    public subscript(key: String) -> JSON? {
        guard case let .object(pairs) = self else { return nil }
        return pairs.last { $0.0 == key }?.1
    }

    public var string: String? { if case let .string(value) = self { value } else { nil } }
    public var bool: Bool? { if case let .bool(value) = self { value } else { nil } }
    public var array: [JSON]? { if case let .array(items) = self { items } else { nil } }
    public var object: [(String, JSON)]? { if case let .object(pairs) = self { pairs } else { nil } }
    /// A whole number, written as one (`3`) or as a float without a fraction (`3.0`).
    public var int: Int? {
        switch self {
        case let .int(value): value
        case let .double(value) where value.rounded() == value && abs(value) < 9.0e15: Int(value)
        default: nil
        }
    }

    /// Compact when `indent` is nil, else pretty with that many spaces per level.
    public func render(indent: Int? = 2) -> String {
        var output: [UInt8] = []
        write(to: &output, indent: indent, level: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// `render(indent:)`'s text as UTF-8, appended to `output`: bytes, not a String grown piece
    /// by piece, since `notes list --json` writes every note of the notebook.
    public func write(to output: inout [UInt8], indent: Int? = 2) {
        write(to: &output, indent: indent, level: 0)
    }

    /// `.array(items.map(element))` rendered into `output` one item at a time, as `render` would
    /// write it, calling `drain` after each item: a listing of every note then never holds all
    /// of them as JSON, or as one text, at once.
    public static func writeArray<Items: Collection>(_ items: Items, to output: inout [UInt8], indent: Int? = 2,
                                                     drain: (inout [UInt8]) -> Void, _ element: (Items.Element) -> JSON) {
        writeItems(items, to: &output, indent: indent, level: 0, open: "[", close: "]", drain: drain) { item, output in
            element(item).write(to: &output, indent: indent, level: 1)
        }
    }

    private func write(to output: inout [UInt8], indent: Int?, level: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case let .bool(value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case let .int(value): output.append(contentsOf: String(value).utf8)
        case let .double(value): output.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
        case let .string(value): QuotedString.quote(value, to: &output)
        case let .array(items):
            JSON.writeItems(items, to: &output, indent: indent, level: level, open: "[", close: "]", drain: { _ in }) { item, output in
                item.write(to: &output, indent: indent, level: level + 1)
            }
        case let .object(pairs):
            JSON.writeItems(pairs, to: &output, indent: indent, level: level, open: "{", close: "}", drain: { _ in }) { pair, output in
                QuotedString.quote(pair.0, to: &output)
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                pair.1.write(to: &output, indent: indent, level: level + 1)
            }
        }
    }

    /// The brackets, each item on a line of its own indented one level deeper (all on one line
    /// when compact), commas between; `[]` or `{}` when empty.
    private static func writeItems<Items: Collection>(_ items: Items, to output: inout [UInt8], indent: Int?, level: Int,
                                                      open: Unicode.Scalar, close: Unicode.Scalar, drain: (inout [UInt8]) -> Void,
                                                      _ writeItem: (Items.Element, inout [UInt8]) -> Void) {
        output.append(UInt8(ascii: open))
        guard !items.isEmpty else {
            output.append(UInt8(ascii: close))
            return
        }
        func newline(level: Int) {
            guard let indent else { return }
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
        }
        var first = true
        for item in items {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            newline(level: level + 1)
            writeItem(item, &output)
            drain(&output)
        }
        newline(level: level)
        output.append(UInt8(ascii: close))
    }
}
