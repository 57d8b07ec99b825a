// Standard input cut into messages: one JSON text a line (MCP's stdio framing), with a limit on
// a line's size so that a huge request costs a bounded amount of memory and gets an answer.
import Notes

/// Bytes in, complete lines out; a line over the limit is dropped as it streams in, and only
/// its start is kept, to find the request's id in.
public struct RequestLines {
    public enum Line: Equatable {
        case message([UInt8])
        /// A line of `size` bytes, over `limit`; `start` is its first bytes.
        case tooLarge(size: Int, limit: Int, start: [UInt8])
    }

    /// 16 MiB: a request with a long note's text fits, and a runaway client's does not take
    /// the machine's memory with it.
    public static let defaultLimit = 16 * 1024 * 1024
    /// How much of an oversized line is kept: enough for `{"jsonrpc": "2.0", "id": ...`.
    static let keptStart = 4096

    public let limit: Int
    private var pending: [UInt8] = []
    private var oversized: Int?

    public init(limit: Int = RequestLines.defaultLimit) {
        self.limit = limit
    }

    /// The lines that `bytes` completes (a `\r` before the newline is dropped, blank lines
    /// are skipped).
    public mutating func append(_ bytes: some Collection<UInt8>) -> [Line] {
        var lines: [Line] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            guard let newline = rest.firstIndex(of: 0x0A) else {
                take(rest)
                break
            }
            take(rest[..<newline])
            if let line = finishLine() { lines.append(line) }
            rest = rest[rest.index(after: newline)...]
        }
        return lines
    }

    /// The last line when the input ends without a newline.
    public mutating func finish() -> Line? { finishLine() }

    private mutating func take(_ bytes: some Collection<UInt8>) {
        if let size = oversized {
            oversized = size + bytes.count
        } else if pending.count + bytes.count > limit {
            oversized = pending.count + bytes.count
            pending.append(contentsOf: bytes.prefix(max(0, Self.keptStart - pending.count)))
            pending.removeSubrange(min(pending.count, Self.keptStart)...)
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func finishLine() -> Line? {
        defer {
            pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
            oversized = nil
        }
        if let size = oversized { return .tooLarge(size: size, limit: limit, start: pending) }
        if pending.last == 0x0D { pending.removeLast() }
        guard pending.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        return .message(pending)
    }

    /// The request id at the start of an oversized line, when its `"id"` comes before the
    /// part that made it too large (the usual order: `jsonrpc`, `id`, `method`, `params`), so
    /// that the client is answered instead of waiting forever.
    public static func requestID(inStartOf bytes: [UInt8]) -> RequestID? {
        // Walks the top-level object's keys, skipping each value, until "id" or the end.
        var scanner = KeyScanner(bytes: bytes)
        return scanner.topLevelID()
    }
}

/// Just enough of a JSON tokenizer to find a top-level key in a text that is cut short.
private struct KeyScanner {
    let bytes: [UInt8]
    var index = 0

    mutating func topLevelID() -> RequestID? {
        skipSpace()
        guard next() == UInt8(ascii: "{") else { return nil }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard next() == UInt8(ascii: ":") else { return nil }
            skipSpace()
            if key == "id" {
                let start = index
                guard skipValue(), let json = try? JSON.parse(bytes[start..<index]) else { return nil }
                return RequestID(json)
            }
            guard skipValue() else { return nil }
            skipSpace()
            guard next() == UInt8(ascii: ",") else { return nil }
        }
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func next() -> UInt8? {
        defer { index += 1 }
        return peek()
    }

    mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// A string's text (its escapes read by the real parser), or nil when cut short.
    mutating func string() -> String? {
        let start = index
        index += 1
        while let byte = next() {
            if byte == UInt8(ascii: "\\") { index += 1; continue }
            if byte == UInt8(ascii: "\"") { return (try? JSON.parse(bytes[start..<index]))?.string }
        }
        return nil
    }

    /// Moves past one value; false when the text ends inside it.
    mutating func skipValue() -> Bool {
        var depth = 0
        repeat {
            guard let byte = peek() else { return false }
            switch byte {
            case UInt8(ascii: "\""): guard string() != nil else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1; index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"): index += 1
            default:
                while let byte = peek(), !",:]} \t\r\n".utf8.contains(byte) { index += 1 }
                if index >= bytes.count { return false }
            }
            if depth > 0 { skipSpace() }
        } while depth > 0
        return true
    }
}
