// Deadlines a note names ("tomorrow", "Friday", "Dec 20", "the 1st", "in 3 days"), read by date
// arithmetic. A model of this size cannot count days between dates, so the analyzer does it and
// turns the nearest deadline into the urgency the instructions describe. Words and dates of
// the domain, in 12 languages, with no model: here in Notes, beside the other date rules.

public struct DeadlineReading: Equatable, Sendable {
    /// Days from Today to the nearest deadline (0: today, negative: passed); nil when the note
    /// names no date at or after its creation, or when that date passed more than
    /// `Deadlines.forgottenAfterDays` ago (the note is history, not a fire).
    public var daysLeft: Int?
    /// The note says it is pressing: "urgent", "asap", "overdue", "was due", "emergency".
    public var isPressing: Bool

    public init(daysLeft: Int?, isPressing: Bool) {
        self.daysLeft = daysLeft
        self.isPressing = isPressing
    }
}

public enum Deadlines {
    public static let forgottenAfterDays = 14

    /// The urgency scale of the instructions: 5 due today, overdue or pressing; 4 due in 1 to 3
    /// days; 3 in 4 to 14 days; 2 later, or something to do with no date; 1 nothing to do.
    public static func urgency(_ reading: DeadlineReading, hasTasks: Bool) -> Int {
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
    public static func read(_ text: String, created: Int64, today: Int64) -> DeadlineReading {
        let (candidates, isPressing) = scan(text, created: created)
        // A date before the note was written is something that happened, not a deadline.
        guard let nearest = candidates.filter({ $0 >= created }).min() else { return DeadlineReading(daysLeft: nil, isPressing: isPressing) }
        let days = Int(nearest - today)
        return DeadlineReading(daysLeft: days < -forgottenAfterDays ? nil : days, isPressing: isPressing)
    }

    /// Every day `text`, written on the day `created`, names: by date, and by words that count
    /// from `created` ("tomorrow", "Friday", "in 3 days"), in days since 1970-01-01, each once.
    public static func days(in text: String, created: Int64) -> [Int64] {
        var seen = Set<Int64>()
        return scan(text, created: created).days.filter { seen.insert($0).inserted }
    }

    /// The days `text` names, relative words counted from `created`, and whether it says it is pressing.
    private static func scan(_ text: String, created: Int64) -> (days: [Int64], isPressing: Bool) {
        let words = self.words(text)
        var isPressing = false
        var candidates: [Int64] = []
        // Monday = 0.
        let weekday = Int((created + 3).floorMod(7))
        var index = 0
        while index < words.count {
            if let (meaning, length) = phrase(at: index, in: words) {
                switch meaning {
                case .pressing: isPressing = true
                case .daysAfter(let days): candidates.append(created + days)
                // "This week" ends on Friday, or at once when the note is written at the weekend.
                case .endOfWeek: candidates.append(created + Int64(max(0, 4 - weekday)))
                case .weekend: candidates.append(created + Int64(max(0, 5 - weekday)))
                case .weekday(let day, let alsoOrdinal):
                    // "segunda vez", "τρίτη φορά", "lần thứ hai": the second or third time, not a day.
                    if alsoOrdinal && (ordinalNounsBefore.contains(words.at(index - 1)) || ordinalNounsAfter.contains(words.at(index + length))) { break }
                    // The next such day after the note was written; "next Friday" the same.
                    let ahead = (day - weekday + 7) % 7
                    candidates.append(created + Int64(ahead == 0 ? 7 : ahead))
                case .notADate: break
                }
                index += length
            } else if let (day, length) = date(at: index, in: words, created: created) ?? span(at: index, in: words, created: created) {
                candidates.append(day)
                index += length
            } else {
                index += 1
            }
        }
        let japanese = japaneseWords(text, created: created, weekday: weekday)
        candidates += japaneseDates(text, created: created) + japanese.days
        isPressing = isPressing || japanese.isPressing
        candidates += numericDates(text, created: created)
        return (candidates, isPressing)
    }

    /// The calendar days `text` names by date ("22 February", "Dec 20", "2026-11-27", "3.2.2027",
    /// "20 de diciembre"), in days since 1970-01-01, each once, in order (dates in words first);
    /// a date without its year is the one nearest the note's day `created`, as for a deadline.
    /// Words that name a day relative to the note ("tomorrow", "Friday", "in 3 days") are left
    /// out: they count from a day the reader of the note may not know.
    public static func calendarDates(in text: String, created: Int64) -> [Int64] {
        let words = self.words(text)
        var found: [Int64] = []
        var index = 0
        while index < words.count {
            if let (day, length) = date(at: index, in: words, created: created) {
                found.append(day)
                index += length
            } else {
                index += 1
            }
        }
        found += numericDates(text, created: created) + japaneseDates(text, created: created)
        var seen = Set<Int64>()
        return found.filter { seen.insert($0).inserted }
    }

    /// The phrase of the tables that starts at `index`, and how many words it takes. The longest
    /// wins, so "pasado mañana" is not read as "mañana" too, nor "guten Morgen" as "morgen".
    static func phrase(at index: Int, in words: [String]) -> (Meaning, Int)? {
        guard let entries = phrases[words[index]] else { return nil }
        for entry in entries where words[index...].starts(with: entry.words) { return (entry.meaning, entry.words.count) }
        return nil
    }

    /// The calendar date that starts at `index`, and how many words it takes: "20 December 2026",
    /// "20 de diciembre", "Dec 20", "2026-11-27", "ngày 20 tháng 12", "the 1st", "le 20", "dia 20".
    static func date(at index: Int, in words: [String], created: Int64) -> (Int64, Int)? {
        let word = words[index], next = words.at(index + 1)
        func validYear(_ position: Int) -> Int? {
            guard let year = Int(words.at(position)), (1970...2200).contains(year) else { return nil }
            return year
        }
        if let day = number(word) {
            if let month = months[next] {
                let year = validYear(index + 2)
                return (date(month: month, day: day, near: created, year: year), year == nil ? 2 : 3)
            }
            if next == "de" || next == "of", let month = months[words.at(index + 2)] {
                // "20 de diciembre de 2026", "the 3rd of March 2027".
                let yearAt = words.at(index + 3) == "de" ? index + 4 : index + 3
                let year = validYear(yearAt)
                return (date(month: month, day: day, near: created, year: year), year == nil ? 3 : yearAt + 1 - index)
            }
            if next == "tháng", let month = Int(words.at(index + 2)), (1...12).contains(month) {
                // "20 tháng 12 năm 2026".
                let year = words.at(index + 3) == "năm" ? validYear(index + 4) : nil
                return (date(month: month, day: day, near: created, year: year), year == nil ? 3 : 5)
            }
            let previous = words.at(index - 1)
            // "the 20" is more often a count than a date; "le 20", "dia 20" are dates.
            if previous == "the" ? ordinal(word) != nil : dayMarkers.contains(previous) {
                return (dayOfMonth(day, onOrAfter: created), 1)
            }
            return nil
        }
        if let month = months[word], let day = number(next) {
            let year = validYear(index + 2)
            return (date(month: month, day: day, near: created, year: year), year == nil ? 2 : 3)
        }
        if word.count == 4, let year = validYear(index), let month = Int(next), (1...12).contains(month),
           let day = Int(words.at(index + 2)), (1...31).contains(day) {
            return (Timestamp.days(fromCivil: year, month, day), 3)
        }
        return nil
    }

    /// The day a count of days, weeks or months from the note's day names, starting at `index`,
    /// and how many words it takes: "in 3 days", "dentro de 2 semanas", "3 päivän päästä", "3 ngày nữa".
    static func span(at index: Int, in words: [String], created: Int64) -> (Int64, Int)? {
        guard let count = count(words[index]) else { return nil }
        let previous = words.at(index - 1), next = words.at(index + 1)
        if let unit = (countBefore[previous] ?? countBefore[words.at(index - 2) + " " + previous])?[next] {
            return (created + Int64(count) * unit, 2)
        }
        if let unit = countAfter[words.at(index + 2)]?[next] { return (created + Int64(count) * unit, 3) }
        return nil
    }

    // MARK: Vocabulary
    // English, Spanish, French, German, Portuguese, Italian, Dutch, Polish, Slovak, Finnish, Greek,
    // Vietnamese, Swedish, Czech, Turkish and Romanian (every language of the labelled notes), in
    // that order within each table; Japanese, written without spaces, has tables of its own. Entries are written as people spell them:
    // the tables are read through `words(_:)`, as the notes are, so accents and case need no care.

    static let pressingPhrases = [
        "urgent", "urgently", "asap", "emergency", "emergencies", "immediately", "overdue", "past due", "was due", "were due", "deadline was",
        "right now", "right away", "as soon as",
        "urgente", "urgentes", "urgentemente", "urgencia", "cuanto antes", "lo antes posible", "inmediatamente", "de inmediato", "vencido", "vencida",
        "urgence", "urgents", "dès que possible", "des que possible", "au plus vite", "immédiatement", "tout de suite",
        "dringend", "dringende", "dringendes", "eilig", "eilt", "sofort", "umgehend", "überfällig", "schnellstmöglich", "so schnell wie möglich", "notfall",
        "urgência", "o quanto antes", "o mais rápido possível", "imediatamente",
        "urgenti", "subito", "scaduto", "scaduta", "il prima possibile", "al più presto",
        "spoed", "zo snel mogelijk", "zsm", "achterstallig",
        "pilne", "pilny", "pilna", "pilnie", "natychmiast", "jak najszybciej", "zaległe", "zaległy", "po terminie",
        "súrne", "surne", "súrny", "súrna", "naliehavé", "okamžite", "čo najskôr", "po termíne",
        "kiireellinen", "kiireellisesti", "kiireesti", "pikaisesti", "heti", "mahdollisimman pian", "erääntynyt",
        "επείγον", "επειγόντως", "επείγουσα", "επείγει", "άμεσα", "το συντομότερο", "εκπρόθεσμο",
        // "gấp" alone also folds ("gấp quần áo") and multiplies ("gấp đôi").
        "khẩn cấp", "khẩn trương", "hỏa tốc", "cần gấp", "rất gấp", "việc gấp", "làm gấp", "gấp lắm", "càng sớm càng tốt", "quá hạn", "trễ hạn",
        "brådskande", "brådskar", "akut", "omedelbart", "snarast", "så snart som möjligt", "så fort som möjligt", "förfallen", "förfallna",
        "naléhavé", "naléhavě", "urgentní", "pilné", "pilně", "spěchá", "okamžitě", "ihned", "co nejdřív", "co nejdříve", "po splatnosti",
        "acil", "acilen", "derhal", "hemen", "en kısa sürede", "bir an önce", "gecikmiş", "vadesi geçmiş",
        "urgentă", "urgență", "de urgență", "imediat", "cât mai curând", "cât mai repede", "restant", "restantă", "restanță",
    ]

    /// Days after the note's.
    static let relativePhrases: [(String, Int64)] = [
        ("today", 0), ("tonight", 0), ("this morning", 0), ("this afternoon", 0), ("this evening", 0), ("tomorrow", 1), ("tmrw", 1),
        ("day after tomorrow", 2), ("next week", 7), ("end of next week", 10), ("next month", 30),
        ("hoy", 0), ("esta noche", 0), ("esta tarde", 0), ("esta mañana", 0), ("mañana", 1), ("manana", 1), ("pasado mañana", 2), ("pasado manana", 2),
        ("semana que viene", 7), ("próxima semana", 7), ("proxima semana", 7), ("mes que viene", 30), ("próximo mes", 30), ("proximo mes", 30),
        ("aujourd hui", 0), ("ce soir", 0), ("ce matin", 0), ("cet après midi", 0), ("demain", 1), ("après demain", 2), ("apres demain", 2),
        ("semaine prochaine", 7), ("mois prochain", 30),
        ("heute", 0), ("morgen", 1), ("übermorgen", 2), ("uebermorgen", 2), ("nächste woche", 7), ("naechste woche", 7), ("nächster woche", 7),
        ("kommende woche", 7), ("kommenden woche", 7), ("nächsten monat", 30), ("naechsten monat", 30),
        ("hoje", 0), ("esta noite", 0), ("amanhã", 1), ("amanha", 1), ("depois de amanhã", 2), ("depois de amanha", 2), ("semana que vem", 7),
        ("mês que vem", 30), ("mes que vem", 30), ("próximo mês", 30),
        ("oggi", 0), ("stasera", 0), ("stamattina", 0), ("stanotte", 0), ("domani", 1), ("domattina", 1), ("dopodomani", 2), ("dopo domani", 2),
        ("prossima settimana", 7), ("settimana prossima", 7), ("prossimo mese", 30), ("mese prossimo", 30),
        ("vandaag", 0), ("vanavond", 0), ("vanmiddag", 0), ("morgenochtend", 1), ("morgenmiddag", 1), ("morgenavond", 1), ("overmorgen", 2),
        ("volgende week", 7), ("volgende maand", 30),
        ("dziś", 0), ("dzis", 0), ("dzisiaj", 0), ("jutro", 1), ("jutra", 1), ("pojutrze", 2), ("przyszłym tygodniu", 7), ("przyszlym tygodniu", 7),
        ("przyszły tydzień", 7), ("przyszłego tygodnia", 7), ("następnym tygodniu", 7), ("za tydzień", 7), ("za tydzien", 7),
        ("przyszłym miesiącu", 30), ("przyszły miesiąc", 30), ("za miesiąc", 30),
        ("dnes", 0), ("zajtra", 1), ("pozajtra", 2), ("budúci týždeň", 7), ("buduci tyzden", 7), ("budúcom týždni", 7), ("budúceho týždňa", 7),
        ("o týždeň", 7), ("za týždeň", 7), ("budúci mesiac", 30), ("budúcom mesiaci", 30), ("o mesiac", 30), ("za mesiac", 30),
        ("tänään", 0), ("tänä iltana", 0), ("huomenna", 1), ("huomiseksi", 1), ("huomiseen", 1), ("huomisaamuna", 1), ("huomisiltana", 1),
        ("ylihuomenna", 2), ("ensi viikolla", 7), ("ensi viikoksi", 7), ("ensi viikkoon", 7), ("ensi viikko", 7), ("seuraavalla viikolla", 7),
        ("viikon päästä", 7), ("viikon kuluttua", 7), ("ensi kuussa", 30), ("ensi kuuksi", 30), ("kuukauden päästä", 30), ("kuukauden kuluttua", 30),
        ("σήμερα", 0), ("απόψε", 0), ("αύριο", 1), ("μεθαύριο", 2), ("επόμενη εβδομάδα", 7), ("επόμενη βδομάδα", 7), ("ερχόμενη εβδομάδα", 7),
        ("την άλλη εβδομάδα", 7), ("την άλλη βδομάδα", 7), ("επόμενο μήνα", 30), ("τον άλλο μήνα", 30),
        // "mai" alone is as often a name as "tomorrow".
        ("hôm nay", 0), ("tối nay", 0), ("chiều nay", 0), ("trưa nay", 0), ("sáng nay", 0), ("ngày mai", 1), ("sáng mai", 1), ("trưa mai", 1),
        ("chiều mai", 1), ("tối mai", 1), ("ngày kia", 2), ("ngày mốt", 2), ("tuần sau", 7), ("tuần tới", 7), ("cuối tuần sau", 10),
        ("cuối tuần tới", 10), ("tháng sau", 30), ("tháng tới", 30),
        ("idag", 0), ("i dag", 0), ("ikväll", 0), ("i kväll", 0), ("i eftermiddag", 0), ("imorgon", 1), ("i morgon", 1), ("imorn", 1), ("i morn", 1),
        ("i övermorgon", 2), ("övermorgon", 2), ("nästa vecka", 7), ("nästa månad", 30),
        ("dneska", 0), ("dnes večer", 0), ("zítra", 1), ("zitra", 1), ("pozítří", 2), ("pozitri", 2), ("příští týden", 7), ("pristi tyden", 7),
        ("příštím týdnu", 7), ("příštího týdne", 7), ("za týden", 7), ("příští měsíc", 30), ("příštím měsíci", 30), ("za měsíc", 30),
        ("bugün", 0), ("bu akşam", 0), ("bu gece", 0), ("yarın", 1), ("yarin", 1), ("öbür gün", 2), ("yarından sonra", 2), ("haftaya", 7),
        ("gelecek hafta", 7), ("önümüzdeki hafta", 7), ("seneye", 365), ("gelecek ay", 30), ("önümüzdeki ay", 30),
        ("azi", 0), ("astăzi", 0), ("astazi", 0), ("diseară", 0), ("deseară", 0), ("mâine", 1), ("maine", 1), ("poimâine", 2), ("poimaine", 2),
        ("săptămâna viitoare", 7), ("saptamana viitoare", 7), ("luna viitoare", 30),
    ]

    /// Friday of the week the note was written in.
    static let endOfWeekPhrases = [
        "this week", "end of the week", "end of week", "esta semana", "fin de la semana", "cette semaine", "fin de la semaine",
        "diese woche", "dieser woche", "ende der woche", "nesta semana", "fim da semana", "questa settimana", "entro la settimana",
        "fine della settimana", "deze week", "eind van de week", "einde van de week", "tym tygodniu", "końca tygodnia", "konca tygodnia",
        "tento týždeň", "tomto týždni", "konca týždňa", "tällä viikolla", "viikon loppuun", "αυτή την εβδομάδα", "μέσα στην εβδομάδα",
        "τέλος της εβδομάδας", "tuần này",
        "den här veckan", "denna vecka", "i veckan", "tento týden", "tomto týdnu", "do konce týdne", "bu hafta", "hafta sonuna kadar",
        "săptămâna asta", "săptămâna aceasta", "această săptămână", "până la sfârșitul săptămânii",
    ]

    /// Saturday of the week the note was written in.
    static let weekendPhrases = [
        "this weekend", "by the weekend", "este fin de semana", "para el fin de semana", "ce week end", "ce weekend",
        "am wochenende", "dieses wochenende", "zum wochenende", "este fim de semana", "neste fim de semana", "até o fim de semana",
        "questo weekend", "nel weekend", "questo fine settimana", "nel fine settimana", "entro il weekend", "entro fine settimana",
        "dit weekend", "in het weekend", "ten weekend", "w weekend", "na weekend", "do weekendu", "tento víkend", "cez víkend", "do víkendu",
        "viikonloppuna", "viikonloppuun", "αυτό το Σαββατοκύριακο", "μέχρι το Σαββατοκύριακο", "cuối tuần",
        "i helgen", "till helgen", "tento víkend", "o víkendu", "do víkendu", "bu hafta sonu", "hafta sonu", "în weekend", "weekendul acesta",
        "la sfârșitul săptămânii",
    ]

    /// Phrases with a date word in them that name no date: mornings, and weekends gone by.
    static let notDatePhrases = [
        "guten morgen", "gestern morgen", "am morgen", "jeden morgen", "goede morgen", "de morgen",
        "la mañana", "la manana", "cada mañana", "una mañana", "viime viikonloppuna", "cuối tuần trước",
        // Swedish "i måndags" is last Monday; Turkish "hemen hemen" is "almost".
        "i måndags", "i tisdags", "i onsdags", "i torsdags", "i fredags", "i lördags", "i söndags", "förra veckan", "hemen hemen",
        "minulý týden", "geçen hafta", "săptămâna trecută",
    ]

    /// Monday = 0.
    static let weekdays: [String: Int] = indexed([
        ["monday", "mon", "lunes", "lundi", "montag", "segunda feira", "lunedì", "lunedi", "maandag", "poniedziałek", "poniedzialek",
         "poniedziałku", "poniedzialku", "pondelok", "pondelka", "δευτέρα", "δευτέρας", "måndag", "måndagen", "pondělí", "pondeli",
         "pazartesi", "pazartesiye", "pazartesi günü", "luni", "lunea"] + inflected("maanantai", finnishWeekdayEndings)
            + inflected("montag", germanDayParts) + inflected("maandag", dutchDayParts),
        ["tuesday", "tue", "tues", "martes", "mardi", "dienstag", "terça feira", "terca feira", "martedì", "martedi", "dinsdag", "wtorek",
         "wtorku", "utorok", "utorka", "tisdag", "tisdagen", "úterý", "utery", "salı", "salıya", "salı günü", "marți", "marti", "marțea"] + inflected("tiistai", finnishWeekdayEndings)
            + inflected("dienstag", germanDayParts) + inflected("dinsdag", dutchDayParts),
        ["wednesday", "miércoles", "miercoles", "mercredi", "mittwoch", "quarta feira", "mercoledì", "mercoledi", "woensdag", "środa",
         "sroda", "środę", "srode", "środy", "srody", "streda", "stredu", "stredy", "keskiviikko", "keskiviikkona", "keskiviikkoon",
         "keskiviikoksi", "keskiviikon", "onsdag", "onsdagen", "středa", "středu", "středy", "çarşamba", "çarşambaya", "çarşamba günü",
         "miercuri", "miercurea"] + inflected("mittwoch", germanDayParts) + inflected("woensdag", dutchDayParts),
        ["thursday", "thu", "thurs", "jueves", "jeudi", "donnerstag", "quinta feira", "giovedì", "giovedi", "donderdag", "czwartek",
         "czwartku", "štvrtok", "stvrtok", "štvrtka", "stvrtka", "torsdag", "torsdagen", "čtvrtek", "ctvrtek", "čtvrtka",
         "perşembe", "perşembeye", "perşembe günü", "joi", "joia"] + inflected("torstai", finnishWeekdayEndings)
            + inflected("donnerstag", germanDayParts) + inflected("donderdag", dutchDayParts),
        ["friday", "fri", "viernes", "vendredi", "freitag", "sexta feira", "venerdì", "venerdi", "vrijdag", "piątek", "piatek", "piątku",
         "piatku", "piatok", "παρασκευή", "παρασκευής", "fredag", "fredagen", "pátek", "patek", "pátku",
         "cuma", "cumaya", "cuma günü", "vineri", "vinerea"] + inflected("perjantai", finnishWeekdayEndings)
            + inflected("freitag", germanDayParts) + inflected("vrijdag", dutchDayParts),
        ["saturday", "sábado", "sabado", "samedi", "samstag", "sonnabend", "sabato", "zaterdag", "sobota", "sobotę", "sobote", "soboty",
         "sobotu", "σάββατο", "σαββάτου", "lördag", "lördagen", "cumartesi", "cumartesiye", "cumartesi günü",
         "sâmbătă", "sambata", "sâmbăta"] + inflected("lauantai", finnishWeekdayEndings)
            + inflected("samstag", germanDayParts) + inflected("zaterdag", dutchDayParts),
        ["sunday", "domingo", "dimanche", "sonntag", "domenica", "zondag", "niedziela", "niedzielę", "niedziele", "niedzieli", "nedeľa",
         "nedela", "nedeľu", "nedelu", "nedele", "κυριακή", "κυριακής", "chủ nhật", "söndag", "söndagen", "neděle",
         "neděli", "nedeli",
         // "pazar" alone is also a market.
         "pazar günü", "pazara kadar", "duminică", "duminica"] + inflected("sunnuntai", finnishWeekdayEndings)
            + inflected("sonntag", germanDayParts) + inflected("zondag", dutchDayParts),
    ], from: 0)

    /// "On Friday", "by Friday", "for Friday", "Friday's".
    static let finnishWeekdayEndings = ["", "na", "hin", "ksi", "n"]

    /// German and Dutch write a day and its part as one word: "Freitagabend", "vrijdagmiddag".
    static let germanDayParts = ["morgen", "vormittag", "mittag", "nachmittag", "abend", "nacht"]
    static let dutchDayParts = ["ochtend", "middag", "avond", "nacht"]

    /// Weekdays that are also ordinals ("segunda", "τρίτη", "thứ hai": second, third), read as
    /// days unless beside a noun they number.
    static let ordinalWeekdays: [String: Int] = indexed([
        ["segunda", "thứ hai", "thứ 2"], ["terça", "terca", "τρίτη", "τρίτης", "thứ ba", "thứ 3"], ["quarta", "τετάρτη", "τετάρτης", "thứ tư", "thứ 4"],
        ["quinta", "πέμπτη", "πέμπτης", "thứ năm", "thứ 5"], ["sexta", "thứ sáu", "thứ 6"], ["thứ bảy", "thứ bẩy", "thứ 7"], [],
    ], from: 0)

    /// Nouns an ordinal weekday numbers when it follows them ("lần thứ hai", "đợt thứ ba").
    static let ordinalNounsBefore = keys(["lần", "người", "hạng", "bước", "phần", "chương", "bài", "trang", "câu", "điều", "tuần", "con", "đứa",
                                          "lớp", "tầng", "đợt", "mũi"])

    /// Nouns an ordinal weekday numbers when it precedes them ("segunda vez", "τρίτη δόση").
    static let ordinalNounsAfter = keys(["vez", "vezes", "parte", "opção", "opcao", "dose", "série", "serie", "via", "chance", "etapa", "fase",
                                         "edição", "edicao", "classe", "mão", "mao", "semana", "pessoa", "linha", "página", "pagina", "tentativa",
                                         "φορά", "θέση", "ηλικία", "φάση", "δόση", "έκδοση", "μέρα", "ημέρα", "εβδομάδα", "σειρά", "προσπάθεια",
                                         "επιλογή", "σελίδα", "τάξη"])

    /// January = 1. Polish, Slovak, Greek and Finnish dates take the genitive ("20 grudnia",
    /// "20. decembra", "20 Δεκεμβρίου", "joulukuun 20.") or the Finnish partitive ("20. joulukuuta").
    static let months: [String: Int] = indexed([
        ["january", "jan", "enero", "janvier", "januar", "jänner", "janeiro", "gennaio", "januari", "stycznia", "januára", "januara", "január",
         "ιανουαρίου", "ιανουάριος", "γενάρη", "ιαν",
         "ledna", "leden", "ocak", "ianuarie"] + inflected("tammikuu", finnishMonthEndings),
        ["february", "feb", "febrero", "février", "fevrier", "februar", "fevereiro", "febbraio", "februari", "lutego", "februára", "februara",
         "február", "φεβρουαρίου", "φεβρουάριος", "φλεβάρη", "φεβ",
         "února", "unora", "únor", "şubat", "subat", "februarie"] + inflected("helmikuu", finnishMonthEndings),
        ["march", "mar", "marzo", "mars", "märz", "maerz", "março", "marco", "maart", "marca", "marec", "μαρτίου", "μάρτιος", "μάρτη",
         "μαρ",
         "března", "brezna", "březen", "mart", "martie"] + inflected("maaliskuu", finnishMonthEndings),
        ["april", "apr", "abril", "avril", "aprile", "kwietnia", "apríla", "aprila", "apríl", "απριλίου", "απρίλιος", "απρίλη",
         "απρ",
         "dubna", "duben", "nisan", "aprilie"] + inflected("huhtikuu", finnishMonthEndings),
        ["may", "mayo", "mai", "maio", "maggio", "mei", "maja", "mája", "máj", "μαΐου", "μάιος", "μάη",
         "maj", "května", "kvetna", "květen", "mayıs", "mayis"] + inflected("toukokuu", finnishMonthEndings),
        ["june", "jun", "junio", "juin", "juni", "junho", "giugno", "czerwca", "júna", "juna", "jún", "ιουνίου", "ιούνιος", "ιούνη",
         "ιουν",
         "června", "cervna", "červen", "haziran", "iunie"] + inflected("kesäkuu", finnishMonthEndings),
        ["july", "jul", "julio", "juillet", "juli", "julho", "luglio", "lipca", "júla", "jula", "júl", "ιουλίου", "ιούλιος", "ιούλη",
         "ιουλ",
         "července", "cervence", "červenec", "temmuz", "iulie"] + inflected("heinäkuu", finnishMonthEndings),
        ["august", "aug", "agosto", "août", "aout", "augustus", "sierpnia", "augusta", "αυγούστου", "αύγουστος", "αυγ",
         "augusti", "srpna", "srpen", "ağustos", "agustos"]
            + inflected("elokuu", finnishMonthEndings),
        ["september", "sep", "sept", "septiembre", "setiembre", "septembre", "setembro", "settembre", "września", "wrzesnia", "septembra",
         "σεπτεμβρίου", "σεπτέμβριος", "σεπτέμβρη", "σεπ",
         "září", "zari", "eylül", "eylul", "septembrie"] + inflected("syyskuu", finnishMonthEndings),
        ["october", "oct", "octubre", "octobre", "oktober", "outubro", "ottobre", "października", "pazdziernika", "októbra", "oktobra", "október",
         "οκτωβρίου", "οκτώβριος", "οκτώβρη", "οκτ",
         "října", "rijna", "říjen", "ekim", "octombrie"] + inflected("lokakuu", finnishMonthEndings),
        ["november", "nov", "noviembre", "novembre", "novembro", "listopada", "novembra", "νοεμβρίου", "νοέμβριος", "νοέμβρη", "νοε",
         "listopadu", "listopad", "kasım", "kasim", "noiembrie"]
            + inflected("marraskuu", finnishMonthEndings),
        ["december", "dec", "diciembre", "décembre", "decembre", "dezember", "dezembro", "dicembre", "grudnia", "decembra", "δεκεμβρίου",
         "δεκέμβριος", "δεκέμβρη", "δεκ",
         "prosince", "prosinec", "aralık", "aralik", "decembrie"] + inflected("joulukuu", finnishMonthEndings),
    ], from: 1)

    /// Nominative, partitive ("20. joulukuuta"), genitive ("joulukuun 20.").
    static let finnishMonthEndings = ["", "ta", "n"]

    /// Words before a bare day number that make it a day of the month: "le 20", "até dia 20", "ngày 20".
    static let dayMarkers: Set<String> = ["le", "dia", "día", "ngày"]

    static let counts: [String: Int] = folded([
        "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "un": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "diez": 10, "quince": 15,
        "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "huit": 8, "dix": 10, "quinze": 15,
        "einer": 1, "einem": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "zehn": 10,
        "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "dez": 10,
        "uno": 1, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "dieci": 10, "quindici": 15,
        "een": 1, "twee": 2, "drie": 3, "vijf": 5, "tien": 10,
        "jeden": 1, "dwa": 2, "dwie": 2, "trzy": 3, "cztery": 4, "pięć": 5, "dziesięć": 10,
        "dva": 2, "dve": 2, "tri": 3, "štyri": 4, "päť": 5, "desať": 10,
        "yhden": 1, "kahden": 2, "parin": 2, "kolmen": 3, "neljän": 4, "viiden": 5, "kymmenen": 10,
        "ένα": 1, "μία": 1, "μια": 1, "δύο": 2, "δυο": 2, "τρεις": 3, "τρία": 3, "τέσσερις": 4, "πέντε": 5, "δέκα": 10,
        "một": 1, "hai": 2, "ba": 3, "bốn": 4, "năm": 5, "mười": 10,
        "en": 1, "ett": 1, "två": 2, "fyra": 4, "fem": 5, "tio": 10,
        "dvě": 2, "tři": 3, "čtyři": 4, "pět": 5, "deset": 10,
        "bir": 1, "iki": 2, "üç": 3, "dört": 4, "beş": 5,
        "două": 2, "doua": 2, "trei": 3, "patru": 4, "cinci": 5, "zece": 10,
    ])

    /// Words before a count ("in 3 days", "dentro de 2 semanas", "za 5 dni", "σε 3 μέρες"), with
    /// the units of their languages. Each word takes only its own languages' units, so English
    /// "over 3 days" (spread over) is not Dutch "over 3 dagen" (in three days).
    static let countBefore: [String: [String: Int64]] = {
        let english: [String: Int64] = ["day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30, "months": 30]
        let spanish: [String: Int64] = ["día": 1, "días": 1, "dias": 1, "semana": 7, "semanas": 7, "mes": 30, "meses": 30]
        let french: [String: Int64] = ["jour": 1, "jours": 1, "semaine": 7, "semaines": 7, "mois": 30]
        let german: [String: Int64] = ["tag": 1, "tagen": 1, "woche": 7, "wochen": 7, "monat": 30, "monaten": 30]
        let portuguese: [String: Int64] = ["dia": 1, "dias": 1, "semana": 7, "semanas": 7, "mês": 30, "mes": 30, "meses": 30]
        let italian: [String: Int64] = ["giorno": 1, "giorni": 1, "settimana": 7, "settimane": 7, "mese": 30, "mesi": 30]
        let dutch: [String: Int64] = ["dag": 1, "dagen": 1, "week": 7, "weken": 7, "maand": 30, "maanden": 30]
        let polish: [String: Int64] = ["dzień": 1, "dzien": 1, "dni": 1, "tydzień": 7, "tydzien": 7, "tygodnie": 7, "tygodni": 7,
                                       "miesiąc": 30, "miesiac": 30, "miesiące": 30, "miesiace": 30, "miesięcy": 30, "miesiecy": 30]
        let slovak: [String: Int64] = ["deň": 1, "den": 1, "dni": 1, "dní": 1, "týždeň": 7, "tyzden": 7, "týždne": 7, "tyzdne": 7, "týždňov": 7,
                                       "mesiac": 30, "mesiace": 30, "mesiacov": 30]
        let greek: [String: Int64] = ["μέρα": 1, "μέρες": 1, "ημέρα": 1, "ημέρες": 1, "εβδομάδα": 7, "εβδομάδες": 7, "βδομάδα": 7, "βδομάδες": 7,
                                      "μήνα": 30, "μήνες": 30]
        let greekGenitive: [String: Int64] = ["ημέρας": 1, "ημερών": 1, "εβδομάδας": 7, "εβδομάδων": 7, "μήνα": 30, "μηνών": 30]
        let vietnamese: [String: Int64] = ["ngày": 1, "tuần": 7, "tháng": 30]
        let swedish: [String: Int64] = ["dag": 1, "dagar": 1, "vecka": 7, "veckor": 7, "månad": 30, "månader": 30]
        let czech: [String: Int64] = ["den": 1, "dny": 1, "dní": 1, "dnů": 1, "týden": 7, "týdny": 7, "týdnů": 7, "měsíc": 30, "měsíce": 30,
                                      "měsíců": 30]
        let romanian: [String: Int64] = ["zi": 1, "zile": 1, "săptămână": 7, "săptămâni": 7, "lună": 30, "luni": 30]
        let table: [String: [[String: Int64]]] = [
            "in": [english, german, dutch, italian], "within": [english], "en": [spanish, french], "dans": [french], "sous": [french],
            "d ici": [french], "dentro de": [spanish, portuguese], "binnen": [german, dutch], "innerhalb von": [german], "em": [portuguese],
            "daqui a": [portuguese], "tra": [italian], "fra": [italian], "entro": [italian], "over": [dutch], "za": [polish, slovak, czech],
            "w ciągu": [polish], "w ciagu": [polish], "o": [slovak], "σε": [greek], "εντός": [greekGenitive], "trong": [vietnamese],
            "trong vòng": [vietnamese], "sau": [vietnamese], "om": [swedish], "inom": [swedish], "inom loppet av": [swedish],
            "do": [czech], "în": [romanian], "peste": [romanian], "în decurs de": [romanian],
        ]
        return folded(table.mapValues { units in folded(units.reduce([:]) { $0.merging($1) { first, _ in first } }) })
    }()

    /// Words after a count and its unit, for languages that put them there: "3 päivän päästä",
    /// "3 ngày nữa", "3 gün içinde".
    static let countAfter: [String: [String: Int64]] = {
        let finnish: [String: Int64] = ["päivän": 1, "viikon": 7, "kuukauden": 30]
        let vietnamese: [String: Int64] = ["ngày": 1, "tuần": 7, "tháng": 30]
        let turkish: [String: Int64] = ["gün": 1, "hafta": 7, "ay": 30]
        return ["päästä": finnish, "kuluttua": finnish, "sisällä": finnish, "nữa": vietnamese, "sau": vietnamese, "tới": vietnamese,
                "içinde": turkish, "sonra": turkish]
    }()

    enum Meaning: Sendable {
        case pressing, daysAfter(Int64), endOfWeek, weekend, weekday(Int, alsoOrdinal: Bool), notADate
    }

    /// Every phrase of the tables as words, by its first word, longest first.
    static let phrases: [String: [(words: [String], meaning: Meaning)]] = {
        var entries: [(String, Meaning)] = pressingPhrases.map { ($0, .pressing) } + relativePhrases.map { ($0.0, .daysAfter($0.1)) }
        entries += endOfWeekPhrases.map { ($0, .endOfWeek) } + weekendPhrases.map { ($0, .weekend) } + notDatePhrases.map { ($0, .notADate) }
        entries += weekdays.map { ($0.key, .weekday($0.value, alsoOrdinal: false)) } + ordinalWeekdays.map { ($0.key, .weekday($0.value, alsoOrdinal: true)) }
        var index: [String: [(words: [String], meaning: Meaning)]] = [:]
        for (phrase, meaning) in entries {
            let words = Deadlines.words(phrase)
            index[words[0], default: []].append((words, meaning))
        }
        return index.mapValues { $0.sorted { $0.words.count > $1.words.count } }
    }()

    // MARK: Helpers

    /// Lower-cased runs of letters and digits; everything else separates words. Greek loses its
    /// accents and final sigma, which capitals drop and hurried typing forgets.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map { word in
            // Greek letters, and only they, start with the UTF-8 byte 0xCE or 0xCF.
            word.utf8.contains { $0 == 0xCE || $0 == 0xCF } ? String(word.map { greekFolds[$0] ?? $0 }) : String(word)
        }
    }

    static let greekFolds: [Character: Character] = ["ά": "α", "έ": "ε", "ή": "η", "ί": "ι", "ό": "ο", "ύ": "υ", "ώ": "ω", "ϊ": "ι", "ϋ": "υ",
                                                     "ΐ": "ι", "ΰ": "υ", "ς": "σ"]

    /// A table's spelling as `words(_:)` gives it: lowercased, Greek without its accents.
    public static func key(_ phrase: String) -> String { words(phrase).joined(separator: " ") }

    /// Whether `word` names a weekday or a month in one of the languages read here, a Finnish
    /// month in any case ("marraskuussa", in November): words a note's day answers.
    public static func namesWeekdayOrMonth(_ word: String) -> Bool {
        weekdays[key(word)] != nil || month(named: word) != nil
    }

    /// The month (January = 1) `word` names in one of the languages read here, as a date spells
    /// it ("listopada", "Νοεμβρίου", "novembre"), or a Finnish month in any case ("marraskuussa").
    public static func month(named word: String) -> Int? {
        let key = key(word)
        if let month = months[key] { return month }
        guard key.contains("kuu"), let index = finnishMonths.firstIndex(where: { key.hasPrefix($0) }) else { return nil }
        return index + 1
    }

    static let finnishMonths = ["tammikuu", "helmikuu", "maaliskuu", "huhtikuu", "toukokuu", "kesäkuu", "heinäkuu", "elokuu", "syyskuu",
                                "lokakuu", "marraskuu", "joulukuu"]

    static func keys(_ phrases: [String]) -> Set<String> { Set(phrases.map(key)) }

    static func folded<Value>(_ table: [String: Value]) -> [String: Value] {
        Dictionary(table.map { (key($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each spelling of `names[i]` to `first + i`.
    static func indexed(_ names: [[String]], from first: Int) -> [String: Int] {
        var table: [String: Int] = [:]
        for (offset, spellings) in names.enumerated() { for spelling in spellings { table[key(spelling)] = first + offset } }
        return table
    }

    static func inflected(_ stem: String, _ endings: [String]) -> [String] { endings.map { stem + $0 } }

    static func number(_ word: String) -> Int? {
        if let value = Int(word), (1...31).contains(value) { return value }
        return ordinal(word)
    }

    /// "1st", "22nd", "3rd", "26th", "1er", "2e", "1º", "1ª".
    static func ordinal(_ word: String) -> Int? {
        let digits = word.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, ["st", "nd", "rd", "th", "er", "re", "e", "º", "ª"].contains(word.dropFirst(digits.count)),
              let value = Int(digits), (1...31).contains(value) else { return nil }
        return value
    }

    static func count(_ word: String) -> Int? {
        if let value = Int(word), (1...400).contains(value) { return value }
        return counts[word]
    }

    /// The date with this month and day nearest after `created` minus half a year (a note
    /// written on Dec 28 about "Jan 3" means next year's), or in `year` when the note says it.
    static func date(month: Int, day: Int, near created: Int64, year: Int?) -> Int64 {
        if let year { return Timestamp.days(fromCivil: year, month, day) }
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

    /// Japanese date words, found inside the runs of letters `words(_:)` gives for a text without
    /// spaces: days after the note's (a weekday is -1 - its index, Monday = 0), or nil: pressing.
    static let japanesePhrases: [(String, Int64?)] = [
        ("今日", 0), ("本日", 0), ("今夜", 0), ("今晩", 0), ("明日", 1), ("あした", 1), ("明後日", 2), ("あさって", 2), ("来週", 7), ("来月", 30),
        ("月曜", -1), ("火曜", -2), ("水曜", -3), ("木曜", -4), ("金曜", -5), ("土曜", -6), ("日曜", -7),
        ("至急", nil), ("急ぎ", nil), ("緊急", nil), ("早急", nil), ("今すぐ", nil), ("期限切れ", nil),
    ]

    /// The days the Japanese words of `text` name, and whether it says it is pressing. "先週の月曜"
    /// (last week's Monday) is history, so a weekday right after 先週 is left out.
    static func japaneseWords(_ text: String, created: Int64, weekday: Int) -> (days: [Int64], isPressing: Bool) {
        guard text.unicodeScalars.contains(where: { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }) else {
            return ([], false)
        }
        var days: [Int64] = [], isPressing = false
        for (phrase, meaning) in japanesePhrases {
            var rest = text[...]
            while let found = rest.firstRange(of: phrase) {
                defer { rest = rest[found.upperBound...] }
                guard let meaning else { isPressing = true; continue }
                if meaning >= 0 { days.append(created + meaning); continue }
                if text[..<found.lowerBound].hasSuffix("先週") || text[..<found.lowerBound].hasSuffix("先週の") { continue }
                let ahead = (Int(-meaning - 1) - weekday + 7) % 7
                days.append(created + Int64(ahead == 0 ? 7 : ahead))
            }
        }
        return (days, isPressing)
    }

    /// Dates in figures, day first: "12.3.", "15.5.2026", "22/6", "21/1/2026". A day and month
    /// with a dot and nothing after are also a decimal ("31.4 kg", "Rm 4.12"), so they count
    /// only with a weekday before them ("czwartek 19.11"); with a slash, the common fractions
    /// (1/2, 1/3, 1/4, 2/3, 3/4) are not dates; a time ("17:30", "17.30") never is one.
    static func numericDates(_ text: String, created: Int64) -> [Int64] {
        let characters = Array(text)
        var found: [Int64] = []
        var index = 0
        func digits(at start: Int) -> (value: Int, end: Int)? {
            var end = start, value = 0
            while end < characters.count, end - start < 4, characters[end].isASCII, let digit = characters[end].wholeNumberValue {
                value = value * 10 + digit
                end += 1
            }
            return end > start && !(end < characters.count && characters[end].isASCII && characters[end].isNumber) ? (value, end) : nil
        }
        while index < characters.count {
            let startsNumber = characters[index].isASCII && characters[index].isNumber
                && (index == 0 || !(characters[index - 1].isNumber || ".,:/".contains(characters[index - 1])))
            guard startsNumber, let day = digits(at: index), day.end - index <= 2, day.end + 1 < characters.count,
                  characters[day.end] == "." || characters[day.end] == "/" else {
                index += 1
                continue
            }
            let separator = characters[day.end]
            guard let month = digits(at: day.end + 1), month.end - day.end - 1 <= 2, (1...12).contains(month.value),
                  (1...31).contains(day.value) else {
                index = day.end + 1
                continue
            }
            var end = month.end, year: Int?
            if end + 1 < characters.count, characters[end] == separator, let written = digits(at: end + 1),
               [2, 4].contains(written.end - end - 1) {
                year = written.value < 100 ? 2000 + written.value : written.value
                end = written.end
            }
            let trailingDot = end < characters.count && characters[end] == "." && !(end + 1 < characters.count && characters[end + 1].isNumber)
            let accepted: Bool
            if separator == "." {
                accepted = year != nil || trailingDot || followsWeekday(characters[..<index])
            } else {
                accepted = year != nil || !([2, 3, 4].contains(month.value) && day.value < month.value)
            }
            if accepted, !(end < characters.count && characters[end] == ":") {
                found.append(date(month: month.value, day: day.value, near: created, year: year))
            }
            index = end
        }
        return found
    }

    /// Whether the word before these characters (spaces and a comma between) is a weekday.
    static func followsWeekday(_ before: ArraySlice<Character>) -> Bool {
        let trimmed = before.reversed().drop { $0 == " " || $0 == "," }
        let word = String(trimmed.prefix { $0.isLetter }.reversed())
        return !word.isEmpty && (weekdays[key(word)] != nil || ordinalWeekdays[key(word)] != nil)
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

extension [String] {
    /// The word at `index`, or "" past either end.
    fileprivate func at(_ index: Int) -> String { indices.contains(index) ? self[index] : "" }
}

extension Int64 {
    fileprivate func floorMod(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
