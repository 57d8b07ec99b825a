// The check that an answer's figures are its notes': a number or a calendar day that no note
// it cites states (nor the question, nor a total or count code made) is the small model's own,
// and the answer goes. The model reads; code checks.
import Notes

/// The numbers and the calendar days an answer may state, gathered from the texts it may state
/// them from, and the figures of an answer that are none of them.
struct AskFigures {
    private var numbers: [Double] = []
    /// Month and day (`month * 100 + day`): a date the answer gives without its year is read
    /// as the one nearest today, a note's as the one nearest the day it was written, so the
    /// year is not compared.
    private var days: Set<Int> = []

    /// Allows what `text` states, written on the day `written` (days since 1970-01-01): its
    /// numbers, and the days it names, by date or by words counted from that day ("tomorrow").
    mutating func allow(_ text: String, written: Int64) {
        numbers += Self.numbers(in: text).map(\.value)
        for day in Deadlines.days(in: text, created: written) { allow(day: day) }
    }

    /// Allows a day, and its year, month and day as numbers ("2026-12-09" for "9 December").
    mutating func allow(day: Int64) {
        let (year, month, date) = Timestamp(daysSince1970: day).civil
        days.insert(month * 100 + date)
        numbers += [Double(year), Double(month), Double(date)]
    }

    /// The figures of `answer` that are not allowed, as the answer writes them: numbers of two
    /// digits or more, or with decimals (one digit is too often a count in words elsewhere: "3"
    /// for "three"), and calendar days. A number that is the sum of two or more of the answer's
    /// allowed numbers, or the difference or product of two, is code's arithmetic checked, not
    /// the model's guess ("62 euros + 350 euros = 412 euros").
    func unstated(in answer: String, today: Int64) -> [String] {
        let found = Self.numbers(in: answer)
        let allowed = found.map(\.value).filter(isAllowed)
        var unstated: [String] = []
        for number in found where Self.isChecked(number.value) && !isAllowed(number.value) && !Self.isArithmetic(number.value, of: allowed) {
            if !unstated.contains(number.text) { unstated.append(number.text) }
        }
        for day in Deadlines.calendarDates(in: answer, created: today) {
            let (_, month, date) = Timestamp(daysSince1970: day).civil
            let spelled = "\(date) \(AskText.monthAbbreviations[month - 1])"
            if !days.contains(month * 100 + date), !unstated.contains(spelled) { unstated.append(spelled) }
        }
        return unstated
    }

    /// The names an English answer gives that none of `texts` holds (the cited notes, the
    /// question): words of three letters or more that begin with a capital inside a sentence
    /// ("Mollie", "Ziggo Dome"), but for days and months and the handles of notes. A name of
    /// another language's answer may be written in another script than its note's, and a
    /// German answer capitalizes every noun: only English answers are checked.
    static func unstatedNames(in answer: String, texts: [String]) -> [String] {
        let held = texts.flatMap(AskText.wordList)
        var unstated: [String] = []
        var sentenceStarts = true
        for token in answer.split(whereSeparator: \.isWhitespace) {
            let word = String(token.drop { !$0.isLetter }.prefix { $0.isLetter })
            defer { sentenceStarts = token.last.map { ".!?:".contains($0) } ?? false }
            guard !sentenceStarts, word.count > 2, word.first?.isUppercase == true, word.allSatisfy({ $0.isASCII }),
                  !Deadlines.namesWeekdayOrMonth(word.lowercased()), word.wholeMatch(of: /N[0-9]+/) == nil else { continue }
            let key = word.lowercased()
            if !held.contains(where: { AskCheck.sameWord(key, $0) }), !unstated.contains(word) { unstated.append(word) }
        }
        return unstated
    }

    private func isAllowed(_ value: Double) -> Bool { numbers.contains { abs($0 - value) < Self.tolerance } }

    static let tolerance = 0.005

    static func isChecked(_ value: Double) -> Bool { value >= 10 || value != value.rounded() }

    /// Whether `value` is the sum of two or more of `terms` (each used once), or the difference
    /// or the product of two.
    static func isArithmetic(_ value: Double, of terms: [Double]) -> Bool {
        let terms = Array(terms.prefix(maximumTerms))
        for (i, a) in terms.enumerated() {
            for b in terms[(i + 1)...] where abs(abs(a - b) - value) < tolerance || abs(a * b - value) < tolerance { return true }
        }
        guard terms.count >= 2 else { return false }
        for subset in 1..<(1 << terms.count) where subset.nonzeroBitCount >= 2 {
            let sum = terms.indices.filter { subset & (1 << $0) != 0 }.reduce(0.0) { $0 + terms[$1] }
            if abs(sum - value) < tolerance { return true }
        }
        return false
    }

    /// The answer's numbers looked at for its arithmetic, at most (2^12 sums).
    static let maximumTerms = 12

    /// The numbers in `text`, as written and as values: "1,150" is 1150, "12,50" and "12.50"
    /// are 12.5, "9:30" is 9 and 30, "3.2.2027" is 3, 2 and 2027; a time "2pm" is 2 and 14.
    static func numbers(in text: String) -> [(text: String, value: Double)] {
        let characters = Array(text.lowercased())
        var found: [(text: String, value: Double)] = []
        var index = 0
        while index < characters.count {
            guard characters[index].isASCII, characters[index].isNumber else { index += 1; continue }
            var end = index
            while end < characters.count, (characters[end].isASCII && characters[end].isNumber) || characters[end] == "," || characters[end] == "." {
                end += 1
            }
            let token = AskAmount.trimmed(Substring(String(characters[index..<end])))
            if let value = AskAmount.number(Substring(token)) {
                found.append((token, value))
            } else {
                for part in token.split(whereSeparator: { $0 == "," || $0 == "." }) where Double(part) != nil { found.append((String(part), Double(part)!)) }
            }
            // "2pm", "2:30 p.m.": the afternoon's hour on a 24-hour clock too ("14:00", "14:30").
            var after = end
            if after + 2 < characters.count, characters[after] == ":", characters[after + 1].isNumber, characters[after + 2].isNumber { after += 3 }
            while after < characters.count, characters[after] == " " { after += 1 }
            let next = String(characters[after..<min(characters.count, after + 4)])
            if let hour = Int(token), hour >= 1, hour < 12, next.hasPrefix("pm") || next.hasPrefix("p.m.") {
                found.append((token, Double(hour + 12)))
            }
            index = end
        }
        return found
    }
}
