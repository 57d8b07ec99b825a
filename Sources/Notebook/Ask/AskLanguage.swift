// The language a question is asked in: the reader is told to answer in it, and what code
// says itself (that the notes do not say, a total, a count) is said in it.

/// A language `notes ask` tells from a question's words. Greek by its letters, Vietnamese by
/// its tone marks, the others by their question and function words and the letters only they
/// write; English when nothing tells (a question of names and numbers).
enum AskLanguage: String, CaseIterable, Sendable {
    case english = "English", greek = "Greek", finnish = "Finnish", polish = "Polish", german = "German"
    case french = "French", spanish = "Spanish", italian = "Italian", portuguese = "Portuguese", dutch = "Dutch"
    case swedish = "Swedish", slovak = "Slovak", czech = "Czech", vietnamese = "Vietnamese"

    /// The language of `question`.
    static func of(_ question: String) -> AskLanguage {
        let scalars = question.lowercased().unicodeScalars
        if scalars.contains(where: { (0x0370...0x03FF).contains($0.value) || (0x1F00...0x1FFF).contains($0.value) }) { return .greek }
        // đ, ơ, ư, ă and the letters with a dot below or a hook above are Vietnamese's alone.
        if scalars.contains(where: { "đơưă".unicodeScalars.contains($0) || (0x1EA0...0x1EF9).contains($0.value) }) { return .vietnamese }
        let words = question.lowercased().split { !$0.isLetter }.map(String.init)
        var best = AskLanguage.english
        var bestScore = 0
        for language in allCases {
            var score = 2 * words.filter(language.tells).count + words.filter(language.joins).count
            score += language.letters.unicodeScalars.filter(scalars.contains).count
            // English wins a tie: its words are the ones other languages borrow.
            if score > bestScore { (best, bestScore) = (language, score) }
        }
        return best
    }

    /// Words found in questions of this language and rarely in another's (or in English).
    private func tells(_ word: String) -> Bool { Self.words[self]?.contains(word) ?? false }

    private static let words: [AskLanguage: Set<String>] = [
        .english: ["what", "when", "where", "who", "which", "why", "how", "much", "many", "is", "are", "do", "does",
                   "my", "the", "was", "will", "can", "should", "i", "have", "has"],
        .finnish: ["mikä", "mitä", "mitkä", "kuka", "ketkä", "kenen", "milloin", "missä", "mistä", "mihin", "miten", "kuinka",
                   "paljonko", "montako", "monta", "minkä", "onko", "oliko", "minun", "minulla", "meidän", "yhteensä",
                   "kertaa", "löydän", "pitää", "täytyy", "pitäisi"],
        .polish: ["kto", "kiedy", "gdzie", "jaki", "jaka", "jakie", "jakiego", "jakiej", "który", "która", "które", "ile",
                  "czy", "jest", "są", "mam", "mój", "moja", "moje", "mojego", "dla", "się", "razem", "płacę", "kosztuje",
                  "kosztowały", "kosztował", "muszę", "zabrać"],
        .german: ["wer", "wann", "wo", "wie", "welche", "welcher", "welches", "warum", "ist", "sind", "habe", "hatte",
                  "was", "der", "das", "den", "dem", "mein", "meine", "meinen", "ich", "für", "insgesamt", "kostet", "muss", "brauche", "wieviel"],
        .french: ["quand", "où", "combien", "quel", "quelle", "quels", "pourquoi", "est", "qui", "que", "mon", "mes",
                  "je", "coûte", "dois", "faut", "les", "pour"],
        .spanish: ["cuándo", "dónde", "cuánto", "cuánta", "cuántos", "cuántas", "cuál", "qué", "quién", "mis", "tengo",
                   "cuesta", "costó", "debo", "necesito", "los", "las", "del"],
        .italian: ["quando", "dove", "quanto", "quanti", "quante", "quale", "che", "cosa", "chi", "perché", "mio", "mia",
                   "devo", "ho", "costa", "costato", "della", "il"],
        .portuguese: ["quando", "onde", "quanto", "quantos", "qual", "quem", "meu", "minha", "tenho", "custa", "custou",
                      "preciso", "é", "são", "os", "da", "do"],
        .dutch: ["wanneer", "waar", "hoe", "hoeveel", "welke", "waarom", "mijn", "ik", "heb", "moet", "kost", "wat", "het", "een"],
        .swedish: ["när", "hur", "mycket", "vilken", "vilket", "varför", "jag", "mitt", "mina", "måste", "kostar", "vad", "och"],
        .slovak: ["kto", "kedy", "kde", "ako", "koľko", "prečo", "môj", "mám", "aký", "ktorý", "stojí"],
        .czech: ["kdo", "kdy", "kde", "jak", "kolik", "proč", "můj", "mám", "jaký", "který", "stojí"],
    ]

    /// Short words that join others (and, of, in, to), for a question written as a few words
    /// with no question word ("energialasku, eräpäivä loppukuusta"): they count half.
    private func joins(_ word: String) -> Bool { Self.joiningWords[self]?.contains(word) ?? false }

    private static let joiningWords: [AskLanguage: Set<String>] = [
        .english: ["of", "and", "to", "in", "on", "for", "a", "an", "at", "with"],
        .finnish: ["ja", "on", "ei", "tai", "kun", "että"],
        .polish: ["w", "z", "na", "do", "i", "nie", "od", "że", "po"],
        .german: ["der", "die", "das", "und", "vom", "vor", "mit", "den", "dem", "zum", "zur", "von", "auf", "im"],
        .french: ["de", "la", "en", "le", "les", "des", "du", "et", "un", "une", "pour", "avec", "dans", "sur", "au", "aux"],
        .spanish: ["de", "la", "en", "a", "el", "y", "para", "por", "con", "una", "al", "los", "las", "del"],
        .italian: ["la", "a", "il", "di", "per", "gli", "della", "alla", "nel", "con", "una", "dal"],
        .portuguese: ["de", "a", "o", "os", "da", "das", "dos", "em", "no", "na", "um", "uma", "com", "ao"],
        .dutch: ["de", "het", "een", "van", "bij", "op", "en", "niet", "ligt", "zelf", "voor", "met"],
        .swedish: ["och", "att", "på", "hos", "av", "till", "för", "med", "åt", "om"],
        .slovak: ["do", "na", "a", "sa", "po", "so", "pre", "zo"],
        .czech: ["do", "na", "a", "se", "po", "pro", "ze"],
    ]

    /// Letters this language writes: each one a question holds counts half for each language
    /// that writes it.
    private var letters: String {
        switch self {
        case .finnish: "äö"
        case .polish: "ąęłśźżćńó"
        case .german: "äöüß"
        case .french: "çèêëàùâîôœ"
        case .spanish: "ñ¿¡áéíóú"
        case .italian: "àèéìòù"
        case .portuguese: "ãõçáéíóúâêô"
        case .swedish: "åäö"
        case .slovak: "ľĺŕôäáéíóúýčďňšťž"
        case .czech: "řěůáéíóúýčďňšťž"
        default: ""
        }
    }

    /// That the notes do not say, in this language.
    var declined: String {
        switch self {
        case .english: AskCheck.declined
        case .greek: "Οι σημειώσεις σου δεν το λένε."
        case .finnish: "Muistiinpanosi eivät kerro sitä."
        case .polish: "Twoje notatki tego nie mówią."
        case .german: "Deine Notizen sagen das nicht."
        case .french: "Tes notes ne le disent pas."
        case .spanish: "Tus notas no lo dicen."
        case .italian: "Le tue note non lo dicono."
        case .portuguese: "As tuas notas não o dizem."
        case .dutch: "Je notities zeggen dat niet."
        case .swedish: "Dina anteckningar säger inte det."
        case .slovak: "Tvoje poznámky to neuvádzajú."
        case .czech: "Tvoje poznámky to neuvádějí."
        case .vietnamese: "Ghi chú của bạn không nói điều đó."
        }
    }

    /// "in all", after a total.
    var inAll: String {
        switch self {
        case .english: "in all"
        case .greek: "συνολικά"
        case .finnish: "yhteensä"
        case .polish: "łącznie"
        case .german: "insgesamt"
        case .french: "au total"
        case .spanish: "en total"
        case .italian: "in totale"
        case .portuguese: "no total"
        case .dutch: "in totaal"
        case .swedish: "totalt"
        case .slovak: "spolu"
        case .czech: "celkem"
        case .vietnamese: "tổng cộng"
        }
    }

    /// "3 times".
    func times(_ count: Int) -> String {
        let one = count == 1
        return switch self {
        case .english: "\(count) time\(one ? "" : "s")"
        case .greek: "\(count) \(one ? "φορά" : "φορές")"
        case .finnish: one ? "1 kerran" : "\(count) kertaa"
        case .polish: "\(count) \(one ? "raz" : "razy")"
        case .german: "\(count) Mal"
        case .french: "\(count) fois"
        case .spanish: "\(count) \(one ? "vez" : "veces")"
        case .italian: "\(count) \(one ? "volta" : "volte")"
        case .portuguese: "\(count) \(one ? "vez" : "vezes")"
        case .dutch: "\(count) keer"
        case .swedish: "\(count) \(one ? "gång" : "gånger")"
        case .slovak: "\(count)-krát"
        case .czech: "\(count)krát"
        case .vietnamese: "\(count) lần"
        }
    }

    /// How far from today a day is, as code's answer begins: "In 81 days", "81 days ago", "Today".
    func daysFromToday(_ days: Int) -> String {
        let count = abs(days), one = count == 1
        // Polish, Slovak and Czech say 2 to 4 days otherwise than 5 and more (and 12 to 14 as 5).
        let few = (2...4).contains(count % 10) && !(12...14).contains(count % 100)
        guard days != 0 else {
            return switch self {
            case .english: "Today"
            case .greek: "Σήμερα"
            case .finnish: "Tänään"
            case .polish: "Dzisiaj"
            case .german: "Heute"
            case .french: "Aujourd'hui"
            case .spanish: "Hoy"
            case .italian: "Oggi"
            case .portuguese: "Hoje"
            case .dutch: "Vandaag"
            case .swedish: "I dag"
            case .slovak, .czech: "Dnes"
            case .vietnamese: "Hôm nay"
            }
        }
        if days > 0 {
            return switch self {
            case .english: "In \(count) day\(one ? "" : "s")"
            case .greek: "Σε \(count) \(one ? "ημέρα" : "ημέρες")"
            case .finnish: "\(count) päivän päästä"
            case .polish: "Za \(count) \(one ? "dzień" : "dni")"
            case .german: "In \(count) \(one ? "Tag" : "Tagen")"
            case .french: "Dans \(count) jour\(one ? "" : "s")"
            case .spanish: "Dentro de \(count) día\(one ? "" : "s")"
            case .italian: "Tra \(count) \(one ? "giorno" : "giorni")"
            case .portuguese: "Daqui a \(count) dia\(one ? "" : "s")"
            case .dutch: "Over \(count) \(one ? "dag" : "dagen")"
            case .swedish: "Om \(count) \(one ? "dag" : "dagar")"
            case .slovak: "O \(count) \(one ? "deň" : few ? "dni" : "dní")"
            case .czech: "Za \(count) \(one ? "den" : few ? "dny" : "dní")"
            case .vietnamese: "Còn \(count) ngày"
            }
        }
        return switch self {
        case .english: "\(count) day\(one ? "" : "s") ago"
        case .greek: "Πριν από \(count) \(one ? "ημέρα" : "ημέρες")"
        case .finnish: "\(count) \(one ? "päivä" : "päivää") sitten"
        case .polish: "\(count) \(one ? "dzień" : "dni") temu"
        case .german: "Vor \(count) \(one ? "Tag" : "Tagen")"
        case .french: "Il y a \(count) jour\(one ? "" : "s")"
        case .spanish: "Hace \(count) día\(one ? "" : "s")"
        case .italian: "\(count) \(one ? "giorno" : "giorni") fa"
        case .portuguese: "Há \(count) dia\(one ? "" : "s")"
        case .dutch: "\(count) \(one ? "dag" : "dagen") geleden"
        case .swedish: "För \(count) \(one ? "dag" : "dagar") sedan"
        case .slovak: "Pred \(count) \(one ? "dňom" : "dňami")"
        case .czech: "Před \(count) \(one ? "dnem" : "dny")"
        case .vietnamese: "\(count) ngày trước"
        }
    }

    /// Whether a name or noun takes a case ending here, often changing its last letters
    /// ("Eetu", "Eetun", "Eetulle"; "Marta", "Marty"; "γιαγιά", "γιαγιάς"), so that the
    /// grounding check matches words by a shorter common beginning (`AskCheck.sameCasedWord`).
    var endsNamesByCase: Bool { [.greek, .finnish, .polish, .slovak, .czech].contains(self) }

    /// Tokens a step may take: an answer's 500 characters take twice as many in Greek or Polish
    /// as in English (a Polish question's ran past 400), and the schema bounds it anyway.
    var responseTokens: Int { self == .english ? 400 : 800 }

    /// What the reader is told after a question in this language (nothing after English's):
    /// the small model answers a Greek question in English unless told.
    var answerIn: String { self == .english ? "" : "\nAnswer in \(rawValue)." }
}
