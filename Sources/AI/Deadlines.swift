// Deadlines a note names ("tomorrow", "Friday", "Dec 20", "the 1st", "in 3 days"), read by date
// arithmetic. A model of this size cannot count days between dates, so the analyzer does it and
// turns the nearest deadline into the urgency the instructions describe.
import Notes

struct DeadlineReading: Equatable, Sendable {
    /// Days from Today to the nearest deadline (0: today, negative: passed); nil when the note
    /// names no date at or after its creation, or when that date passed more than
    /// `Deadlines.forgottenAfterDays` ago (the note is history, not a fire).
    var daysLeft: Int?
    /// The note says it is pressing: "urgent", "asap", "overdue", "was due", "emergency".
    var isPressing: Bool
}

enum Deadlines {
    static let forgottenAfterDays = 14

    /// The urgency scale of the instructions: 5 due today, overdue or pressing; 4 due in 1 to 3
    /// days; 3 in 4 to 14 days; 2 later, or something to do with no date; 1 nothing to do.
    static func urgency(_ reading: DeadlineReading, hasTasks: Bool) -> Int {
        if reading.isPressing { return 5 }
        guard let days = reading.daysLeft else { return hasTasks ? 2 : 1 }
        switch days {
        case ...0: return 5
        case 1...3: return 4
        case 4...14: return 3
        default: return 2
        }
    }

    /// Reads `text`, written on the day `created`, as of the day `today` (both in days since
    /// 1970-01-01). Relative words count from `created`: "tomorrow" in a note written yesterday
    /// is today.
    static func read(_ text: String, created: Int64, today: Int64) -> DeadlineReading {
        let words = self.words(text)
        let padded = " " + words.joined(separator: " ") + " "
        let isPressing = pressingPhrases.contains { padded.contains(" \($0) ") }
        var candidates: [Int64] = []
        for (phrase, offset) in relativePhrases where padded.contains(" \(phrase) ") { candidates.append(created + offset) }
        // Monday = 0. "This week" ends on Friday, or at once when the note is written at the weekend.
        let weekday = Int((created + 3).floorMod(7))
        if ["this week", "end of the week", "end of week"].contains(where: { padded.contains(" \($0) ") }) {
            candidates.append(created + Int64(max(0, 4 - weekday)))
        }
        if ["this weekend", "by the weekend"].contains(where: { padded.contains(" \($0) ") }) {
            candidates.append(created + Int64(max(0, 5 - weekday)))
        }
        for (index, word) in words.enumerated() {
            let previous = index > 0 ? words[index - 1] : ""
            let next = index + 1 < words.count ? words[index + 1] : ""
            if let day = weekdays[word] {
                // The next such day after the note was written; "next Friday" the same.
                let ahead = (day - weekday + 7) % 7
                candidates.append(created + Int64(ahead == 0 ? 7 : ahead))
            } else if let month = months[word] {
                // "Dec 20", "20 Dec", "December 20th 2026".
                if let day = number(previous) ?? number(next) {
                    candidates.append(date(month: month, day: day, near: created, year: index + 2 < words.count ? Int(words[index + 2]) : nil))
                }
            } else if word.count == 4, let year = Int(word), (1970...2200).contains(year), index + 2 < words.count,
                      let month = Int(words[index + 1]), (1...12).contains(month), let day = Int(words[index + 2]), (1...31).contains(day) {
                candidates.append(Timestamp.days(fromCivil: year, month, day))
            } else if previous == "the" || previous == "le", let day = ordinal(word) {
                candidates.append(dayOfMonth(day, onOrAfter: created))
            } else if word == "de" || word == "of", let month = months[next], let day = number(previous) {
                // "20 de diciembre", "the 3rd of March".
                candidates.append(date(month: month, day: day, near: created, year: nil))
            } else if let count = count(word), ["in", "within", "en", "dans"].contains(previous) {
                switch next {
                case "day", "days", "días", "dias", "jours": candidates.append(created + Int64(count))
                case "week", "weeks", "semanas", "semaines": candidates.append(created + Int64(7 * count))
                case "month", "months", "meses", "mois": candidates.append(created + Int64(30 * count))
                default: break
                }
            }
        }
        candidates += japaneseDates(text, created: created)
        // A date before the note was written is something that happened, not a deadline.
        guard let nearest = candidates.filter({ $0 >= created }).min() else { return DeadlineReading(daysLeft: nil, isPressing: isPressing) }
        let days = Int(nearest - today)
        return DeadlineReading(daysLeft: days < -forgottenAfterDays ? nil : days, isPressing: isPressing)
    }

    // MARK: Vocabulary (English, with the commonest Spanish, French and German words)

    static let pressingPhrases = ["urgent", "urgently", "asap", "emergency", "emergencies", "immediately", "overdue", "past due",
                                  "was due", "were due", "deadline was", "right now", "right away", "as soon as", "urgente", "urgencia", "urgence", "dringend"]

    static let relativePhrases: [(String, Int64)] = [
        ("today", 0), ("tonight", 0), ("this morning", 0), ("this afternoon", 0), ("this evening", 0),
        ("hoy", 0), ("esta noche", 0), ("aujourd hui", 0), ("ce soir", 0), ("heute", 0),
        ("tomorrow", 1), ("tmrw", 1), ("demain", 1), ("morgen", 1), ("mañana", 1),
        ("day after tomorrow", 2), ("pasado mañana", 2), ("après demain", 2), ("übermorgen", 2),
        ("next week", 7), ("semana que viene", 7), ("próxima semana", 7), ("semaine prochaine", 7), ("nächste woche", 7),
        ("in a week", 7), ("in two weeks", 14), ("end of next week", 10),
        ("next month", 30), ("in a month", 30), ("mes que viene", 30), ("mois prochain", 30),
    ]

    /// Monday = 0.
    static let weekdays: [String: Int] = {
        var table: [String: Int] = [:]
        let names = [["monday", "mon", "lunes", "lundi", "montag"], ["tuesday", "tue", "tues", "martes", "mardi", "dienstag"],
                     ["wednesday", "miércoles", "miercoles", "mercredi", "mittwoch"], ["thursday", "thu", "thurs", "jueves", "jeudi", "donnerstag"],
                     ["friday", "fri", "viernes", "vendredi", "freitag"], ["saturday", "sábado", "sabado", "samedi", "samstag"],
                     ["sunday", "domingo", "dimanche", "sonntag"]]
        for (day, words) in names.enumerated() { for word in words { table[word] = day } }
        return table
    }()

    static let months: [String: Int] = {
        var table: [String: Int] = [:]
        let names = [["january", "jan", "enero", "janvier", "januar"], ["february", "feb", "febrero", "février", "fevrier", "februar"],
                     ["march", "mar", "marzo", "mars", "märz"], ["april", "apr", "abril", "avril"], ["may", "mayo", "mai"],
                     ["june", "jun", "junio", "juin", "juni"], ["july", "jul", "julio", "juillet", "juli"],
                     ["august", "aug", "agosto", "août", "aout"], ["september", "sep", "sept", "septiembre", "septembre"],
                     ["october", "oct", "octubre", "octobre", "oktober"], ["november", "nov", "noviembre", "novembre"],
                     ["december", "dec", "diciembre", "décembre", "decembre", "dezember"]]
        for (month, words) in names.enumerated() { for word in words { table[word] = month + 1 } }
        return table
    }()

    static let counts: [String: Int] = ["a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                                        "eight": 8, "nine": 9, "ten": 10, "un": 1, "una": 1, "une": 1, "dos": 2, "deux": 2, "tres": 3, "trois": 3]

    // MARK: Helpers

    /// Lower-cased runs of letters and digits; everything else separates words.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    static func number(_ word: String) -> Int? {
        if let value = Int(word), (1...31).contains(value) { return value }
        return ordinal(word)
    }

    /// "1st", "22nd", "3rd", "26th".
    static func ordinal(_ word: String) -> Int? {
        guard word.count >= 3, ["st", "nd", "rd", "th"].contains(String(word.suffix(2))), let value = Int(word.dropLast(2)),
              (1...31).contains(value) else { return nil }
        return value
    }

    static func count(_ word: String) -> Int? {
        if let value = Int(word), (1...400).contains(value) { return value }
        return counts[word]
    }

    /// The date with this month and day nearest after `created` minus half a year (a note
    /// written on Dec 28 about "Jan 3" means next year's), or in `year` when the note says it.
    static func date(month: Int, day: Int, near created: Int64, year: Int?) -> Int64 {
        if let year, (1970...2200).contains(year) { return Timestamp.days(fromCivil: year, month, day) }
        let createdYear = Timestamp.civil(fromDays: created).year
        let thisYear = Timestamp.days(fromCivil: createdYear, month, day)
        return thisYear < created - 183 ? Timestamp.days(fromCivil: createdYear + 1, month, day) : thisYear
    }

    /// "the 1st": that day of the month the note was written in, or of the next month once passed.
    static func dayOfMonth(_ day: Int, onOrAfter created: Int64) -> Int64 {
        let (year, month, today) = Timestamp.civil(fromDays: created)
        if day >= today { return Timestamp.days(fromCivil: year, month, day) }
        return month == 12 ? Timestamp.days(fromCivil: year + 1, 1, day) : Timestamp.days(fromCivil: year, month + 1, day)
    }

    /// "12月20日".
    static func japaneseDates(_ text: String, created: Int64) -> [Int64] {
        var found: [Int64] = []
        let characters = Array(text)
        var index = 0
        func digits() -> Int? {
            var value = 0, seen = 0
            while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII {
                value = value * 10 + digit
                seen += 1
                index += 1
            }
            return seen > 0 ? value : nil
        }
        while index < characters.count {
            guard characters[index].isASCII, characters[index].isNumber else { index += 1; continue }
            if let month = digits(), index < characters.count, characters[index] == "月" {
                index += 1
                if let day = digits(), index < characters.count, characters[index] == "日", (1...12).contains(month), (1...31).contains(day) {
                    found.append(date(month: month, day: day, near: created, year: nil))
                }
            }
            index += 1
        }
        return found
    }
}

extension Int64 {
    fileprivate func floorMod(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
