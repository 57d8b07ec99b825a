// The checks on what the reader model writes: grounding, due days, urgency from the nearest
// due task, faithful summaries. No model needed.
import Notes
import Testing
@testable import AI
@testable import Analysis

struct ReadingChecksTests {
    /// A note written on Monday 2026-11-30.
    func note(_ body: String) throws -> Note {
        try NoteInput.makeNote(text: body, title: nil, extraTags: [], at: Timestamp(iso8601: "2026-11-30T09:00:00Z")!)
    }

    let monday = Timestamp(iso8601: "2026-11-30T09:00:00Z")!

    @Test func tasksAboutTheNoteAreKeptWithTheirDueDays() throws {
        let note = try note("Printer toner is blinking and we're out of coffee. I have to send the report by Friday.")
        let tasks = NoteAnalyzer.tasks(checklist: [], read: [
            ReadTask(task: "Replace the printer toner", due: ""),
            ReadTask(task: "Buy coffee", due: ""),
            ReadTask(task: "Send the report", due: "by Friday"),
            // An example's task, or an invention: no word of it is the note's.
            ReadTask(task: "Call the landlord about the dripping tap", due: ""),
            // A number the note does not have.
            ReadTask(task: "Pay the 450 euro invoice", due: ""),
            // One word of the note is not an action.
            ReadTask(task: "Printer", due: ""),
        ], note: note)
        #expect(tasks.map(\.text) == ["Replace the printer toner", "Buy coffee", "Send the report"])
        #expect(tasks.map(\.due) == [nil, nil, "2026-12-04"])
    }

    @Test func aNoteOfMarkupOnlyGroundsNoTaskButAnInlineTagStillCounts() throws {
        // Its tag and its ticked item are all it has: a task "about" them is the model's.
        let markup = try note("#  \n- [x] done already\n#home")
        #expect(NoteAnalyzer.groundingText(of: markup).trimmingWhitespace().isEmpty)
        #expect(NoteAnalyzer.tasks(checklist: [], read: [ReadTask(task: "Finish the home task", due: ""),
                                                         ReadTask(task: "Finish the task already done", due: "")], note: markup).isEmpty)
        // A tag inside a sentence is a word of it.
        let inline = try note("Call the #dentist tomorrow about the crown\n#health")
        #expect(NoteAnalyzer.tasks(checklist: [], read: [ReadTask(task: "Call the dentist", due: "tomorrow")], note: inline).map(\.text) == ["Call the dentist"])
        // A heading with words stays.
        let headed = try note("# Garage\nthe door sticks")
        #expect(NoteAnalyzer.tasks(checklist: [], read: [ReadTask(task: "Fix the garage door", due: "")], note: headed).map(\.text) == ["Fix the garage door"])
    }

    @Test func dueWordsTheNoteDoesNotHaveAreDropped() throws {
        let note = try note("Renew the passport, it expires soon.")
        let tasks = NoteAnalyzer.tasks(checklist: [], read: [ReadTask(task: "Renew the passport", due: "tomorrow")], note: note)
        #expect(tasks == [TaskItem(text: "Renew the passport", due: nil)])
    }

    @Test func checklistItemsComeFirstAndTheSameTaskIsNotTwice() throws {
        let note = try note("- [ ] buy milk tomorrow\nAlso we need milk and bread.")
        let tasks = NoteAnalyzer.tasks(checklist: NoteAnalyzer.checklistItems(in: note.body), read: [
            ReadTask(task: "Buy milk", due: "tomorrow"), ReadTask(task: "Buy bread", due: ""),
        ], note: note)
        #expect(tasks.map(\.text) == ["buy milk tomorrow", "Buy bread"])
        #expect(tasks[0].due == "2026-12-01")
    }

    @Test func aTickedItemIsNeverATaskAgain() throws {
        let note = try note("- [ ] prenotare il treno per Napoli\n- [x] comprare il regalo per la nonna")
        #expect(NoteAnalyzer.doneItems(in: note.body) == ["comprare il regalo per la nonna"])
        let tasks = NoteAnalyzer.tasks(checklist: NoteAnalyzer.checklistItems(in: note.body), read: [
            ReadTask(task: "Comprare il regalo per la nonna", due: ""),
        ], note: note)
        #expect(tasks.map(\.text) == ["prenotare il treno per Napoli"])
    }

    @Test func theReadingParsesWithItsCategory() throws {
        let content = try GeneratedContent(json: #"{"tasks": [{"task": "Πλήρωσε το ενοίκιο", "due": "αύριο"}], "summary": "", "category": "finance"}"#)
        let reading = try NoteReading(content)
        #expect(reading == NoteReading(tasks: [ReadTask(task: "Πλήρωσε το ενοίκιο", due: "αύριο")], summary: "", category: .finance))
        #expect(throws: GenerationDecodingError.self) {
            try NoteReading(GeneratedContent(json: #"{"tasks": [], "summary": "", "category": "hobbies"}"#))
        }
    }

    @Test func inflectedWordsOfOtherLanguagesCount() throws {
        let note = try note("Auton katsastus umpeutuu ensi kuussa ja renkaat ovat kuluneet.")
        let tasks = NoteAnalyzer.tasks(checklist: [], read: [ReadTask(task: "Varaa katsastusaika", due: "ensi kuussa")], note: note)
        #expect(tasks.map(\.text) == ["Varaa katsastusaika"])
    }

    @Test func urgencyFollowsTheNearestDueTask() {
        let today = monday
        func urgency(_ dues: [String?], pressing: Bool = false) -> Int {
            NoteAnalyzer.urgency(tasks: dues.map { TaskItem(text: "t", due: $0) }, pressing: pressing, today: today)
        }
        #expect(urgency([]) == 1)
        #expect(urgency([], pressing: true) == 1)
        #expect(urgency([nil]) == 2)
        #expect(urgency([nil], pressing: true) == 5)
        #expect(urgency(["2026-11-30"]) == 5)
        #expect(urgency(["2026-11-25"]) == 5)
        #expect(urgency(["2026-12-02", nil]) == 4)
        #expect(urgency(["2026-12-20", "2026-12-06"]) == 3)
        #expect(urgency(["2027-02-01"]) == 2)
        // Long past: history, not a fire.
        #expect(urgency(["2026-10-01"]) == 2)
    }

    @Test func summariesNameOnlyWhatTheNoteHas() throws {
        let note = try note("""
            Weekly sync. Ana walked through the outage: the cache node ran out of memory and took checkout \
            down for 40 minutes. We argued about the managed service for a long time. In the end we decided \
            to stay self-hosted and revisit in Q2. I write the postmortem by Wednesday.
            """)
        #expect(NoteAnalyzer.summary(read: "We stay self-hosted and revisit in Q2; I write the postmortem by Wednesday.", note: note)
            == "We stay self-hosted and revisit in Q2; I write the postmortem by Wednesday.")
        // A name and a number the note does not have: the note's opening instead.
        let opening = NoteAnalyzer.extract(from: note.body)
        #expect(NoteAnalyzer.summary(read: "Joel agreed to pay 1,800 euros.", note: note) == opening)
        #expect(NoteAnalyzer.summary(read: "the the the the the the the the", note: note) == opening)
    }

    @Test func numbersAreComparedAsDigits() {
        #expect(Grounding.numbers("It costs 12,000 euros, 3.5 hours, on 2026-12-04.") == ["12000", "35", "2026", "12", "04"])
        #expect(Grounding.isFaithful("The budget is 12000.", to: Grounding.folded("A budget of 12,000 was agreed.")))
        #expect(!Grounding.isFaithful("The budget is 13,000.", to: Grounding.folded("A budget of 12,000 was agreed.")))
    }

    @Test func theReaderPromptSaysTheWeekdayAndCutsAHugeNote() throws {
        let huge = try note(String(repeating: "Word ", count: 3_000))
        let prompt = NoteReader.prompt(for: huge)
        #expect(prompt.hasPrefix("Note written on 2026-11-30 (Monday):\n"))
        #expect(prompt.utf8.count < NoteReader.maximumNoteBytes + 200)
        #expect(prompt.hasSuffix("[the rest of the note is cut]"))
    }
}
