// A note's identity: a UUIDv7, sortable by creation time and unique across machines without coordination.

/// The canonical text form is lowercase and dashed (`0193f2a1-8b2c-7d3e-9f40-123456789abc`);
/// users may type any unique prefix, with or without the dashes.
public struct NoteID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts the canonical 36-character form or its 32 hex digits, in any case.
    public init?(_ text: String) {
        guard let hex = NoteID.hexDigits(text), hex.count == 32 else { return nil }
        rawValue = NoteID.dashed(hex)
    }

    /// A new UUIDv7 for the given time: 48 bits of Unix milliseconds, version 7, 74 random bits.
    public init<R: RandomNumberGenerator>(milliseconds: Int64, using generator: inout R) {
        var bytes = [UInt8](repeating: 0, count: 16)
        let ms = UInt64(max(0, milliseconds))
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: ms >> (40 - 8 * UInt64(i))) }
        for i in 6..<16 { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        rawValue = NoteID.dashed(bytes.map { NoteID.hex($0) }.joined())
    }

    public init(milliseconds: Int64) {
        var generator = SystemRandomNumberGenerator()
        self.init(milliseconds: milliseconds, using: &generator)
    }

    public var description: String { rawValue }

    public static func < (lhs: NoteID, rhs: NoteID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The lowercase hex digits of an id or prefix typed by a user, or nil if it holds anything
    /// other than hex digits and dashes.
    public static func hexDigits(_ text: String) -> String? {
        var digits = ""
        for character in text.lowercased() where character != "-" {
            guard character.isHexDigit, character.isASCII else { return nil }
            digits.append(character)
        }
        return digits
    }

    /// Puts the dashes of the canonical form into (a prefix of) 32 hex digits.
    public static func dashed(_ hex: String) -> String {
        var result = ""
        for (offset, character) in hex.enumerated() {
            if offset == 8 || offset == 12 || offset == 16 || offset == 20 { result.append("-") }
            result.append(character)
        }
        return result
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

/// The shortest prefixes that tell ids apart, the way git abbreviates commits.
public enum NoteIDPrefix {
    public static let minimumLength = 6

    /// For each id, the shortest prefix of its canonical form (at least `minimumLength`
    /// characters, never ending on a dash) that no other id in `ids` shares.
    public static func shortest(for ids: [NoteID]) -> [NoteID: String] {
        let sorted = ids.map { Array($0.rawValue.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var result: [NoteID: String] = [:]
        for (index, id) in sorted.enumerated() {
            var length = minimumLength
            if index > 0 { length = max(length, commonLength(id, sorted[index - 1]) + 1) }
            if index + 1 < sorted.count { length = max(length, commonLength(id, sorted[index + 1]) + 1) }
            length = min(length, id.count)
            if id[length - 1] == UInt8(ascii: "-") { length += 1 }
            let text = String(decoding: id, as: UTF8.self)
            result[NoteID(text)!] = String(decoding: id[0..<length], as: UTF8.self)
        }
        return result
    }

    private static func commonLength(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var count = 0
        while count < a.count, count < b.count, a[count] == b[count] { count += 1 }
        return count
    }
}
