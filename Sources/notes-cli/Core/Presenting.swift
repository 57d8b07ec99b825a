// How notes, analyses and search hits look: JSON for scripts, lines for people.
import Notebook
import Notes

extension Terminal {
    /// One line per note: short id, date, title, tags, and the analysis when there is one.
    func noteLine(_ note: Note, shortID: String, analysis: Analysis?) -> String {
        var line = yellow(shortID) + "  " + dim(note.updated.day) + "  " + note.title
        if !note.tags.isEmpty { line += "  " + cyan(note.tags.map { "#" + $0 }.joined(separator: " ")) }
        if let analysis { line += "  " + dim("[\(analysis.category.rawValue) \(analysis.urgency)]") }
        return line
    }

    /// Replaces the search highlight markers: bold on a colour terminal, `**` otherwise.
    func highlighted(_ snippet: String) -> String {
        let (open, close) = colorsOut ? ("\u{1B}[1;33m", "\u{1B}[0m") : ("**", "**")
        return snippet.replacingOccurrences(SearchHit.highlightStart, with: open)
            .replacingOccurrences(SearchHit.highlightEnd, with: close)
            .replacingOccurrences("\n", with: " ")
    }

    func emit(_ json: JSON) {
        var bytes: [UInt8] = []
        json.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        out.write(bytes: bytes)
    }

    /// `emit(.array(items.map(element)))`, the same bytes, written out as they come: a listing
    /// of 10,000 notes is 10 MB of JSON.
    func emit<Items: Collection>(each items: Items, _ element: (Items.Element) -> JSON) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 17)
        JSON.writeArray(items, to: &bytes, drain: { bytes in
            guard bytes.count >= 1 << 16 else { return }
            out.write(bytes: bytes)
            bytes.removeAll(keepingCapacity: true)
        }, element)
        bytes.append(UInt8(ascii: "\n"))
        out.write(bytes: bytes)
    }
}

/// Dates typed by users for --since and --until: `2026-11-29`, a full ISO 8601 time,
/// `today`, `yesterday`, or an age like `3d`, `2w`, `12h`, `30m`.
enum DateArgument {
    static func parse(_ text: String, now: Timestamp) -> Timestamp? {
        let day: Int64 = 86_400_000
        let startOfToday = Timestamp(milliseconds: now.milliseconds - now.milliseconds % day)
        switch text.lowercased() {
        case "today": return startOfToday
        case "yesterday": return Timestamp(milliseconds: startOfToday.milliseconds - day)
        case "now": return now
        default: break
        }
        if let unit = text.last, let amount = Int64(text.dropLast()), amount >= 0 {
            let size: Int64? = switch unit {
            case "m": 60_000
            case "h": 3_600_000
            case "d": day
            case "w": 7 * day
            default: nil
            }
            if let size { return Timestamp(milliseconds: now.milliseconds - amount * size) }
        }
        return Timestamp(iso8601: text)
    }
}

extension ValueType where Value == Timestamp {
    /// A date as `DateArgument` reads it, relative to the time the command line is parsed.
    static func date(hint: String) -> ValueType {
        ValueType(placeholder: "date", parse: { DateArgument.parse($0, now: Timestamp.current) },
                  invalid: { name, text in "\(name) '\(text)' is not a date (try \(hint))" })
    }
}

extension ValueType where Value == String {
    /// A tag to give a note: letters, digits, `_`, `-` and `/`.
    static var tag: ValueType {
        ValueType(placeholder: "tag", completion: .tags, parse: { Tags.normalized([$0]).isEmpty ? nil : $0 },
                  invalid: { _, text in "'\(text)' is not a tag (letters, digits, _, - and / only)" })
    }
    /// A note's handle or any unique start or end of its id (resolved by the notebook).
    static var note: ValueType { .text("id", completion: .notes) }
}

/// Options and arguments several commands share, declared once.
enum Common {
    static let json = Flag("--json", help: "Print JSON for scripts.")
    static let tagFilter = Option("--tag", type: .text("tag", completion: .tags), help: "Only notes with this tag.")
    static let since = Option("--since", type: .date(hint: "2026-11-29, yesterday or 7d"), help: "Only notes changed at or after: 2026-11-29, yesterday, 7d, 12h.")
    static let until = Option("--until", type: .date(hint: "2026-11-29, today or 1d"), help: "Only notes changed before this date.")
    static let limit = Option("-n", "--limit", type: .integer("n", in: 1...Int.max), help: "Show at most n notes.")
    static let note = Argument("id", type: .note, help: "The note's handle (as `notes list` shows it), or any unique start or end of its id.")
}

extension ParsedArguments {
    /// The --since/--until/--tag/--limit filter shared by list and search.
    var noteFilter: NoteFilter {
        NoteFilter(tag: self[Common.tagFilter], since: self[Common.since], until: self[Common.until], limit: self[Common.limit])
    }
}
