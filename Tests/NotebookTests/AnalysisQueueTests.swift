// The analysis pipeline with a fake analyzer: quick before full, newest first for the quick
// stage, stale results refused, failures not retried until an edit, corrections kept.
import Foundation
import NotebookTestSupport
import Notes
import Storage
import Testing
@testable import Notebook

struct AnalysisQueueTests {
    let store: NoteStore
    let clock = { Timestamp(iso8601: "2026-11-30T09:00:00Z")! }

    init() throws { store = try NoteStore(database: Database(path: ":memory:")) }

    func add(_ text: String, at minute: Int64) throws -> Note {
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(milliseconds: 1_800_000_000_000 + minute * 60_000))
        try store.insert(note)
        return note
    }

    @Test func quickAnalysesComeFirstNewestFirstThenFullOnesOldestFirst() async throws {
        let older = try add("Pay the rent", at: 1)
        let newer = try add("Walk the dog", at: 2)
        let analyzer = FakeAnalyzer()
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        #expect(try queue.pendingCount() == 2)
        try await queue.step()
        #expect(try store.analysis(for: newer.id)?.stage == .quick)
        #expect(try store.analysis(for: older.id) == nil)
        while try await queue.step() {}
        #expect(analyzer.calls.map(\.title) == ["Walk the dog", "Pay the rent", "Pay the rent", "Walk the dog"])
        #expect(analyzer.calls.map(\.stage) == [.quick, .quick, .full, .full])
        let full = try #require(try store.analysis(for: older.id))
        #expect(full.stage == .full && full.category == .finance)
        #expect(full.tasks == [TaskItem(text: "Do Pay the rent", due: "2026-12-04")])
        #expect(try queue.pendingCount() == 0)
    }

    @Test func aBacklogIsReadInBatchesAndASingleNoteAlone() async throws {
        let notes = try (1...5).map { try add("Note \($0)", at: Int64($0)) }
        let analyzer = FakeAnalyzer()
        analyzer.batchSize = 3
        analyzer.failing = ["Note 2"]
        var failed: [NoteID] = []
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock) { event in
            if case let .failed(id, _) = event { failed.append(id) }
        }
        try await queue.step(.fullOnly)
        #expect(analyzer.batches == [["Note 1", "Note 2", "Note 3", "Note 4", "Note 5"]],
                "oldest change first, each done note's place taken by the next in the same run")
        #expect(failed == [notes[1].id], "a note that fails does not fail its batch")
        #expect(try notes.map { try store.analysis(for: $0.id)?.stage } == [.full, nil, .full, .full, .full])
        #expect(try await queue.step(.fullOnly) == false, "the failed note is not retried until edited")
        // One pending note is analysed alone at once, not held back for a batch.
        let single = try add("Note 6", at: 6)
        try await queue.step(.fullOnly)
        #expect(analyzer.batches.count == 1 && analyzer.calls.last?.title == "Note 6")
        #expect(try store.analysis(for: single.id)?.stage == .full)
    }

    @Test func aNoteAddedDuringABatchStopsItTakingMoreSoItsQuickStageComesNext() async throws {
        _ = try (1...6).map { try add("Note \($0)", at: Int64($0)) }
        let analyzer = FakeAnalyzer()
        analyzer.batchSize = 2
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        while try await queue.step(.quickOnly) {}
        var added: Note?
        analyzer.whenGiven = { [store] note in
            guard note.title == "Note 2", added == nil else { return }
            added = try NoteInput.makeNote(text: "Call the plumber", title: nil, extraTags: [], at: Timestamp(milliseconds: 1_800_000_000_000 + 99 * 60_000))
            try store.insert(added!)
        }
        try await queue.step(.both)
        #expect(analyzer.batches == [["Note 1", "Note 2"]], "no note is taken after the new one arrives; those given are finished")
        #expect(try store.analysis(for: #require(added).id) == nil)
        try await queue.step(.both)
        #expect(try store.analysis(for: #require(added).id)?.stage == .quick, "the new note's quick stage is the next step")
        try await queue.step(.both)
        #expect(analyzer.batches.last?.first == "Call the plumber", "and its full stage is the first of the next batch, before the backlog")
        while try await queue.step(.both) {}
        #expect(try queue.pendingCount() == 0)
    }

    @Test func aLargeBacklogGetsItsQuickStageWithoutTheModelAndASmallOneWithIt() async throws {
        let count = AnalysisQueue.quickBacklogBatch + AnalysisQueue.quickBacklog + 1
        _ = try (1...count).map { try add("Note \($0)", at: Int64($0)) }
        let analyzer = FakeAnalyzer()
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        try await queue.step(.both)
        #expect(analyzer.withoutModel == (0..<AnalysisQueue.quickBacklogBatch).map { "Note \(count - $0)" },
                "one step gives the newest \(AnalysisQueue.quickBacklogBatch) their quick stage, without the model")
        try await queue.step(.both)
        #expect(analyzer.withoutModel.count == AnalysisQueue.quickBacklogBatch + AnalysisQueue.quickBacklog + 1,
                "while more than \(AnalysisQueue.quickBacklog) wait, the next step does the same")
        let added = try add("Call the plumber", at: Int64(count + 1))
        try await queue.step(.both)
        #expect(analyzer.calls.last?.title == added.title && analyzer.withoutModel.last != added.title,
                "a single new note gets the model's quick stage")
        while try await queue.step(.both) {}
        #expect(try queue.pendingCount() == 0)
    }

    @Test func aBatchRunHandsOverAtMostItsLengthThenTheStepReturns() async throws {
        let count = AnalysisQueue.batchRunLength * 2 + 1
        _ = try (1...count).map { try add("Note \($0)", at: Int64($0)) }
        let analyzer = FakeAnalyzer()
        analyzer.batchSize = 2
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        try await queue.step(.fullOnly)
        #expect(analyzer.batches.map(\.count) == [AnalysisQueue.batchRunLength * 2])
        while try await queue.step(.fullOnly) {}
        #expect(try queue.pendingCount() == 0)
    }

    @Test func withoutAModelThatReadsThereIsOneStage() async throws {
        _ = try add("Pay the rent", at: 1)
        let analyzer = FakeAnalyzer(readsNotes: false)
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        while try await queue.step() {}
        #expect(analyzer.calls.count == 1)
    }

    @Test func quickOnlyAndFullOnly() async throws {
        let note = try add("Walk the dog", at: 1)
        let analyzer = FakeAnalyzer()
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        while try await queue.step(.quickOnly) {}
        #expect(try store.analysis(for: note.id)?.stage == .quick)
        #expect(try queue.pendingCount() == 1)
        while try await queue.step(.fullOnly) {}
        #expect(try store.analysis(for: note.id)?.stage == .full)
        // A quick result never replaces the full one of the same text.
        #expect(try await queue.step(.quickOnly) == false)
        try await queue.analyze(note.id)
        #expect(analyzer.calls.map(\.stage) == [.quick, .full, .full])
    }

    @Test func aResultForTextEditedMeanwhileIsRefusedAndTheNoteStaysPending() async throws {
        var note = try add("Walk the dog", at: 1)
        let analyzer = FakeAnalyzer()
        var events: [String] = []
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock) { event in
            if case .changedMeanwhile = event { events.append("changed") }
        }
        let store = self.store
        analyzer.duringAnalysis = { current in
            guard current.body == "Walk the dog" else { return }
            note.body = "Walk the dog twice"
            note.updated = Timestamp(milliseconds: note.updated.milliseconds + 1000)
            try store.update(note)
        }
        try await queue.step(.fullOnly)
        #expect(events == ["changed"])
        #expect(try store.analysis(for: note.id) == nil)
        while try await queue.step(.fullOnly) {}
        #expect(try store.analysis(for: note.id)?.contentHash == note.contentHash)
    }

    @Test func aFailedNoteIsSkippedUntilEdited() async throws {
        var broken = try add("Broken note", at: 1)
        let fine = try add("Fine note", at: 2)
        let analyzer = FakeAnalyzer()
        analyzer.failing = ["Broken note"]
        var failures = 0
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock) { event in
            if case .failed = event { failures += 1 }
        }
        while try await queue.step(.fullOnly) {}
        #expect(failures == 1)
        #expect(try store.analysis(for: fine.id) != nil)
        analyzer.failing = []
        broken.body = "Broken note, mended"
        broken.updated = Timestamp(milliseconds: broken.updated.milliseconds + 1000)
        try store.update(broken)
        while try await queue.step(.fullOnly) {}
        #expect(try store.analysis(for: broken.id) != nil)
    }

    @Test func doneMarksAndCorrectionsOutliveTheFullAnalysis() async throws {
        let note = try add("Pay the rent", at: 1)
        let analyzer = FakeAnalyzer()
        let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        try await queue.step(.quickOnly)
        try store.correct(note.id, category: .work, urgency: 5)
        try await queue.step(.fullOnly)
        let analysis = try #require(try store.analysis(for: note.id))
        #expect(analysis.category == .work && analysis.urgency == 5 && analysis.stage == .full)
    }
}
