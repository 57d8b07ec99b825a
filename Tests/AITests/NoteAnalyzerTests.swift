// The note analyzer's rules that do not need the model: prompt, checklist items, word limits.
import Foundation
import Notes
import Testing
@testable import AI

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
        let tasks = NoteAnalyzer.withChecklistItems(["Book the venue for Saturday", "buy candles"], from: body)
        #expect(tasks == ["Book the venue for Saturday", "buy candles", "order cake", "call Mum"])
        let many = (1...6).map { "task \($0) thing\($0)" }
        let capped = NoteAnalyzer.withChecklistItems(many, from: body)
        #expect(capped.count == GeneratedAnalysis.maximumTasks)
        #expect(capped.contains("book the venue"))
        #expect(capped.contains("call Mum"))
    }

    @Test func promptCarriesDatesAndCutsLongNotes() throws {
        let created = Timestamp(iso8601: "2026-11-20")!
        let note = try NoteInput.makeNote(text: "Dentist tomorrow\n" + String(repeating: "x", count: 10_000), title: nil, extraTags: [], at: created)
        let prompt = NoteAnalyzer.prompt(for: note, today: Timestamp(iso8601: "2026-11-21T10:00:00Z")!)
        #expect(prompt.hasPrefix("Created: 2026-11-20\nToday: 2026-11-21\nNote:\nDentist tomorrow\n"))
        #expect(prompt.hasSuffix("[the rest of the note is cut]"))
        #expect(prompt.utf8.count < NoteAnalyzer.maximumNoteBytes + 100)
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
