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
        var output = ""
        write(to: &output, indent: indent, level: 0)
        return output
    }

    private func write(to output: inout String, indent: Int?, level: Int) {
        let newline = indent == nil ? "" : "\n"
        let pad = { (level: Int) in indent.map { String(repeating: " ", count: $0 * level) } ?? "" }
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .int(value): output += String(value)
        case let .double(value): output += value.isFinite ? String(value) : "null"
        case let .string(value): output += QuotedString.quoted(value)
        case let .array(items):
            guard !items.isEmpty else { output += "[]"; return }
            output += "[" + newline
            for (index, item) in items.enumerated() {
                output += pad(level + 1)
                item.write(to: &output, indent: indent, level: level + 1)
                output += (index + 1 < items.count ? "," : "") + newline
            }
            output += pad(level) + "]"
        case let .object(pairs):
            guard !pairs.isEmpty else { output += "{}"; return }
            output += "{" + newline
            for (index, (key, value)) in pairs.enumerated() {
                output += pad(level + 1)
                output += QuotedString.quoted(key)
                output += indent == nil ? ":" : ": "
                value.write(to: &output, indent: indent, level: level + 1)
                output += (index + 1 < pairs.count ? "," : "") + newline
            }
            output += pad(level) + "}"
        }
    }
}
