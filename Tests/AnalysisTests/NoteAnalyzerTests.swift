// The note analyzer's rules that do not need the model: prompt, checklist items, word limits.
import Foundation
import Notes
import Testing
import TestSupport
@testable import AI
@testable import Analysis

struct NoteAnalyzerTests {
    @Test func instructionsAreTheEvaluationsPrompt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("bench/analysis/prompt.txt"), encoding: .utf8)
        let system = file[file.range(of: "\n\n")!.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(NoteAnalyzer.instructions == system)
    }

    @Test func checklistItemsAlwaysBecomeTasks() {
        let body = "Plan\n- [ ] book the venue\n- [x] send invites\n* [ ] order cake\nTODO: call Mum\nsome text"
        #expect(NoteAnalyzer.checklistItems(in: body) == ["book the venue", "order cake", "call Mum"])
        #expect(NoteAnalyzer.tasks(in: body) == ["book the venue", "order cake", "call Mum"])
        let many = (1...6).map { "plan thing\($0) item\($0)" }
        let capped = NoteAnalyzer.tasks(in: body + "\n" + many.joined(separator: "\n"))
        #expect(capped.count == GeneratedAnalysis.maximumTasks)
        #expect(capped.prefix(3) == ["book the venue", "order cake", "call Mum"])
    }

    @Test func aChecklistItemAlsoWrittenAsASentenceIsOneTask() {
        let body = "- [ ] update the release notes\nI need to update the release notes once it lands."
        #expect(NoteAnalyzer.tasks(in: body) == ["update the release notes"])
    }

    @Test func instructionsInTheNoteBecomeTasks() {
        let body = """
        Chem 201 problem set 8 due Friday. Go to the help desk Wednesday with Dr. Lee!
        Don't paste passwords in Slack. Nothing else for me.
        - call the bank about the fee
        I need to update the release notes.
        """
        #expect(NoteAnalyzer.instructions(in: body) == ["Go to the help desk Wednesday with Dr. Lee", "Call the bank about the fee", "Update the release notes"])
        #expect(NoteAnalyzer.instructions(in: "Met Luis. Lunch was good. Watch it.").isEmpty)
        #expect(NoteAnalyzer.instructions(in: "Call the dentist tomorrow about the crown #health") == ["Call the dentist tomorrow about the crown"])
    }

    @Test func instructionsAreSplitAtClauses() {
        #expect(NoteAnalyzer.instructions(in: "Email Dr. Okafor today and submit the report tonight.")
                == ["Email Dr. Okafor today", "Submit the report tonight"])
        #expect(NoteAnalyzer.instructions(in: "Refill the meds — only 1 pill left. Q3 is confusing, go to the help desk.")
                == ["Refill the meds", "Go to the help desk"])
        #expect(NoteAnalyzer.instructions(in: "Buy milk, eggs and bread, the shop closes at 8") == ["Buy milk, eggs and bread"],
                "a short part after a comma is a list item; a longer one is a remark")
        #expect(NoteAnalyzer.instructions(in: "Bring popcorn and the projector") == ["Bring popcorn and the projector"])
        #expect(NoteAnalyzer.instructions(in: "Plan: one test a week") == [], "a label, not a verb")
        #expect(NoteAnalyzer.instructions(in: "Priya owns the migration, I'll update the notes") == ["Update the notes"])
        #expect(NoteAnalyzer.instructions(in: "9–11 write the design doc") == ["Write the design doc"])
        #expect(NoteAnalyzer.instructions(in: "Reunión el lunes: preparar la demo y mandar la agenda")
                == ["Preparar la demo", "Mandar la agenda"])
    }

    @Test func nounsThatLookLikeVerbsAndHeadingsAreNotTasks() {
        #expect(NoteAnalyzer.instructions(in: "Study group meets Saturday 2pm. Phone bill went up. Back to work Monday.").isEmpty)
        #expect(NoteAnalyzer.instructions(in: "## File systems\nInodes hold metadata.").isEmpty)
        #expect(NoteAnalyzer.instructions(in: "Make notes on chapter 2") == ["Make notes on chapter 2"])
    }

    @Test func itIsWhatTheSentenceBeforeWasAbout() {
        #expect(NoteAnalyzer.instructions(in: "Tax: the quarterly VAT return is due today. Log in and file it.")
                == ["File the quarterly VAT return"])
        #expect(NoteAnalyzer.instructions(in: "Sold the bike. Put it in savings.") == ["Put it in savings"], "no subject to stand for")
    }

    @Test func listsWhoseHeadingSaysWhatToDoBecomeTasks() {
        #expect(NoteAnalyzer.listTasks(in: "Books to read next: The Overstory, Piranesi and Dune.")
                == ["Read The Overstory", "Read Piranesi", "Read Dune"])
        #expect(NoteAnalyzer.listTasks(in: "# Groceries\n- milk\n- rice\n\nOther stuff") == ["Buy milk", "Buy rice"])
        #expect(NoteAnalyzer.listTasks(in: "Liste de courses : poulet, citrons") == ["Acheter poulet", "Acheter citrons"])
        #expect(NoteAnalyzer.listTasks(in: "Time zones: Lisbon UTC+0, Berlin UTC+1").isEmpty)
        #expect(NoteAnalyzer.tasks(in: "Books to read: Piranesi, Dune") == ["Read Piranesi", "Read Dune"],
                "two tasks that share only their verb are both kept")
    }

    @Test func anAppointmentIsSomethingToAttend() {
        #expect(NoteAnalyzer.instructions(in: "Dentist appointment Wednesday 8:30.") == ["Attend dentist appointment Wednesday 8:30"])
        #expect(NoteAnalyzer.instructions(in: "Cita con el médico el viernes.") == ["Ir a la cita con el médico el viernes"])
        #expect(NoteAnalyzer.instructions(in: "Call the dentist to move the appointment.") == ["Call the dentist to move the appointment"])
    }

    @Test func promptCarriesDatesAndCutsLongNotes() throws {
        let created = Timestamp(iso8601: "2026-11-20")!
        let note = try NoteInput.makeNote(text: "Dentist tomorrow\n" + String(repeating: "x", count: 10_000), title: nil, extraTags: [], at: created)
        let prompt = NoteAnalyzer.prompt(for: note, today: Timestamp(iso8601: "2026-11-21T10:00:00Z")!)
        #expect(prompt.hasPrefix("Created: 2026-11-20\nToday: 2026-11-21\nNote:\nDentist tomorrow\n"))
        #expect(prompt.hasSuffix("[the rest of the note is cut]"))
        #expect(prompt.utf8.count < NoteAnalyzer.maximumNoteBytes + 100)
    }

    @Test func aSummaryAboutAnotherNoteGivesWayToTheNotesOpening() {
        let body = "# Dentist\n- Wednesday 8:30, Dr. Novak\nCleaning + check the left molar"
        #expect(NoteAnalyzer.summary(model: "Dentist on Wednesday at 8:30 for a cleaning.", body: body) == "Dentist on Wednesday at 8:30 for a cleaning.")
        #expect(NoteAnalyzer.summary(model: "A good day with a long walk by the lake with Sam.", body: body)
                == "Dentist; Wednesday 8:30, Dr. Novak; Cleaning + check the left molar")
        #expect(NoteAnalyzer.summary(model: "", body: body).hasPrefix("Dentist;"))
        #expect(NoteAnalyzer.summary(model: "Dentist on Wednesday #health", body: body + " #health") == "Dentist on Wednesday")
        #expect(NoteAnalyzer.summary(model: "Dentist: 8.1.1.1.1.1.1.1.1", body: body).hasPrefix("Dentist; Wednesday"), "a loop inside a word")
        #expect(!NoteAnalyzer.stutters("Dentist at 8:30... then cleaning, 10.00 EUR"))
        #expect(NoteAnalyzer.summary(model: "Dentist: 2026-11-12. Today: 2026-11-12. Note: cleaning", body: body).hasPrefix("Dentist; Wednesday"),
                "an echo of the prompt's lines")
    }

    @Test func aShortNoteIsItsOwnSummary() {
        #expect(NoteAnalyzer.ownSummary(of: "# Dentist\n- Wednesday 8:30\nBring the card #health") == "Dentist; Wednesday 8:30; Bring the card")
        #expect(NoteAnalyzer.ownSummary(of: String(repeating: "word ", count: 30) + "#a #b #c") != nil, "tags are not words")
        #expect(NoteAnalyzer.ownSummary(of: String(repeating: "word ", count: 31)) == nil, "longer notes go to the model")
        #expect(NoteAnalyzer.ownSummary(of: "#work #later") == nil, "nothing but tags")
        #expect(NoteAnalyzer.ownSummary(of: "- [ ] \n---") == nil)
    }

    @Test func theOpeningSkipsCodeAndCheckboxesAndEndsAtASentence() {
        #expect(NoteAnalyzer.opening(of: "```bash\nkubectl rollout restart\n```\nRestarted the ledger.") == "Restarted the ledger.")
        #expect(NoteAnalyzer.opening(of: "- [x] read chapter 7\n- [ ] do exercises") == "read chapter 7; do exercises")
        let long = "First sentence has exactly seven words here. " + String(repeating: "more words in a very long sentence ", count: 6)
        #expect(NoteAnalyzer.opening(of: long) == "First sentence has exactly seven words here. more words in a very long sentence more words in a very long sentence more words in a very long sentence more words…",
                "one short sentence would lose most of the 30 words: cut at 30 with an ellipsis")
        let sentences = String(repeating: "One two three four five six seven eight. ", count: 5)
        #expect(NoteAnalyzer.opening(of: sentences).split(separator: " ").count == 24, "three whole sentences, not 30 words")
    }

    @Test func summariesComeFromTheNoteUnlessAsked() {
        #expect(NoteAnalyzer.Summaries.fromEnvironment([:]) == .note)
        #expect(NoteAnalyzer.Summaries.fromEnvironment(["NOTES_SUMMARIES": "Model"]) == .model)
        #expect(NoteAnalyzer.Summaries.fromEnvironment(["NOTES_SUMMARIES": "ai"]) == nil)
        #expect(!NoteAnalyzer.extract(from: "#work #later").isEmpty, "a note of tags alone still gets a summary")
        #expect(NoteAnalyzer.extract(from: "Call the bank #finance") == "Call the bank")
    }

    @Test func correctionsFollowTheBuiltInCategoryExamples() {
        let corrections: [(text: String, category: Category)] = [("Choir\nrehearsal Tuesday", .personal), ("Board   numbers", .work)]
        let scorer = CategoryScorer(model: LanguageModel(configuration: ModelConfiguration(modelPath: "/nonexistent.gguf")), corrections: corrections)
        let instructions = scorer.session.instructions ?? ""
        #expect(instructions.hasPrefix(CategoryScorer.examples))
        // Newest first in, so newest last out: nearest the note being classified.
        #expect(instructions.hasSuffix("Note: Board numbers\nCategory: work\n\nNote: Choir rehearsal Tuesday\nCategory: personal\n\n"))
    }

    @Test func aTagNamingOneCategoryIsTheUsersWord() throws {
        let at = Timestamp(iso8601: "2026-11-20")!
        #expect(NoteAnalyzer.taggedCategory(try NoteInput.makeNote(text: "Quarterly report #work", title: nil, extraTags: [], at: at)) == .work)
        #expect(NoteAnalyzer.taggedCategory(try NoteInput.makeNote(text: "Report #work #finance", title: nil, extraTags: [], at: at)) == nil)
        #expect(NoteAnalyzer.taggedCategory(try NoteInput.makeNote(text: "Report #urgent", title: nil, extraTags: [], at: at)) == nil)
    }

    @Test func aQuickAnalysisWithoutTheModelTakesItsCategoryFromTagsAndKeywords() async throws {
        let analyzer = NoteAnalyzer(model: LanguageModel(configuration: ModelConfiguration(modelPath: "/nonexistent.gguf")))
        let at = Timestamp(iso8601: "2026-11-20")!
        func category(_ text: String) async throws -> Category {
            try await analyzer.quickAnalysis(try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: at), today: at, usingModel: false).category
        }
        #expect(try await category("Book the dentist, the tooth pain is back") == .health)
        #expect(try await category("Pay the electricity bill and the rent by Friday") == .finance)
        #expect(try await category("Dentist invoice to pay #health") == .health, "a tag naming a category wins")
        #expect(try await category("Zebras have black skin under their stripes") == .other, "no keyword: other")
        let quick = try await analyzer.quickAnalysis(try NoteInput.makeNote(text: "- [ ] call the plumber", title: nil, extraTags: [], at: at), today: at, usingModel: false)
        #expect(quick.stage == .quick && quick.tasks.map(\.text) == ["call the plumber"])
    }

    @Test func summariesAreCutToThirtyWords() {
        let long = (1...45).map { "word\($0)" }.joined(separator: " ")
        #expect(NoteAnalyzer.limitWords(long, to: 30).split(separator: " ").count == 30)
        #expect(NoteAnalyzer.limitWords("  short one ", to: 30) == "short one")
    }

    @Test func repetitionLoopsAreCut() {
        #expect(NoteAnalyzer.withoutRepetition("Dental care about the crown; dental care about dental care about dental care about")
                == "Dental care about the crown")
        #expect(NoteAnalyzer.withoutRepetition("A plain summary without loops.") == "A plain summary without loops.")
        #expect(NoteAnalyzer.withoutRepetition("one two") == "one two")
    }

    @Test func generatedContentBecomesATypedAnalysis() throws {
        let content = try GeneratedContent(json: #"{"category": "health", "urgency": 4, "tasks": ["call"], "summary": "s"}"#)
        #expect(try GeneratedAnalysis(content) == GeneratedAnalysis(category: .health, urgency: 4, tasks: ["call"], summary: "s"))
        #expect(throws: GenerationDecodingError.self) {
            try GeneratedAnalysis(try GeneratedContent(json: #"{"category": "chores", "urgency": 4, "tasks": [], "summary": "s"}"#))
        }
    }
}

/// The whole analysis on the real default model: the category by likelihood, the urgency from
/// the deadline, tasks from the note's own instructions, a summary within its limit.
@Suite(.enabled(if: DefaultModelFile.isPresent, "the default model is not installed"))
struct NoteAnalyzerModelTests {
    @Test func aNoteWithADeadlineIsAnalysedEndToEnd() async throws {
        let model = LanguageModel(configuration: ModelConfiguration(modelPath: DefaultModelFile.path, contextSize: 3_072, threads: 1))
        let analyzer = NoteAnalyzer(model: model)
        try await analyzer.prewarm()
        let created = Timestamp(iso8601: "2026-11-25T08:00:00Z")!
        let note = try NoteInput.makeNote(text: "Credit card statement: payment of $642 due tomorrow. Pay it in full to avoid interest.",
                                          title: nil, extraTags: [], at: created)
        let analysis = try await analyzer.analyze(note, today: created, partial: nil)
        #expect(analysis.urgency == 4, "due the day after it was written")
        #expect(analysis.tasks.contains { $0.text.hasPrefix("Pay it in full") })
        #expect(!analysis.summary.isEmpty && analysis.summary.split(separator: " ").count <= 30)
        #expect(analysis.contentHash == note.contentHash)
        #expect(analysis.analyzerVersion == analyzer.analyzerVersion)
        // The same note, analysed again, gets the same answer: decoding is greedy.
        let again = try await analyzer.analyze(note, today: created, partial: nil)
        #expect(again.category == analysis.category && again.tasks == analysis.tasks && again.summary == analysis.summary)
        #expect(analysis.summary == "Credit card statement: payment of $642 due tomorrow. Pay it in full to avoid interest.", "a short note is its own summary")
    }

    @Test func aLongNoteGetsAGeneratedSummaryAsItStreams() async throws {
        let model = LanguageModel(configuration: ModelConfiguration(modelPath: DefaultModelFile.path, contextSize: 3_072, threads: 1))
        let analyzer = NoteAnalyzer(model: model, summaries: .model)
        try await analyzer.prewarm()
        let created = Timestamp(iso8601: "2026-11-25T08:00:00Z")!
        let text = "Kitchen renovation planning. The contractor came by this morning and measured everything. "
            + "He thinks the old cabinets can stay but the countertop and the sink must be replaced, and the wiring behind the oven is not safe. "
            + "Quote expected next week. Ask him about the tiles too."
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: created)
        let seen = Counter()
        let analysis = try await analyzer.analyze(note, today: created, partial: { _ in seen.increment() })
        #expect(seen.value > 1, "the summary streams while it is generated")
        #expect(!analysis.summary.isEmpty && analysis.summary.split(separator: " ").count <= 30)
        #expect(analysis.tasks.map(\.text).contains("Ask him about the tiles too"))
        #expect(analysis.analyzerVersion.hasSuffix("/generated"), "switching where summaries come from re-analyses notes")

        // By default the summary is the note's opening, and nothing is generated.
        let plain = NoteAnalyzer(model: model)
        try await plain.prewarm()
        let extracted = try await plain.analyze(note, today: created, partial: nil)
        #expect(extracted.summary == "Kitchen renovation planning. The contractor came by this morning and measured everything. "
                + "He thinks the old cabinets can stay but the countertop and the sink must be replaced, and the…")
        #expect(extracted.category == analysis.category && extracted.tasks == analysis.tasks)
    }
}

/// Counts calls from a @Sendable closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
