// The daemon's loop in-process: its wake-ups scripted, its clock and remotes fakes, the analyzer
// the queue's fake; each step of a script runs when the loop waits, so nothing waits on a clock.
import Analysis
import Foundation
import NotebookTestSupport
import Notes
import Storage
import Sync
import Synchronization
import Testing
import TestSupport
@testable import Notebook

/// The loop's waits, answered in order by the script's steps (a step may change the notebook
/// first, as a user would); past the end, a SIGTERM.
final class ScriptedWakeups: DaemonWakeups {
    private var steps: [() throws -> Wakeup]
    /// Each wait's timeout, in milliseconds.
    private(set) var timeouts: [Int32] = []

    init(_ steps: [() throws -> Wakeup]) { self.steps = steps }

    func pendingSignal() -> Int32? { nil }

    func wait(milliseconds: Int32, input: Int32?) -> Wakeup {
        timeouts.append(milliseconds)
        guard !steps.isEmpty else { return .signal(SIGTERM) }
        return (try? steps.removeFirst()()) ?? .signal(SIGTERM)
    }
}

final class RecordingLog: DaemonLogging, Sendable {
    private let recorded = Mutex<[String]>([])
    var lines: [String] { recorded.withLock { $0 } }

    func log(_ level: LogLevel, _ message: String) { recorded.withLock { $0.append(message) } }

    var forOtherThreads: @Sendable (LogLevel, String) -> Void {
        { [self] _, message in self.log(.info, message) }
    }

    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
}

final class FakeClock: Sendable {
    private let milliseconds = Mutex<Int64>(1_800_000_000_000)
    var now: Timestamp { Timestamp(milliseconds: milliseconds.withLock { $0 }) }
    func advance(_ by: Int64) { milliseconds.withLock { $0 += by } }
}

final class FakeRemotes: DaemonSyncing {
    var remote = true
    var failure: (any Error)?
    private(set) var syncs = 0

    func hasRemote() -> Bool { remote }

    func syncDefaultRemote() throws -> SyncSummary {
        syncs += 1
        if let failure { throw failure }
        return SyncSummary(remote: "usb", sent: 1, received: 0, merged: 0, conflicted: 0, commit: "", attempts: 1)
    }
}

/// `body` on a thread of its own, as the executable runs the daemon's loop or an analysis: they
/// block their thread while they wait for the analysis, which the tests' own pool must not lose.
func onThread<T: Sendable>(_ body: @escaping () throws -> T) async throws -> T {
    nonisolated(unsafe) let body = body
    return try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

struct NotebookDaemonTests {
    let directory = TemporaryDirectory()
    let store: NoteStore
    let analyzer = FakeAnalyzer()
    let clock = FakeClock()
    let log = RecordingLog()
    let remotes = FakeRemotes()
    /// The categories of the corrections `teach` was given, each time.
    let taught = Taught()

    final class Taught: Sendable {
        private let lessons = Mutex<[[String]]>([])
        var all: [[String]] { lessons.withLock { $0 } }
        func record(_ categories: [String]) { lessons.withLock { $0.append(categories) } }
    }

    init() throws {
        store = try NoteStore.open(home: directory.path)
        remotes.remote = false
    }

    var home: NotebookHome { NotebookHome(path: directory.path) }

    func daemon(_ change: (inout DaemonOptions) -> Void = { _ in }) -> NotebookDaemon<FakeAnalyzer> {
        var options = DaemonOptions()
        options.quickLane = false
        options.queryService = false
        options.keepAlive = KeepAlive(duration: nil)
        change(&options)
        let analyzer = self.analyzer, taught = self.taught, clock = self.clock, remotes = self.remotes
        let models = DaemonModels<FakeAnalyzer>(
            corrections: { store in ((try? store.categoryCorrections()) ?? []).map { CategoryCorrection(text: $0.text, category: $0.category, vector: nil) } },
            makeAnalyzer: { _ in analyzer },
            teach: { analyzer, corrections in
                taught.record(corrections.map(\.category.rawValue))
                return analyzer
            },
            makeEmbedder: { nil })
        return NotebookDaemon(home: home, options: options, models: models, log: log, clock: { clock.now },
                              remotes: { _ in remotes }, describe: { "\($0)" })
    }

    func serve(_ daemon: NotebookDaemon<FakeAnalyzer>, _ wakeups: ScriptedWakeups, asleepWith pending: Int? = nil) async throws -> NotebookDaemon<FakeAnalyzer>.Ending {
        nonisolated(unsafe) let daemon = daemon, wakeups = wakeups
        return try await onThread { try daemon.serve(wakeups: wakeups, asleepWith: pending) }
    }

    @discardableResult
    func add(_ text: String) throws -> Note {
        clock.advance(1_000)
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: clock.now)
        try store.insert(note)
        return note
    }

    @Test func itAnalysesWhatIsPendingThenWhatAChangeBringsAndStopsOnASignal() async throws {
        let first = try add("Pay the rent")
        var second: Note?
        let wakeups = ScriptedWakeups([
            { second = try add("Walk the dog"); return .changed },
            { .signal(SIGTERM) },
        ])
        #expect(try await serve(daemon(), wakeups) == .stopped)
        #expect(try store.analysis(for: first.id)?.stage == .full)
        #expect(try store.analysis(for: #require(second).id)?.stage == .full)
        #expect(analyzer.prewarms == 1)
        #expect(wakeups.timeouts.count == 2, "it waits only when nothing is pending")
        #expect(log.contains("started: pid") && log.contains("model ready in") && log.contains("analysed "))
        // The fake finds one task a note: said in the singular.
        #expect(log.lines.filter { $0.hasPrefix("analysed ") }.allSatisfy { $0.hasSuffix(", 1 task") }, "\(log.lines)")
        #expect(Array(log.lines.suffix(2)) == ["stopping on signal \(SIGTERM)", "stopped"])
        #expect(DaemonLock.runningPID(home: home) == nil, "the lock is given back on return")
    }

    @Test func onceItReturnsWhenThePendingWorkIsDoneWithoutWaiting() async throws {
        let note = try add("Pay the rent")
        let wakeups = ScriptedWakeups([])
        #expect(try await serve(daemon { $0.once = true }, wakeups) == .stopped)
        #expect(try store.analysis(for: note.id)?.stage == .full)
        #expect(wakeups.timeouts.isEmpty)
    }

    @Test func afterTheKeepAliveWithoutWorkTheModelsFallAsleepWithWhatIsStillPending() async throws {
        try add("Pay the rent")
        analyzer.failing = ["Pay the rent"]
        let wakeups = ScriptedWakeups([{ clock.advance(300_000); return .timeout }])
        let ending = try await serve(daemon { $0.keepAlive = .standard }, wakeups)
        #expect(ending == .modelsFellAsleep(pending: 1), "the failed note stays pending; it must not wake the next process")
        #expect(wakeups.timeouts.first.map { $0 <= 300_000 } == true)
        #expect(log.contains("no work for 5 min: the model sleeps"))
    }

    @Test func startedAsleepItLoadsNoModelUntilAChangeBringsWork() async throws {
        var added: Note?
        let wakeups = ScriptedWakeups([
            { .changed }, // a write that brings no work (a sync's bookkeeping)
            { added = try add("Walk the dog"); return .changed },
            { .signal(SIGTERM) },
        ])
        let prewarmsBeforeWork = Mutex<Int?>(nil)
        let analyzer = self.analyzer
        analyzer.duringAnalysis = { _ in prewarmsBeforeWork.withLock { $0 = $0 ?? analyzer.prewarms } }
        #expect(try await serve(daemon(), wakeups, asleepWith: 0) == .stopped)
        #expect(analyzer.calls.count == 2, "the new note's two stages, nothing before it")
        #expect(prewarmsBeforeWork.withLock { $0 } == 1)
        #expect(try store.analysis(for: #require(added).id)?.stage == .full)
        #expect(log.contains("started afresh without the models") && log.contains("a change brings work: the model wakes"))
    }

    @Test func aCategoryCorrectionIsTaughtAndTheModelPrewarmedWithIt() async throws {
        let note = try add("Band rehearsal on Friday")
        let wakeups = ScriptedWakeups([
            { try store.correct(note.id, category: .work, urgency: nil); return .changed },
            { .changed }, // nothing new: taught once
            { .signal(SIGTERM) },
        ])
        #expect(try await serve(daemon(), wakeups) == .stopped)
        #expect(taught.all == [["work"]])
        #expect(analyzer.prewarms == 2, "the examples are part of the prompt's fixed beginning")
        #expect(log.contains("category corrections changed"))
    }

    @Test func itSyncsSoonAfterStartThenTenSecondsAfterALocalChange() async throws {
        remotes.remote = true
        let wakeups = ScriptedWakeups([
            { clock.advance(2_000); return .timeout },
            { try add("Walk the dog"); return .changed },
            { clock.advance(10_000); return .timeout },
            { .signal(SIGTERM) },
        ])
        #expect(try await serve(daemon(), wakeups) == .stopped)
        #expect(remotes.syncs == 2)
        #expect(wakeups.timeouts.prefix(1) == [2_000])
        #expect(wakeups.timeouts.dropFirst(2).first == 10_000, "the wait after a change ends when its sync is due")
        #expect(log.lines.filter { $0 == "synced with usb: 1 sent, 0 received, 0 merged, 0 conflicted" }.count == 2)
    }

    @Test func aFailingSyncIsLoggedOnceUntilItSucceeds() async throws {
        remotes.remote = true
        remotes.failure = SyncError.passphrase("no passphrase")
        let wakeups = ScriptedWakeups([
            { clock.advance(2_000); return .timeout },
            { clock.advance(300_000); return .timeout },
            { remotes.failure = nil; clock.advance(300_000); return .timeout },
            { .signal(SIGTERM) },
        ])
        #expect(try await serve(daemon(), wakeups) == .stopped)
        #expect(remotes.syncs == 3)
        #expect(log.lines.filter { $0.hasPrefix("sync failed (retrying every 300 s)") }.count == 1)
        #expect(log.contains("synced with usb"), "the first success after failures is told")
    }

    @Test func withoutItsModelItWaitsSaysWhyAndStillGivesABacklogItsQuickStage() async throws {
        // A few notes get theirs from the quick lane (left out here); a backlog, from the loop.
        let notes = try (0...AnalysisQueue.quickBacklog).map { try add("Pay bill \($0) by Friday") }
        analyzer.unavailable = "no model file"
        let wakeups = ScriptedWakeups([{ .signal(SIGTERM) }])
        #expect(try await serve(daemon(), wakeups) == .stopped)
        #expect(log.contains("waiting for the model: no model file; \(notes.count) notes pending"))
        #expect(try notes.allSatisfy { try store.analysis(for: $0.id)?.stage == .quick })
        #expect(analyzer.prewarms == 0)
        #expect(wakeups.timeouts.first.map { $0 > 0 && $0 <= 60_000 } == true, "it looks for the model again within a minute")
    }

    @Test func aSecondDaemonOnTheSameNotebookIsRefused() async throws {
        let holder = try DaemonLock(home: home)
        await #expect(throws: DaemonLock.Failure.self) { try await serve(daemon(), ScriptedWakeups([])) }
        withExtendedLifetime(holder) {}
    }
}
