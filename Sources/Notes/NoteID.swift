// A note's identity: a UUIDv7, sortable by creation time and unique across machines without coordination.

/// The canonical text form is lowercase and dashed (`0193f2a1-8b2c-7d3e-9f40-123456789abc`);
/// users may type any unique prefix or end, with or without the dashes (see `NoteHandle`).
public struct NoteID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts the canonical 36-character form or its 32 hex digits, in any case.
    public init?(_ text: String) {
        // The form the store holds, checked byte by byte: listing 10,000 notes reads as many ids.
        if NoteID.isCanonical(text) {
            rawValue = text
            return
        }
        guard let hex = NoteID.hexDigits(text), hex.count == 32 else { return nil }
        rawValue = NoteID.dashed(hex)
    }

    private static func isCanonical(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            switch count {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            default: guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else { return false }
            }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
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

/// The short handle a person reads and types for a note: the last hex digits of its id, as few
/// as tell it apart in the notebook (at least `minimumLength`). The end of a UUIDv7 is random,
/// while its start is the time: notes made in the same minute share their first 8 digits, but
/// almost never their last 6. A handle also never starts another note's id, so it is unique
/// read either way (`NoteStore.resolve` takes a unique prefix or a unique end).
public enum NoteHandle {
    public static let minimumLength = 6

    /// The handle of each id in `ids` among the notebook's `others` (which may include them).
    public static func handles(for ids: [NoteID], among others: [NoteID]) -> [NoteID: String] {
        var seen = Set<NoteID>()
        let all = (others + ids).filter { seen.insert($0).inserted }
        let digits = all.map(hexDigits)
        // Ids sorted by their reversed digits: the ids sharing the longest end are neighbours.
        let byEnd = digits.indices.sorted { endPrecedes(digits[$0], digits[$1]) }
        let byStart = digits.sorted { $0.lexicographicallyPrecedes($1) }
        var wanted = Set(ids)
        var result: [NoteID: String] = [:]
        for (position, index) in byEnd.enumerated() where wanted.remove(all[index]) != nil {
            let id = digits[index]
            var length = minimumLength
            if position > 0 { length = max(length, commonEnd(id, digits[byEnd[position - 1]]) + 1) }
            if position + 1 < byEnd.count { length = max(length, commonEnd(id, digits[byEnd[position + 1]]) + 1) }
            length = min(length, id.count)
            while length < id.count, startsAnother(id.suffix(length), than: id, in: byStart) { length += 1 }
            result[all[index]] = String(decoding: id.suffix(length), as: UTF8.self)
        }
        return result
    }

    /// Whether `reference` (hex digits) is the start or the end of the id.
    public static func matches(_ reference: String, _ id: NoteID) -> Bool {
        let hex = hexDigits(id)
        let typed = Array(reference.utf8)
        return hex.starts(with: typed) || hex.reversed().starts(with: typed.reversed())
    }

    static func hexDigits(_ id: NoteID) -> [UInt8] { id.rawValue.utf8.filter { $0 != UInt8(ascii: "-") } }

    private static func endPrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.reversed().lexicographicallyPrecedes(b.reversed())
    }

    private static func commonEnd(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var count = 0
        while count < a.count, count < b.count, a[a.count - 1 - count] == b[b.count - 1 - count] { count += 1 }
        return count
    }

    /// Whether an id other than `id` starts with `digits` (binary search in start order).
    private static func startsAnother(_ digits: ArraySlice<UInt8>, than id: [UInt8], in sorted: [[UInt8]]) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].lexicographicallyPrecedes(digits) { low = middle + 1 } else { high = middle }
        }
        while low < sorted.count, sorted[low].starts(with: digits) {
            if sorted[low] != id { return true }
            low += 1
        }
        return false
    }
}
