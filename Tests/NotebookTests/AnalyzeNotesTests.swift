// `notes analyze` in-process: vectors before analyses, what each selection analyses, and the
// refusals, with the queue's fake analyzer and the search's fake embedder.
import Foundation
import NotebookTestSupport
import Notes
import Testing
import TestSupport
@testable import Notebook

struct AnalyzeNotesTests {
    let directory = TemporaryDirectory()
    let notebook: LocalNotebook
    let analyzer = FakeAnalyzer()
    let embedder = FakeEmbedder()
    let clock = { Timestamp(iso8601: "2026-11-30T09:00:00Z")! }

    init() throws { notebook = try LocalNotebook.open(NotebookHome(path: directory.path)) }

    @discardableResult
    func add(_ text: String, at minute: Int64) throws -> Note {
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(milliseconds: 1_800_000_000_000 + minute * 60_000))
        try notebook.store.insert(note)
        return note
    }

    /// The run's events in a few words each.
    func run(_ selection: AnalyzeNotes.Selection, embedder: (any TextEmbedding)? = nil) async throws -> [String] {
        nonisolated(unsafe) let analyze = AnalyzeNotes(notebook: notebook, analyzer: analyzer, embedder: embedder, clock: clock)
        return try await onThread { try Self.events(of: analyze, selection) }
    }

    static func events(of analyze: AnalyzeNotes, _ selection: AnalyzeNotes.Selection) throws -> [String] {
        var told: [String] = []
        try analyze.run(selection) { event in
            switch event {
            case let .vectorsToMake(count): told.append("vectors \(count)")
            case let .vectorsMade(count): told.append("made \(count)")
            case let .vectorsFailed(notes, _): told.append("vectors failed \(notes)")
            case let .toAnalyse(count): told.append("analyse \(count)")
            case let .analysed(_, analysis, stored, done): told.append("\(done): \(analysis?.summary ?? "-") \(stored ? "stored" : "not stored")")
            }
        }
        return told
    }

    @Test func theVectorsComeFirstThenThePendingNotesOldestFirst() async throws {
        let older = try add("Pay the rent", at: 1)
        try add("Walk the dog", at: 2)
        #expect(try await run(.pending, embedder: embedder) == ["vectors 2", "made 2", "analyse 2", "1: Pay the rent stored", "2: Walk the dog stored"])
        #expect(try notebook.analysis(for: older.id)?.stage == .full)
        #expect(analyzer.prewarms == 1)
        #expect(try await run(.pending, embedder: embedder) == ["analyse 0"], "nothing again: no vectors lack, nothing is pending")
    }

    @Test func namedNotesAreAnalysedAgainInTheirOrderWithoutVectors() async throws {
        let first = try add("Pay the rent", at: 1)
        let second = try add("Walk the dog", at: 2)
        _ = try await run(.pending)
        #expect(try await run(.notes([second.id, first.id]), embedder: embedder) == ["analyse 2", "1: Walk the dog stored", "2: Pay the rent stored"])
        #expect(embedder.embedded.isEmpty, "ids analyse those notes, and only them")
    }

    @Test func withoutTheModelNothingIsAnalysedAndTheNotesStayPending() async throws {
        let note = try add("Pay the rent", at: 1)
        try add("Walk the dog", at: 2)
        analyzer.unavailable = "no model file"
        await #expect(throws: AnalyzeNotes.Refusal(description: "the model is unavailable: no model file. 2 notes stay pending; see 'notes model'.")) {
            try await run(.pending)
        }
        #expect(try notebook.analysis(for: note.id) == nil)
        #expect(analyzer.prewarms == 0)
    }

    @Test func aBacklogsQuickStageNeedsNoModel() async throws {
        let notes = try (0...AnalysisQueue.quickBacklog).map { try add("Bill \($0)", at: Int64($0)) }
        analyzer.unavailable = "no model file"
        let told = try await run(.quickPending)
        #expect(told.first == "analyse \(notes.count)" && told.count == notes.count + 1)
        #expect(try notes.allSatisfy { try notebook.analysis(for: $0.id)?.stage == .quick })
        #expect(analyzer.withoutModel.count == notes.count)
    }

    @Test func vectorsOnlyMakesNoAnalysisAndIsRefusedWithoutAnEmbeddingModel() async throws {
        let note = try add("Pay the rent", at: 1)
        await #expect(throws: AnalyzeNotes.Refusal(description: "cannot make vectors: off (NOTES_EMBEDDING_MODEL=none)")) { try await run(.vectorsOnly) }
        #expect(try await run(.vectorsOnly, embedder: embedder) == ["vectors 1", "made 1"])
        #expect(try notebook.analysis(for: note.id) == nil)
    }

    @Test func aNoteThatFailsEndsTheRunAndWhatWasStoredStays() async throws {
        let first = try add("Pay the rent", at: 1)
        try add("Walk the dog", at: 2)
        analyzer.failing = ["Walk the dog"]
        await #expect(throws: FakeAnalyzer.Failure.self) { try await run(.pending) }
        #expect(try notebook.analysis(for: first.id)?.stage == .full)
    }

    @Test func aFailingEmbedderIsToldAndTheAnalysesStillRun() async throws {
        try add("Pay the rent", at: 1)
        embedder.failing = true
        let told = try await run(.pending, embedder: embedder)
        #expect(told.prefix(2) == ["vectors 1", "vectors failed 1"])
        #expect(told.last == "1: Pay the rent stored")
    }
}
