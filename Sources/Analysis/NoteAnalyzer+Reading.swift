// The checks code makes on what the reader model wrote: a task must be about the note (its words
// and numbers are the note's), a due date comes from the note's own words by date arithmetic,
// and a summary may name only names and numbers the note has. Pure functions, testable
// without a model.
import AI
import Notes

extension NoteAnalyzer {
    /// The tasks of a note: its checklist items verbatim, then the reader's tasks that pass the
    /// grounding check and are not a ticked item, without two that say the same thing; each
    /// with its due day.
    static func tasks(checklist: [String], read: [ReadTask], note: Note) -> [TaskItem] {
        let created = note.created.milliseconds.floorDays
        let folded = Grounding.folded(NoteText.fullText(title: note.title, body: note.body))
        let grounds = Grounding.folded(groundingText(of: note))
        var result: [TaskItem] = []
        func add(_ text: String, dueWords: String) {
            let text = text.trimmingWhitespace().droppingTrailing(".;,")
            guard !text.isEmpty, result.count < GeneratedAnalysis.maximumTasks,
                  !result.contains(where: { TaskText.sameTask($0.text, text) }) else { return }
            result.append(TaskItem(text: text, due: dueDay(dueWords, task: text, created: created)))
        }
        for item in checklist { add(item, dueWords: "") }
        let done = NoteAnalyzer.doneItems(in: note.body)
        // One word is a label, not an action ("HACKED" from a note that tries to instruct the model).
        for task in read where task.task.split(whereSeparator: \.isWhitespace).count >= 2 && Grounding.isAbout(task.task, folded: grounds)
            && !done.contains(where: { TaskText.sameTask($0, task.task) }) {
            // Words for "when" that the note does not have are the model's invention.
            let due = task.due.trimmingWhitespace()
            add(task.task, dueWords: !due.isEmpty && folded.contains(Grounding.folded(due)) ? due : "")
        }
        return result
    }

    /// The text a reader's task must be about: the note without its ticked items (done is
    /// done) and without its lines of tags or heading marks alone ("#home" files a note, it
    /// asks for nothing: a note of markup only has no task to ground, however the model reads
    /// it). A title the user gave is kept; one taken from the first line goes with that line.
    static func groundingText(of note: Note) -> String {
        let kept = note.body.split(whereSeparator: \.isNewline).filter { line in
            let trimmed = line.trimmingWhitespace()
            if NoteAnalyzer.doneItems(in: trimmed).count == 1 { return false }
            return !trimmed.split(separator: " ").allSatisfy { $0.hasPrefix("#") }
        }.joined(separator: "\n")
        return note.title == NoteText.title(from: note.body) ? kept : note.title + "\n" + kept
    }

    /// The day the words name, counted from the day the note was written; the task's own text
    /// is read when the words name none ("Pay the rent by Friday").
    static func dueDay(_ words: String, task: String, created: Int64) -> String? {
        for text in [words, task] where !text.isEmpty {
            if let days = Deadlines.read(text, created: created, today: created).daysLeft {
                return Timestamp(milliseconds: (created + Int64(days)) * 86_400_000).day
            }
        }
        return nil
    }

    /// The urgency of the scale in the instructions, from the nearest due task: no task is 1,
    /// always; a task whose day passed more than `Deadlines.forgottenAfterDays` ago is history.
    static func urgency(tasks: [TaskItem], pressing: Bool, today: Timestamp) -> Int {
        guard !tasks.isEmpty else { return 1 }
        let todayDays = today.milliseconds.floorDays
        let left = tasks.compactMap { $0.due.flatMap { Timestamp(iso8601: $0 + "T00:00:00Z") } }
            .map { Int($0.milliseconds.floorDays - todayDays) }
            .filter { $0 >= -Deadlines.forgottenAfterDays }
        return Deadlines.urgency(DeadlineReading(daysLeft: left.min(), isPressing: pressing), hasTasks: true)
    }

    /// The reader's summary when it is faithful to the note (`Grounding.isFaithful`), does not
    /// loop and is about the note; else the note's opening. Cut at 30 words.
    static func summary(read: String, note: Note) -> String {
        let body = note.body
        let text = NoteText.fullText(title: note.title, body: body)
        let cut = limitWords(withoutRepetition(read.trimmingWhitespace()), to: GeneratedAnalysis.maximumSummaryWords)
        guard !cut.isEmpty, !stutters(cut), Grounding.isFaithful(cut, to: Grounding.folded(text)),
              Grounding.isAbout(cut, folded: Grounding.folded(text)) else { return extract(from: body) }
        return withoutTags(cut)
    }
}

/// Comparing what a model wrote with the note it read, in any language: case folded (the model
/// copies accents as the note writes them), words compared by their first five letters so that
/// inflected forms meet ("katsastus" and "katsastuksen", "grudnia" and "grudzień" do not, which
/// errs on the side of dropping).
enum Grounding {
    static func folded(_ text: String) -> String { text.lowercased() }

    static func words(_ folded: String) -> [Substring] {
        folded.split { !$0.isLetter && !$0.isNumber }
    }

    /// Every number the text writes, as digits only: "12,000" and "12000" are one.
    static func numbers(_ text: String) -> [String] {
        let characters = Array(text)
        var found: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            if character.isASCII, character.isNumber {
                current.append(character)
            } else if character == "," || character == ".", !current.isEmpty, index + 1 < characters.count,
                      characters[index + 1].isASCII, characters[index + 1].isNumber {
                continue
            } else if !current.isEmpty {
                found.append(current)
                current = ""
            }
        }
        if !current.isEmpty { found.append(current) }
        return found
    }

    /// At least one of the text's content words (3 letters or more) starts the same way as a
    /// word of the note, and every number it writes is one of the note's.
    static func isAbout(_ text: String, folded note: String) -> Bool {
        let noteWords = Set(words(note).map { String($0.prefix(5)) })
        let own = words(folded(text)).filter { $0.count >= 3 && !TaskText.stopWords.contains(String($0)) }
        guard own.contains(where: { noteWords.contains(String($0.prefix(5))) }) else { return false }
        let noteNumbers = Set(numbers(note))
        return numbers(text).allSatisfy { noteNumbers.contains($0) || $0.count == 1 }
    }

    /// Every number, and every capitalised word that does not begin a sentence (a name), is in
    /// the note.
    static func isFaithful(_ summary: String, to note: String) -> Bool {
        let noteNumbers = Set(numbers(note))
        guard numbers(summary).allSatisfy({ noteNumbers.contains($0) }) else { return false }
        let noteWords = Set(words(note).map(String.init))
        var sentenceStart = true
        for word in summary.split(whereSeparator: \.isWhitespace) {
            let letters = word.filter { $0.isLetter }
            if let first = letters.first, first.isUppercase, !sentenceStart, letters.count > 1 {
                if !noteWords.contains(folded(String(letters))) { return false }
            }
            if let last = word.last { sentenceStart = ".!?:;".contains(last) }
        }
        return true
    }
}

extension Int64 {
    /// Days since 1970-01-01 for a time in milliseconds, rounding down before 1970 too.
    var floorDays: Int64 { self >= 0 ? self / 86_400_000 : (self - 86_399_999) / 86_400_000 }
}
