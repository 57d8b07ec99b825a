// The quick lane stores a new note's quick analysis while the daemon's loop is held: a model
// that loads, a full analysis that runs, or no model at all (asleep). Each hold is a gate the
// test opens only after the quick analysis is stored, so no test waits on a clock.
import Foundation
import Notes
import Storage
import Synchronization
import Testing
@testable import Notebook

/// Shut until `open()`; `wait()` returns once it is open. `entered` tells when someone waits.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
    let entered: AsyncStream<Void>
    private let enteredContinuation: AsyncStream<Void>.Continuation

    init() { (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self) }

    var isOpen: Bool { state.withLock { $0.open } }

    func wait() async {
        enteredContinuation.yield()
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        for continuation in state.withLock({ state in defer { state.waiting = [] }; state.open = true; return state.waiting }) {
            continuation.resume()
        }
    }
}

/// An analyzer whose model load (`prewarm`) and full stage wait at gates; its quick stage never does.
final class HeldAnalyzer: NoteAnalyzing {
    let analyzerVersion = "held-1"
    let readsNotes = true
    let load = Gate()
    let full = Gate()
    private let counts = Mutex<(prewarms: Int, quickWithModel: Int)>((0, 0))
    var prewarms: Int { counts.withLock { $0.prewarms } }
    var quickWithModel: Int { counts.withLock { $0.quickWithModel } }

    func unavailableReason() -> String? { nil }

    func prewarm() async throws {
        counts.withLock { $0.prewarms += 1 }
        await load.wait()
    }

    func quickAnalysis(_ note: Note, today: Timestamp, usingModel: Bool) async throws -> Analysis {
        if usingModel { counts.withLock { $0.quickWithModel += 1 } }
        return analysis(note, today, .quick)
    }

    func analyze(_ note: Note, today: Timestamp, partial: (@Sendable (String) -> Void)?) async throws -> Analysis {
        await full.wait()
        return analysis(note, today, .full)
    }

    private func analysis(_ note: Note, _ today: Timestamp, _ stage: AnalysisStage) -> Analysis {
        Analysis(category: .personal, urgency: 2, tasks: [TaskItem(text: "Do " + note.title)], summary: note.title, model: "held",
                 analyzedAt: today, analyzerVersion: analyzerVersion, contentHash: note.contentHash, stage: stage)
    }
}

final class QuickLaneTests {
    let home = NSTemporaryDirectory() + "notes-quick-lane-" + UUID().uuidString
    let store: NoteStore
    let analyzer = HeldAnalyzer()
    let clock: @Sendable () -> Timestamp = { Timestamp(iso8601: "2026-11-30T09:00:00Z")! }
    /// The notes the lane stored, and at which stage.
    let stored: AsyncStream<(NoteID, AnalysisStage)>
    private let storedContinuation: AsyncStream<(NoteID, AnalysisStage)>.Continuation
    private var minute: Int64 = 0

    init() throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        store = try NoteStore.open(home: home)
        (stored, storedContinuation) = AsyncStream.makeStream(of: (NoteID, AnalysisStage).self)
    }

    deinit { try? FileManager.default.removeItem(atPath: home) }

    func add(_ text: String) throws -> Note {
        minute += 1
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(milliseconds: 1_800_000_000_000 + minute * 60_000))
        try store.insert(note)
        return note
    }

    func startLane() throws -> QuickLane {
        let home = self.home, continuation = storedContinuation
        return try QuickLane(openStore: { try NoteStore.open(home: home) }, analyzer: analyzer, clock: clock, report: { event, _ in
            if case let .stored(id, analysis, _) = event { continuation.yield((id, analysis.stage)) }
        }, failed: { error in Issue.record(error) })
    }

    /// Waits until the lane has stored the quick analysis of `note`.
    func quickStored(_ note: Note) async {
        for await (id, stage) in stored where id == note.id && stage == .quick { return }
    }

    /// The daemon's loop, held in its model's load: a note there at the start and one added
    /// during the load both get their quick analysis before the load ends.
    @Test func coldStartAndPrewarm() async throws {
        let first = try add("Dentist tomorrow at 17:30")
        let loop = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        let lane = try startLane()
        let analyzer = self.analyzer
        let prewarm = Task { try await analyzer.prewarm() }
        await quickStored(first)
        for await _ in analyzer.load.entered { break }
        let second = try add("Pay the electricity bill by Friday")
        lane.notebookChanged()
        await quickStored(second)
        #expect(!analyzer.load.isOpen)
        #expect(try store.analysis(for: second.id)?.stage == .quick)
        analyzer.load.open()
        try await prewarm.value
        _ = loop
        await lane.stop()
    }

    /// Asleep (no model loaded, none loading): the quick analysis needs none.
    @Test func asleep() async throws {
        let lane = try startLane()
        let note = try add("Renew the passport next month")
        lane.notebookChanged()
        await quickStored(note)
        #expect(analyzer.prewarms == 0 && analyzer.quickWithModel == 0)
        await lane.stop()
    }

    /// Waking: a change brought work, the models load again, and a note added meanwhile does not
    /// wait for them.
    @Test func waking() async throws {
        let lane = try startLane()
        let waker = try add("Call the bank")
        lane.notebookChanged()
        await quickStored(waker)
        let analyzer = self.analyzer
        let wake = Task { try await analyzer.prewarm() }
        for await _ in analyzer.load.entered { break }
        let note = try add("Book the car service for Tuesday")
        lane.notebookChanged()
        await quickStored(note)
        #expect(!analyzer.load.isOpen)
        analyzer.load.open()
        try await wake.value
        await lane.stop()
    }

    /// Another note's full analysis runs on the daemon's loop: the new note's quick analysis is
    /// stored before it ends, and the full one is stored after.
    @Test func whileAFullAnalysisRuns() async throws {
        let long = try add("A long note about the kitchen: call the plumber, order tiles, check the invoice")
        let loop = AnalysisQueue(store: store, analyzer: analyzer, clock: clock)
        let lane = try startLane()
        await quickStored(long)
        let full = Task { try await loop.step(.fullOnly) }
        for await _ in analyzer.full.entered { break }
        let note = try add("Buy milk on the way home")
        lane.notebookChanged()
        await quickStored(note)
        #expect(!analyzer.full.isOpen)
        #expect(try store.analysis(for: long.id)?.stage == .quick)
        analyzer.full.open()
        #expect(try await full.value)
        #expect(try store.analysis(for: long.id)?.stage == .full)
        await lane.stop()
    }
}
