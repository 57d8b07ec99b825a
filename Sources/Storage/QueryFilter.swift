// Filters typed in a search query, as zk and Joplin users write them: `tag:home`,
// `category:work`, `urgency:>=4`, `created:2026-11`, `updated:<7d`, `due:<7d`. A leading `-`
// negates one. A malformed value is a `SearchQueryError` that says what was expected.
import Notes

public struct QueryFilter: Equatable, Sendable {
    public enum Field: String, CaseIterable, Sendable {
        case tag, category, urgency, created, updated, due
    }

    public enum Comparison: String, Sendable {
        case equal = "=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    public enum Value: Equatable, Sendable {
        case text(String)
        case number(Int)
        /// Whole UTC days, `start` included and `end` excluded (days since 1970-01-01).
        case days(start: Int64, end: Int64)
        /// A day named from today: today 0, yesterday -1, tomorrow 1.
        case day(offset: Int64)
        /// A span back from now (`created`, `updated`: an age) or forward from today (`due`).
        case span(days: Int64)
    }

    public var field: Field
    var comparison: Comparison
    public var value: Value
    public var negated: Bool

    /// What each field takes, for the error message and the help.
    static func expected(_ field: Field) -> String {
        switch field {
        case .tag: "a tag name (tag:home)"
        case .category: "one of " + Category.allCases.map(\.rawValue).joined(separator: ", ") + " (category:work)"
        case .urgency: "a number from 1 to 5, after <, <=, >, >= or = if you like (urgency:>=4)"
        case .created, .updated:
            "a date (2026-11-03, 2026-11 or 2026), today or yesterday, or an age in days or weeks (7d, 2w), after <, <=, >, >= or = if you like (\(field.rawValue):>=2026-11-01, \(field.rawValue):<7d)"
        case .due:
            "a date (2026-12-04, 2026-12 or 2026), today or tomorrow, or days or weeks from today (7d, 2w), after <, <=, >, >= or = if you like (due:<7d, due:2026-12)"
        }
    }

    /// Reads `text`, the part after `field:`.
    static func parse(field: Field, text: Substring, negated: Bool) throws(SearchQueryError) -> QueryFilter {
        var rest = text
        var comparison = Comparison.equal
        for candidate in [Comparison.lessOrEqual, .greaterOrEqual, .less, .greater, .equal] where rest.hasPrefix(candidate.rawValue) {
            comparison = candidate
            rest = rest.dropFirst(candidate.rawValue.count)
            break
        }
        let fail = SearchQueryError(filter: "\(negated ? "-" : "")\(field.rawValue):\(text)", expected: expected(field))
        switch field {
        case .tag:
            guard comparison == .equal, let tag = Tags.normalized([String(rest)]).first, !tag.isEmpty else { throw fail }
            return QueryFilter(field: field, comparison: comparison, value: .text(tag), negated: negated)
        case .category:
            guard comparison == .equal, let category = Category(rawValue: rest.lowercased()) else { throw fail }
            return QueryFilter(field: field, comparison: comparison, value: .text(category.rawValue), negated: negated)
        case .urgency:
            guard let number = Int(rest), (1...5).contains(number) else { throw fail }
            return QueryFilter(field: field, comparison: comparison, value: .number(number), negated: negated)
        case .created, .updated, .due:
            guard let value = dateValue(rest, future: field == .due) else { throw fail }
            return QueryFilter(field: field, comparison: comparison, value: value, negated: negated)
        }
    }

    /// `2026-11-03`, `2026-11`, `2026`, `today`, `yesterday`, `tomorrow`, `7d`, `2w`.
    static func dateValue(_ text: Substring, future: Bool) -> Value? {
        let lowered = text.lowercased()
        switch lowered {
        case "today": return .day(offset: 0)
        case "yesterday" where !future: return .day(offset: -1)
        case "tomorrow" where future: return .day(offset: 1)
        default: break
        }
        if let unit = lowered.last, unit == "d" || unit == "w", let count = Int64(lowered.dropLast()), count >= 0, count <= 100_000 {
            return .span(days: count * (unit == "w" ? 7 : 1))
        }
        let parts = lowered.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              let numbers = Optional(parts.compactMap { Int($0) }), numbers.count == parts.count, parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
        else { return nil }
        let year = numbers[0]
        guard (1970...9999).contains(year) else { return nil }
        if numbers.count == 1 {
            return .days(start: Timestamp.days(fromCivil: year, 1, 1), end: Timestamp.days(fromCivil: year + 1, 1, 1))
        }
        let month = numbers[1]
        guard (1...12).contains(month) else { return nil }
        let monthStart = Timestamp.days(fromCivil: year, month, 1)
        let monthEnd = month == 12 ? Timestamp.days(fromCivil: year + 1, 1, 1) : Timestamp.days(fromCivil: year, month + 1, 1)
        if numbers.count == 2 { return .days(start: monthStart, end: monthEnd) }
        let day = numbers[2]
        guard day >= 1, monthStart + Int64(day) - 1 < monthEnd else { return nil }
        return .days(start: monthStart + Int64(day) - 1, end: monthStart + Int64(day))
    }
}

/// A filter in the query that could not be read: the CLI reports it as a usage error (exit 64).
public struct SearchQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var filter: String
    public var expected: String
    public var description: String { "'\(filter)' is not a filter notes can read: expected \(expected)" }
}

extension NoteStore {
    static let millisecondsPerDay: Int64 = 86_400_000

    /// SQL conditions on `n` (a live note) and their values for `filters`, as of `now`.
    func conditions(for filters: [QueryFilter], now: Timestamp) -> (sql: [String], values: [any DatabaseValueConvertible]) {
        var sql: [String] = []
        var values: [any DatabaseValueConvertible] = []
        let day = Self.millisecondsPerDay
        let today = now.milliseconds >= 0 ? now.milliseconds / day : (now.milliseconds - day + 1) / day
        for filter in filters {
            var condition: String
            switch (filter.field, filter.value) {
            case let (.tag, .text(tag)):
                condition = "n.seq IN (SELECT note_seq FROM note_tags WHERE tag = ?)"
                values.append(tag)
            case let (.category, .text(category)):
                condition = "n.seq IN (SELECT note_seq FROM analyses WHERE coalesce(user_category, category) = ?)"
                values.append(category)
            case let (.urgency, .number(number)):
                condition = "n.seq IN (SELECT note_seq FROM analyses WHERE coalesce(user_urgency, urgency) \(filter.comparison.rawValue) ?)"
                values.append(number)
            case let (.created, .span(days)), let (.updated, .span(days)):
                // An age: `<7d` (or `7d`) is newer than 7 days ago, `>30d` older than 30 days.
                let older = filter.comparison == .greater || filter.comparison == .greaterOrEqual
                condition = "n.\(filter.field.rawValue) \(older ? "<" : ">=") ?"
                values.append(now.milliseconds - days * day)
            case (.created, _), (.updated, _):
                guard let (start, end) = Self.dayRange(filter.value, today: today) else { continue }
                condition = Self.rangeCondition("n.\(filter.field.rawValue)", filter.comparison, start: start * day, end: end * day, values: &values)
            case (.due, _):
                let range: (Int64, Int64)
                if case let .span(days) = filter.value {
                    // `due:7d`: from today to 7 days on; `due:<7d`: before then, overdue included.
                    range = filter.comparison == .equal ? (today, today + days) : (today + days, today + days + 1)
                } else if let days = Self.dayRange(filter.value, today: today) {
                    range = days
                } else {
                    continue
                }
                var bounds: [any DatabaseValueConvertible] = []
                let test = Self.rangeCondition("t.due", filter.comparison, start: range.0, end: range.1, values: &bounds)
                values += bounds.map { ($0 as? Int64).map(Self.isoDay) ?? "" }
                condition = "n.seq IN (SELECT t.note_seq FROM tasks t WHERE t.done = 0 AND t.due IS NOT NULL AND \(test))"
            default:
                continue
            }
            sql.append(filter.negated ? "NOT (\(condition))" : condition)
        }
        return (sql, values)
    }

    private static func dayRange(_ value: QueryFilter.Value, today: Int64) -> (Int64, Int64)? {
        switch value {
        case let .days(start, end): (start, end)
        case let .day(offset): (today + offset, today + offset + 1)
        default: nil
        }
    }

    /// `column` against the half-open range [start, end) by `comparison`.
    private static func rangeCondition(_ column: String, _ comparison: QueryFilter.Comparison, start: Int64, end: Int64,
                                       values: inout [any DatabaseValueConvertible]) -> String {
        switch comparison {
        case .equal:
            values += [start, end]
            return "(\(column) >= ? AND \(column) < ?)"
        case .less: values.append(start); return "\(column) < ?"
        case .lessOrEqual: values.append(end); return "\(column) < ?"
        case .greater: values.append(end); return "\(column) >= ?"
        case .greaterOrEqual: values.append(start); return "\(column) >= ?"
        }
    }

    static func isoDay(_ days: Int64) -> String {
        let (year, month, day) = Timestamp.civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
