// A point in time as whole milliseconds since the Unix epoch, printed as ISO 8601 UTC.
#if canImport(Glibc)
import Glibc
#endif

/// Milliseconds keep `export` then `import` exact, and integers keep SQLite comparisons cheap.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// `2026-11-29T13:34:33.123Z`; the fraction is left out when it is zero.
    public var iso8601: String {
        let seconds = milliseconds.floorDivided(by: 1000)
        let fraction = Int(milliseconds - seconds * 1000)
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = Timestamp.civil(fromDays: days)
        // Bytes into one String: `notes list --json` writes three of these a note.
        var text: [UInt8] = []
        text.reserveCapacity(24)
        appendDate(year, month, day, to: &text)
        text.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, 2, to: &text)
        if fraction != 0 {
            text.append(UInt8(ascii: "."))
            appendPadded(fraction, 3, to: &text)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The calendar date alone, `2026-11-29`, in UTC.
    public var day: String {
        let (year, month, day) = civil
        // Bytes, as `iso8601`: `notes list` writes one a note.
        var text: [UInt8] = []
        text.reserveCapacity(10)
        appendDate(year, month, day, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The calendar date, in UTC.
    public var civil: (year: Int, month: Int, day: Int) { Timestamp.civil(fromDays: daysSince1970) }

    /// Whole days since 1970-01-01, in UTC (the days `Deadlines` counts in).
    public var daysSince1970: Int64 { milliseconds.floorDivided(by: Self.millisecondsPerDay) }

    public static let millisecondsPerDay: Int64 = 86_400_000

    /// The start (UTC) of the day `days` days after 1970-01-01.
    public init(daysSince1970 days: Int64) { self.init(milliseconds: days * Self.millisecondsPerDay) }

    /// The same time of day, `days` days later (earlier when negative).
    public func adding(days: Int) -> Timestamp { Timestamp(milliseconds: milliseconds + Int64(days) * Self.millisecondsPerDay) }

    /// `2026-11-29`.
    private func appendDate(_ year: Int, _ month: Int, _ day: Int, to text: inout [UInt8]) {
        appendPadded(year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(day, 2, to: &text)
    }

    public var description: String { iso8601 }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH:MM` or no zone (UTC).
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0, millisecond = 0, offset = 0
        if index < bytes.count {
            guard expect("T") || expect(" "), let h = number(2), expect(":"), let m = number(2),
                  h < 24, m < 60 else { return nil }
            hour = h
            minute = m
            if expect(":") {
                guard let s = number(2), s < 61 else { return nil }
                second = min(s, 59)
                if expect(".") {
                    var digits = 0
                    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                        if digits < 3 { millisecond = millisecond * 10 + Int(bytes[index] - 48) }
                        digits += 1
                        index += 1
                    }
                    guard digits > 0 else { return nil }
                    if digits < 3 { for _ in digits..<3 { millisecond *= 10 } }
                }
            }
            if expect("Z") {
                offset = 0
            } else if index < bytes.count {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                guard expect("+") || expect("-"), let oh = number(2) else { return nil }
                _ = expect(":")
                guard let om = number(2) else { return nil }
                offset = sign * (oh * 60 + om)
            }
            guard index == bytes.count else { return nil }
        }
        let days = Timestamp.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
        milliseconds = seconds * 1000 + Int64(millisecond)
    }

    // Howard Hinnant's days-from-civil algorithms: exact for every proleptic Gregorian date.
    /// Days since 1970-01-01 of a calendar date.
    public static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a count of days since 1970-01-01.
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

/// `pad(value, width)`'s digits appended as bytes.
private func appendPadded(_ value: Int, _ width: Int, to text: inout [UInt8]) {
    var limit = 1
    for _ in 0..<width { limit *= 10 }
    guard value >= 0, value < limit else { return text.append(contentsOf: pad(value, width).utf8) }
    var divisor = limit / 10
    while divisor > 0 {
        text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
        divisor /= 10
    }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension Timestamp {
    /// The wall clock now.
    public static var current: Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}
