// Double-quoted strings as JSON and YAML write them: one escaping for the note files, the sync
// repository and the CLI's JSON output.

public enum QuotedString {
    /// A double-quoted string, valid both as JSON and as a YAML scalar: `"`, `\`, control
    /// characters and the two Unicode line separators escaped. Byte by byte, copying the runs
    /// between escapes whole: `notes list --json` quotes every note of the notebook.
    public static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 2)
        quote(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The same, its UTF-8 appended to `output`.
    public static func quote(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            var index = 0
            func escape(_ replacement: String, length: Int) {
                output.append(contentsOf: bytes[runStart..<index])
                output.append(contentsOf: replacement.utf8)
                index += length
                runStart = index
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""): escape("\\\"", length: 1)
                case UInt8(ascii: "\\"): escape("\\\\", length: 1)
                case UInt8(ascii: "\n"): escape("\\n", length: 1)
                case UInt8(ascii: "\r"): escape("\\r", length: 1)
                case UInt8(ascii: "\t"): escape("\\t", length: 1)
                case 0..<0x20, 0x7F: escape(unicodeEscape(UInt32(byte)), length: 1)
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape(unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029), length: 3)
                default: index += 1
                }
            }
            output.append(contentsOf: bytes[runStart..<bytes.count])
            output.append(UInt8(ascii: "\""))
        }
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    public static func unquoted(_ value: String) -> String {
        if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") {
            return String(value.dropFirst().dropLast()).replacingOccurrences("''", with: "'")
        }
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        var result = String.UnicodeScalarView()
        var scalars = value.unicodeScalars.dropFirst().dropLast()[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let escaped = scalars.popFirst() else {
                result.append(scalar)
                continue
            }
            switch escaped {
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "b": result.append("\u{8}")
            case "f": result.append("\u{C}")
            case "0": result.append("\u{0}")
            case "u":
                let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
                scalars = scalars.dropFirst(4)
                if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { result.append(decoded) }
            default: result.append(escaped)
            }
        }
        return String(result)
    }
}
