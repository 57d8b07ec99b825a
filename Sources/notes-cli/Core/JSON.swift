// JSON output with a stable key order (scripts and tests rely on it), written by hand.
import Notes

indirect enum JSON {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }

    /// Compact when `indent` is nil, else pretty with that many spaces per level.
    func render(indent: Int? = 2) -> String {
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
        case let .string(value): JSON.writeString(value, to: &output)
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
                JSON.writeString(key, to: &output)
                output += indent == nil ? ":" : ": "
                value.write(to: &output, indent: indent, level: level + 1)
                output += (index + 1 < pairs.count ? "," : "") + newline
            }
            output += pad(level) + "}"
        }
    }

    static func writeString(_ text: String, to output: inout String) {
        output += QuotedString.quoted(text)
    }
}
