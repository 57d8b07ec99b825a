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

    init(milliseconds: Int64) {
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
    /// Ids are compared as 128-bit numbers: `notes list` finds the handles of 10,000 notes.
    public static func handles(for ids: [NoteID], among others: [NoteID]) -> [NoteID: String] {
        let values = ids.map(value)
        var starts = others.map(value) + values
        starts.sort()
        starts = starts.enumerated().filter { $0.offset == 0 || starts[$0.offset - 1] != $0.element }.map(\.element)
        // In the order of their reversed digits, the ids that share the longest end are neighbours.
        let ends = starts.map(reversedDigits).sorted()
        var result: [NoteID: String] = [:]
        result.reserveCapacity(ids.count)
        for (id, start) in zip(ids, values) {
            let end = reversedDigits(start)
            let position = firstIndex(notBelow: end, in: ends)
            var length = minimumLength
            if position > 0 { length = max(length, commonDigits(end, ends[position - 1]) + 1) }
            if position + 1 < ends.count { length = max(length, commonDigits(end, ends[position + 1]) + 1) }
            length = min(length, 32)
            while length < 32, startsAnother(start, length: length, in: starts) { length += 1 }
            let hex = length <= 12 ? Substring(id.rawValue) : Substring(String(decoding: hexDigits(id), as: UTF8.self))
            result[id] = String(hex.suffix(length))
        }
        return result
    }

    /// The id's 32 hex digits as one number, the first digit highest.
    private static func value(_ id: NoteID) -> UInt128 {
        var high: UInt64 = 0, low: UInt64 = 0, count = 0
        for byte in id.rawValue.utf8 where byte != UInt8(ascii: "-") {
            let digit = UInt64(byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : byte &- UInt8(ascii: "a") &+ 10)
            if count < 16 { high = high << 4 | digit } else { low = low << 4 | digit }
            count += 1
        }
        return UInt128(high) << 64 | UInt128(low)
    }

    private static func reversedDigits(_ number: UInt128) -> UInt128 {
        var number = number, reversed: UInt128 = 0
        for _ in 0..<32 {
            reversed = reversed << 4 | number & 0xF
            number >>= 4
        }
        return reversed
    }

    /// How many leading hex digits two numbers share.
    private static func commonDigits(_ a: UInt128, _ b: UInt128) -> Int { (a ^ b).leadingZeroBitCount / 4 }

    private static func firstIndex(notBelow number: UInt128, in sorted: [UInt128]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < number { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether an id other than `id` starts with the last `length` digits of `id`.
    private static func startsAnother(_ id: UInt128, length: Int, in starts: [UInt128]) -> Bool {
        let shift = UInt128(128 - 4 * length)
        let low = (id & ((1 << UInt128(4 * length)) - 1)) << shift
        let high = low | ((1 << shift) - 1)
        var index = firstIndex(notBelow: low, in: starts)
        while index < starts.count, starts[index] <= high {
            if starts[index] != id { return true }
            index += 1
        }
        return false
    }

    /// Whether `reference` (hex digits) is the start or the end of the id.
    public static func matches(_ reference: String, _ id: NoteID) -> Bool {
        let hex = hexDigits(id)
        let typed = Array(reference.utf8)
        return hex.starts(with: typed) || hex.reversed().starts(with: typed.reversed())
    }

    static func hexDigits(_ id: NoteID) -> [UInt8] { id.rawValue.utf8.filter { $0 != UInt8(ascii: "-") } }
}
