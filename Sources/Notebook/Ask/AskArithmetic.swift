// Arithmetic by code for `notes ask`: the model picks what to add up or count, among what the
// tools showed it, and code computes. A small model writes "120 + 45 + 780 = 945" for a total
// of two notes, and "2" for three migraines it has just been shown.
import AI
import Analysis
import Notes

/// An amount a note states: a number with its unit ("240 euros", "£120", "5 km").
struct AskAmount: Equatable, Sendable {
    var handle: String
    var value: Double
    /// The canonical unit ("euros", "pounds", "km"...), what amounts are added up by.
    var unit: String
    /// As the note writes it.
    var text: String

    /// What the model chooses: `N1: 240 euros`.
    var choice: String { handle + ": " + text }

    /// Words and signs that make a number an amount, by their canonical unit. A number without
    /// one (a day, a time, a room number) is not offered for adding up.
    static let units: [String: String] = {
        var units: [String: String] = [:]
        let groups: [String: [String]] = [
            "euros": ["euro", "euros", "eur", "€", "ευρώ", "euroa", "euroja"],
            "pounds": ["pound", "pounds", "gbp", "£", "quid"],
            "dollars": ["dollar", "dollars", "usd", "$"],
            "złoty": ["zł", "zl", "pln", "złoty", "złotych", "zlotys"],
            "km": ["km", "kilometre", "kilometres", "kilometer", "kilometers", "χλμ", "kilometriä"],
            "miles": ["mile", "miles"],
            "kg": ["kg", "kilo", "kilos", "κιλά"],
            "hours": ["hour", "hours", "hrs", "h", "ώρες", "tuntia"],
            "minutes": ["minute", "minutes", "min", "mins", "λεπτά", "minuuttia"],
        ]
        for (unit, words) in groups { for word in words { units[word] = unit } }
        return units
    }()

    static let symbols: [Character: String] = ["€": "euros", "£": "pounds", "$": "dollars"]

    /// What a unit measures: amounts of one kind can be given side by side (euros and pounds),
    /// of two kinds never (the small model adds a parking permit's 84 euros to a 5 km run).
    static let kinds: [String: String] = ["euros": "money", "pounds": "money", "dollars": "money", "złoty": "money",
                                          "km": "distance", "miles": "distance", "kg": "weight", "hours": "time", "minutes": "time"]

    /// The amounts `text` states, in order, each once.
    static func amounts(in text: String, handle: String) -> [AskAmount] {
        let tokens = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var found: [AskAmount] = []
        for (index, raw) in tokens.enumerated() {
            var token = Substring(trimmed(Substring(raw)))
            var unit: String?
            if let first = token.first, let symbol = symbols[first] { unit = symbol; token = token.dropFirst() }
            if let last = token.last, let symbol = symbols[last] { unit = symbol; token = token.dropLast() }
            guard let value = number(token) else { continue }
            var text = trimmed(Substring(raw))
            if unit == nil, index + 1 < tokens.count {
                let next = trimmed(Substring(tokens[index + 1]))
                if let named = units[next.lowercased()] {
                    unit = named
                    text += " " + next
                }
            }
            guard let unit else { continue }
            let amount = AskAmount(handle: handle, value: value, unit: unit, text: text)
            if !found.contains(where: { $0.text == amount.text }) { found.append(amount) }
        }
        return found
    }

    /// The token without the punctuation around it.
    static func trimmed(_ token: Substring) -> String {
        var token = token
        while let last = token.last, ",.;:!?)\"'".contains(last) { token = token.dropLast() }
        while let first = token.first, "(\"'".contains(first) { token = token.dropFirst() }
        return String(token)
    }

    /// "240", "4.6", "23,5" (a decimal comma), "1,150" and "1.150" (thousands); nil for anything
    /// else (a time "26:40", a code "KX-5521", a room "14C").
    static func number(_ token: Substring) -> Double? {
        guard let first = token.first, first.isASCII, first.isNumber,
              token.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," }) else { return nil }
        let parts = token.split(separator: ",", omittingEmptySubsequences: false).flatMap { $0.split(separator: ".", omittingEmptySubsequences: false) }
        guard parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        if parts.count == 1 { return Double(token) }
        // Groups of three after the first: thousands. One separator before one or two digits: a decimal.
        if parts.dropFirst().allSatisfy({ $0.count == 3 }) && parts.count > 2 || (parts.count == 2 && parts[1].count == 3 && token.contains(",")) {
            return Double(parts.joined())
        }
        guard parts.count == 2 else { return nil }
        return Double(parts[0] + "." + parts[1])
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        var text = String(rounded)
        if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 3 { text = String(text[..<text.index(dot, offsetBy: 3)]) }
        return text
    }
}

/// A total or a count code made in this request, which the answer must state (or it is replaced).
struct AskResult: Equatable, Sendable {
    /// The figure alone ("295", "3").
    var figure: String
    /// The answer that states it, should the model's not.
    var statement: String
    /// The notes it was made from, in order.
    var handles: [String]
    /// Whether the model was asked of each of those notes on its own whether it is about what is
    /// counted (`AskJudge`).
    var askedOfEachNote = false
    /// What the tool told the model beside the statement ("37 weeks and 5 days"): code's
    /// figures too, which an answer may state.
    var output = ""

    static let numberWords = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]

    /// Whether `text` states `figure`: as a number (with or without thousands' separators), or
    /// a small whole one as an English word.
    static func states(_ figure: String, _ text: String) -> Bool {
        let runs = text.split { !$0.isNumber && $0 != "," && $0 != "." }.map { AskAmount.number(Substring(AskAmount.trimmed($0))) }
        if let value = Double(figure), runs.contains(where: { $0 == value }) { return true }
        guard let whole = Int(figure), whole < numberWords.count else { return false }
        return AskText.wordList(text).contains(numberWords[whole]) || (whole < 3 && text.lowercased().split(separator: " ").contains(Substring(numberWords[whole])))
    }
}

/// The amounts the model picks for a total, as the choices were written: each names its note by
/// title as well as by handle (given handles alone, a small model picked one and stopped).
struct AskPicks: ConvertibleFromGeneratedContent {
    var picked: [String]
    init(_ content: GeneratedContent) throws(GenerationDecodingError) { picked = try content.value(forProperty: "items") }
}

struct AddUpTool: Tool {
    let notebook: AskNotebook
    let sources: AskSources
    let name = "add_up"
    let description = "Adds up amounts the notes state, for a total: give each amount to add; returns the total."

    /// Offered when the notes shown in this request state two amounts or more.
    var isOffered: Bool { sources.amounts.count >= 2 }

    /// Whether `question` asks for a total in so many words ("together", "in total", "yhteensä",
    /// "razem", "συνολικά"): then the total is code's, and the model calls this tool before it
    /// may answer (it wrote "1255 pounds" for a cottage of 620 and a train of 140, adding itself).
    static func isAskedFor(in question: String) -> Bool { AskText.says(any: totalWords, Deadlines.key(question)) }

    static let totalWords: [String] = [
        "total", "together", "altogether", "combined", "in all", "all told",
        "συνολικά", "σύνολο", "μαζί", "yhteensä", "razem", "łącznie", "insgesamt", "zusammen", "au total", "ensemble",
        "en total", "juntos", "in totale", "insieme", "no total", "ao todo", "totaal", "samen", "totalt", "tillsammans",
        "spolu", "celkom", "celkem", "dohromady", "tổng cộng",
    ].map(Deadlines.key)

    func choice(_ amount: AskAmount) -> String { amount.handle + " " + sources.title(amount.handle) + ": " + amount.text }

    var parameters: GenerationSchema {
        let choices = sources.amounts.map(choice)
        return .object("AddUp", properties: [
            .init("items", description: "the amounts to add, each with its note",
                  .array(of: choices.isEmpty ? .string(pattern: "N[1-9][0-9]{0,2} [^\"]{1,40}") : .string(anyOf: choices),
                         minimumCount: 2, maximumCount: 12)),
        ])
    }

    func call(arguments: AskPicks) async throws -> String {
        let shown = sources.amounts
        var picked: [AskAmount] = []
        for choice in arguments.picked {
            guard let amount = shown.first(where: { self.choice($0) == choice }) else { return "No note shown in this question states \"\(choice)\"." }
            if !picked.contains(amount) { picked.append(amount) }
        }
        // A total "last month" is of the notes written then, whatever else the model picked.
        var left = ""
        if let period = sources.period {
            var inside: [AskAmount] = []
            var outside: [String] = []
            for amount in picked {
                let day = try notebook.note(shownAs: amount.handle, in: sources)?.created.day ?? ""
                if period.contains(day) { inside.append(amount) } else { outside.append(amount.text + " (" + sources.title(amount.handle) + ", " + day + ")") }
            }
            picked = inside
            if !outside.isEmpty { left = " Not added, written at another time than " + period.description + ": " + outside.joined(separator: ", ") + "." }
        }
        guard picked.count >= 2 else {
            return (picked.isEmpty ? "Nothing to add." : "Only one amount: " + picked[0].text + " (" + sources.title(picked[0].handle) + ").") + left
        }
        var units: [String] = []
        for amount in picked where !units.contains(amount.unit) { units.append(amount.unit) }
        guard Set(units.map { AskAmount.kinds[$0] ?? $0 }).count == 1 else {
            return "Not added: " + picked.map { $0.text + " (" + sources.title($0.handle) + ")" }.joined(separator: ", ")
                + " measure different things. A total adds amounts of one kind." + left
        }
        let sums = units.map { unit in picked.filter { $0.unit == unit }.reduce(0) { $0 + $1.value } }
        let total = zip(sums, units).map { AskAmount.format($0) + " " + $1 }.joined(separator: " and ")
        let terms = picked.map { $0.text + " (" + sources.title($0.handle) + ")" }.joined(separator: " + ")
        var handles: [String] = []
        for amount in picked where !handles.contains(amount.handle) { handles.append(amount.handle) }
        sources.record(AskResult(figure: AskAmount.format(sums[0]), statement: total + " " + sources.language.inAll + ": " + terms + ".", handles: handles))
        let mixed = units.count > 1 ? " (in different units, so not added into one)" : ""
        return "Total: " + total + mixed + ", from " + terms + "." + left
    }
}

struct CountNotesTool: Tool {
    struct Arguments: Generable {
        var what: String
        static let generationSchema = GenerationSchema.object("CountNotes", properties: [
            .init("what", description: "what is counted, in a few words, without the time (\"runs\", \"blood donations\")", .string(minLength: 1, maxLength: 60)),
        ])
        init(_ content: GeneratedContent) throws(GenerationDecodingError) { what = try content.value(forProperty: "what") }
    }

    let notebook: AskNotebook
    let sources: AskSources
    let judge: AskJudge
    let name = "count_notes"
    let description = "Counts the notes that tell of something (how many times, how often): say what is counted; returns how many, in the time the question names."

    /// The notes the search for what is counted adds, at most (each is then asked about: about
    /// a second each).
    static let notesSearched = 10

    /// Offered for a question that asks how many times, once notes are shown.
    var isOffered: Bool { !sources.citable.isEmpty && Self.isAskedFor(in: sources.question) }

    /// Whether `question` asks how many times or how often ("how many runs did I do", "kuinka
    /// monta kertaa", "ile razy", "πόσες φορές"): then the count is code's, and the model calls this
    /// tool before it may answer (left to itself it answered "2" for three blood donations). "How
    /// many" before a unit ("how many km", "how many hours") asks for a total, not a count.
    static func isAskedFor(in question: String) -> Bool {
        let key = Deadlines.key(question)
        if AskText.says(any: countWords, key) { return true }
        // "How many days ago did I...": a span of days (`CountDaysTool`), not a count.
        if CountDaysTool.asksForASpan(question) { return false }
        let words = key.split(separator: " ").map(String.init)
        guard let many = words.indices.first(where: { words[$0] == "many" && $0 > 0 && words[$0 - 1] == "how" }),
              many + 1 < words.count, AskAmount.units[words[many + 1]] == nil else { return false }
        // "How many X did I / have we / do I ...": the user's own times.
        return AskText.says(any: ["did i", "did we", "have i", "have we", "do i", "do we", "had i", "had we"], words[(many + 1)...].joined(separator: " "))
    }

    static let countWords: [String] = [
        "how many times", "how often", "kuinka monta kertaa", "montako kertaa", "kuinka usein", "ile razy", "jak często",
        "πόσες φορές", "πόσο συχνά", "wie oft", "wie viele male", "combien de fois", "cuántas veces", "quante volte",
        "quantas vezes", "hoe vaak", "hur många gånger", "hur ofta", "koľkokrát", "kolikrát", "bao nhiêu lần",
    ].map(Deadlines.key)

    /// The notes shown in this request that were written in the time the question names are
    /// put to the model one at a time (`AskJudge`); code counts the ones it says tell of it.
    func call(arguments: Arguments) async throws -> String {
        // The model's search shows five notes; a count needs every one, so what is counted is
        // searched for too (three runs in a month, one of them past the first five).
        let what = AskPeriod.withoutTime(arguments.what)
        try notebook.show(searchFor: what, limit: Self.notesSearched, in: sources)
        let period = sources.period
        var inside: [(handle: String, note: Note)] = []
        var left: [String] = []
        for handle in sources.citable {
            guard let note = try notebook.note(shownAs: handle, in: sources) else { continue }
            if period?.contains(note.created.day) ?? true {
                inside.append((handle, note))
            } else {
                left.append(handle + " " + AskText.quoted(note.title) + " (" + note.created.day + ")")
            }
        }
        let counted = try await judge.notes(inside, about: what, question: sources.question)
        let kept = inside.filter { counted.contains($0.handle) }
        let when = period.map { " written " + $0.description } ?? ""
        var output = "\(kept.count) note\(kept.count == 1 ? "" : "s")\(when)"
        output += kept.isEmpty ? "." : ": " + kept.map { "\($0.handle) \(AskText.quoted($0.note.title)) (\($0.note.created.day))" }.joined(separator: ", ") + "."
        let notCounted = inside.filter { !counted.contains($0.handle) }.map { $0.handle + " " + AskText.quoted($0.note.title) }
        if !notCounted.isEmpty { output += " Not of it: " + notCounted.joined(separator: ", ") + "." }
        if !left.isEmpty { output += " Not counted, written at another time: " + left.joined(separator: ", ") + "." }
        // The period's name is English's ("in November"); in another language the titles say when.
        let language = sources.language
        let named = language == .english ? period.map { " " + $0.name } ?? "" : ""
        // A title that ends a sentence of its own ("Run: 5 km.") loses its stop in the list.
        let titles = kept.map { AskAmount.trimmed(Substring($0.note.title)) }
        let statement = language.times(kept.count) + named + (kept.isEmpty ? "." : ": " + titles.joined(separator: ", ") + ".")
        sources.record(AskResult(figure: String(kept.count), statement: statement, handles: kept.map(\.handle), askedOfEachNote: true, output: output))
        return output
    }
}

/// A calendar day a note shown states, for counting the days to it or since it.
struct AskDay: Equatable, Sendable {
    var handle: String
    /// Days since 1970-01-01.
    var day: Int64
    /// The note's title and what was shown of it.
    var shown: String

    var time: Timestamp { Timestamp(daysSince1970: day) }
    /// `22 Feb 2027`.
    var text: String { AskText.spelledDay(time) }
}

/// "How long until the driving test?", "how many days ago did I give blood?": the model picks
/// the day a note states, code counts the days from today (a small model counts them wrong).
struct CountDaysTool: Tool {
    struct Arguments: ConvertibleFromGeneratedContent {
        var day: String
        init(_ content: GeneratedContent) throws(GenerationDecodingError) { day = try content.value(forProperty: "day") }
    }

    let notebook: AskNotebook
    let sources: AskSources
    let name = "count_days"
    let description = "Counts the days from today to a day a note states, or since it."

    /// Offered for a question that asks how long until or since, once the notes shown state a day.
    var isOffered: Bool { !sources.days.isEmpty && Self.isAskedFor(in: sources.question) }

    /// Whether `question` asks how many days or weeks until or since ("how long until", "how
    /// many days ago", "kuinka monta päivää", "ile dni", "πόσες μέρες"): then the count of days is
    /// code's, and the model calls this tool before it may answer. "How many days" alone, in a
    /// question that asks how many times ("how many days did I run?"), counts notes instead.
    static func isAskedFor(in question: String) -> Bool {
        asksForASpan(question) || (AskText.says(any: daysWords, Deadlines.key(question)) && !CountNotesTool.isAskedFor(in: question))
    }

    /// Whether `question` says until or since in so many words ("how long until", "days ago",
    /// "jak dawno", "πόσο μένει"): a span of days whatever else it asks.
    static func asksForASpan(_ question: String) -> Bool { AskText.says(any: spanWords, Deadlines.key(question)) }

    static let spanWords: [String] = [
        "how long until", "how long till", "how long before", "how long ago", "how long since", "how long has it been", "how soon",
        "days until", "days till", "days left", "days ago", "days since", "days to go", "days before", "weeks until", "weeks till",
        "weeks left", "weeks ago", "weeks since", "πόσο καιρό", "πόσο μένει", "πόσο απέχει", "kuinka kauan", "kauanko", "jak dawno",
        "ile zostało", "dni temu", "tygodni temu", "wie lange noch", "wie lange ist es her", "in wie vielen tagen", "dans combien de temps",
        "il y a combien", "depuis combien de temps", "cuánto falta", "hace cuánto", "quanto manca", "quanto tempo fa", "quanto falta",
        "há quanto tempo", "hoe lang nog", "hoe lang geleden", "hur länge till", "hur länge sedan", "bao lâu nữa",
    ].map(Deadlines.key)

    static let daysWords: [String] = [
        "how many days", "how many weeks", "πόσες μέρες", "πόσες ημέρες", "πόσες εβδομάδες", "kuinka monta päivää", "montako päivää",
        "monta päivää", "kuinka monta viikkoa", "montako viikkoa", "ile dni", "ile tygodni", "wie viele tage", "wie viele wochen",
        "combien de jours", "combien de semaines", "cuántos días", "cuántas semanas", "quanti giorni", "quante settimane", "quantos dias",
        "quantas semanas", "hoeveel dagen", "hoeveel weken", "hur många dagar", "hur många veckor", "koľko dní", "koľko týždňov",
        "kolik dní", "kolik dnů", "kolik týdnů", "bao nhiêu ngày", "mấy ngày",
    ].map(Deadlines.key)

    func choice(_ day: AskDay) -> String { day.handle + " " + sources.title(day.handle) + ": " + day.text }

    /// The days the model chooses among: those of the notes shown that hold the most of the
    /// question's words for what it asks about ("driving test"), or every day shown when no
    /// note holds one (a question in other words than its note's). Offered every day shown, the
    /// small model picked the last one listed: "How long until my driving test?" was counted to
    /// the dentist's.
    var offered: [AskDay] {
        let days = sources.days
        let same = sources.language.endsNamesByCase ? AskCheck.sameCasedWord : AskCheck.sameWord
        let asked = AskCheck.subjectWords(sources.question).filter { !AskCheck.isQuestionWord($0) }
        func held(_ day: AskDay) -> Int {
            let words = AskText.wordList(day.shown)
            return asked.count { word in words.contains { same(word, $0) } }
        }
        let most = days.map(held).max() ?? 0
        return most == 0 ? days : days.filter { held($0) == most }
    }

    var parameters: GenerationSchema {
        let choices = offered.map(choice)
        return .object("CountDays", properties: [
            .init("day", description: "the day, with its note",
                  choices.isEmpty ? .string(pattern: "N[1-9][0-9]{0,2} [^\"]{1,40}") : .string(anyOf: choices)),
        ])
    }

    func call(arguments: Arguments) async throws -> String {
        guard let picked = offered.first(where: { choice($0) == arguments.day }) else {
            return "No note shown in this question states \"\(arguments.day)\"."
        }
        let days = Int(picked.day - notebook.now.daysSince1970)
        let title = AskAmount.trimmed(Substring(sources.title(picked.handle)))
        let weekday = NoteReader.weekdayName(picked.time)
        let weeks = abs(days) >= 14 ? " (\(abs(days) / 7) weeks" + (abs(days) % 7 == 0 ? "" : " and \(abs(days) % 7) days") + ")" : ""
        let span = days == 0 ? "is today" : days > 0 ? "is in \(days) day\(days == 1 ? "" : "s")\(weeks)" : "was \(-days) day\(days == -1 ? "" : "s") ago\(weeks)"
        let language = sources.language
        let written = language == .english ? picked.text : picked.time.day
        let output = "\(picked.text), a \(weekday) (\(title)), \(span)."
        sources.record(AskResult(figure: String(abs(days)), statement: language.daysFromToday(days) + ": " + written + " (" + title + ").",
                                 handles: [picked.handle], output: output))
        return output
    }
}

/// A span of days a count is held to, named as the model chooses it, computed from today.
struct AskPeriod: Sendable {
    static let anyTime = "any time"
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let names = [anyTime, "today", "this week", "last week", "this month", "last month", "this year", "last year"]
        + monthNames.map { "in " + $0 }

    var name: String
    /// First and last day, `YYYY-MM-DD`, both included; nil for any time.
    var days: (first: String, last: String)?

    init?(_ name: String, now: Timestamp) {
        self.name = name
        let today = now.day
        let year = Int(today.prefix(4))!, month = Int(today.dropFirst(5).prefix(2))!
        func monthSpan(_ year: Int, _ month: Int) -> (String, String) {
            let prefix = AskPeriod.fourDigits(year) + "-" + (month < 10 ? "0" : "") + String(month) + "-"
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return (prefix + "01", prefix + String([31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]))
        }
        func day(_ offset: Int) -> String { now.adding(days: offset).day }
        switch name {
        case Self.anyTime: days = nil
        case "today": days = (today, today)
        case "this week", "last week":
            let monday = -(Self.weekdayIndex(now))
            let start = name == "this week" ? monday : monday - 7
            days = (day(start), day(start + 6))
        case "this month": days = monthSpan(year, month)
        case "last month": days = month == 1 ? monthSpan(year - 1, 12) : monthSpan(year, month - 1)
        case "this year": days = (AskPeriod.fourDigits(year) + "-01-01", AskPeriod.fourDigits(year) + "-12-31")
        case "last year": days = (AskPeriod.fourDigits(year - 1) + "-01-01", AskPeriod.fourDigits(year - 1) + "-12-31")
        default:
            guard name.hasPrefix("in "), let index = Self.monthNames.firstIndex(of: String(name.dropFirst(3))) else { return nil }
            // The latest such month that has begun.
            days = monthSpan(index + 1 <= month ? year : year - 1, index + 1)
        }
    }

    func contains(_ day: String) -> Bool {
        guard let days else { return true }
        return day >= days.first && day <= days.last
    }

    var description: String {
        guard let days else { return Self.anyTime }
        return name + " (" + days.first + " to " + days.last + ")"
    }

    /// The time a question names ("last month", "in November", "this year"), if it names one,
    /// in English or in another language notes reads ("viime kuussa", "w tym roku", "φέτος").
    static func named(in question: String, now: Timestamp) -> AskPeriod? {
        let words = question.lowercased().split { !$0.isLetter }.map(String.init)
        let text = " " + words.joined(separator: " ") + " "
        for name in names.dropFirst() where text.contains(" " + name.lowercased() + " ") { return AskPeriod(name, now: now) }
        let key = " " + Deadlines.key(question) + " "
        for (name, phrases) in otherLanguagesNames where phrases.contains(where: { key.contains(" " + $0 + " ") }) { return AskPeriod(name, now: now) }
        // A month named alone ("my November runs"); not "may", which is mostly the verb.
        for (index, month) in monthNames.enumerated() where month != "May" && words.contains(month.lowercased()) {
            return AskPeriod("in " + monthNames[index], now: now)
        }
        for word in words {
            if let month = monthInOtherLanguages(word) { return AskPeriod("in " + monthNames[month - 1], now: now) }
        }
        return nil
    }

    /// `text` without the words that name a time ("jogging last month" is "jogging"): what is
    /// counted, for the model asked about each note, which says "no" to a run's note asked
    /// whether it is about jogging last month. Unchanged when nothing else would be left.
    static func withoutTime(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let keys = words.map(Deadlines.key)
        let phrases = Set(names.dropFirst().map(Deadlines.key) + otherLanguagesNames.flatMap(\.1))
        var kept: [String] = []
        var index = 0
        while index < words.count {
            if let length = (1...3).reversed().first(where: { index + $0 <= words.count && phrases.contains(keys[index..<index + $0].joined(separator: " ")) }) {
                index += length
            } else {
                if monthInOtherLanguages(words[index]) == nil && !monthNames.contains(where: { $0.lowercased() == keys[index] }) {
                    kept.append(words[index])
                } else if let last = kept.last, ["in", "w", "we", "τον", "im", "en"].contains(Deadlines.key(last)) {
                    kept.removeLast()
                }
                index += 1
            }
        }
        return kept.isEmpty ? text : kept.joined(separator: " ")
    }

    /// The names' words in the other languages a question is read in, as `Deadlines.key` spells
    /// them (Greek without accents), by the English name.
    static let otherLanguagesNames: [(String, [String])] = [
        ("today", ["tänään", "dzisiaj", "dziś", "σήμερα", "heute", "aujourd hui", "hoy", "oggi", "vandaag", "idag"]),
        ("this week", ["tällä viikolla", "w tym tygodniu", "αυτή την εβδομάδα", "αυτήν την εβδομάδα", "diese woche", "cette semaine", "esta semana",
                       "questa settimana", "deze week"]),
        ("last week", ["viime viikolla", "w zeszłym tygodniu", "w ubiegłym tygodniu", "w poprzednim tygodniu", "την περασμένη εβδομάδα",
                       "την προηγούμενη εβδομάδα", "letzte woche", "letzten woche", "la semaine dernière", "la semana pasada", "la settimana scorsa",
                       "vorige week"]),
        ("this month", ["tässä kuussa", "tämän kuun", "w tym miesiącu", "αυτόν τον μήνα", "αυτό τον μήνα", "diesen monat", "ce mois", "este mes",
                        "questo mese", "deze maand"]),
        ("last month", ["viime kuussa", "viime kuun", "w zeszłym miesiącu", "w ubiegłym miesiącu", "w poprzednim miesiącu", "τον περασμένο μήνα",
                        "τον προηγούμενο μήνα", "letzten monat", "le mois dernier", "el mes pasado", "il mese scorso", "vorige maand"]),
        ("this year", ["tänä vuonna", "tämän vuoden", "w tym roku", "φέτος", "dieses jahr", "cette année", "este año", "quest anno", "dit jaar", "i år"]),
        ("last year", ["viime vuonna", "w zeszłym roku", "w ubiegłym roku", "w poprzednim roku", "πέρσι", "πέρυσι", "letztes jahr", "l année dernière",
                       "el año pasado", "l anno scorso", "vorig jaar", "i fjol"]),
    ].map { ($0.0, $0.1.map(Deadlines.key)) }

    /// The month a word of another language names as a question says "in November": a date's
    /// spelling of five letters or more (not an abbreviation, "mar", nor a word that is also
    /// another, "maja"), a Finnish month in any case, or a Polish or Greek one in the case "in"
    /// takes ("w listopadzie", "τον Νοέμβριο"). Not "marca", also Spanish for a brand.
    static func monthInOtherLanguages(_ word: String) -> Int? {
        let key = Deadlines.key(word)
        if let month = inMonthForms[key] { return month }
        return key.count >= 5 && key != "marca" ? Deadlines.month(named: word) : nil
    }

    static let inMonthForms: [String: Int] = {
        let forms = [
            ["styczniu", "ιανουαριο"], ["lutym", "φεβρουαριο"], ["marcu", "μαρτιο"], ["kwietniu", "απριλιο"], ["maju", "μαιο"], ["czerwcu", "ιουνιο"],
            ["lipcu", "ιουλιο"], ["sierpniu", "αυγουστο"], ["wrześniu", "σεπτεμβριο"], ["październiku", "οκτωβριο"], ["listopadzie", "νοεμβριο"],
            ["grudniu", "δεκεμβριο"],
        ]
        var table: [String: Int] = [:]
        for (index, words) in forms.enumerated() { for word in words { table[Deadlines.key(word)] = index + 1 } }
        return table
    }()

    static func fourDigits(_ year: Int) -> String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Monday 0 ... Sunday 6.
    static func weekdayIndex(_ time: Timestamp) -> Int {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].firstIndex(of: NoteReader.weekdayName(time)) ?? 0
    }
}
