// An analyzer without a model, for the notebook's use cases and the daemon: checked against the
// same contract as NoteAnalyzer (Tests/NotebookTests/NoteAnalyzingContractTests.swift).
import Foundation
import Notes

/// Analyses without a model: the category from the first word, one task, and a hook that runs
/// during the analysis (a user editing meanwhile).
public final class FakeAnalyzer: NoteAnalyzing, @unchecked Sendable {
    public let analyzerVersion = "fake-1"
    public let readsNotes: Bool
    public var duringAnalysis: ((Note) throws -> Void)?
    public var failing: Set<String> = []
    public private(set) var calls: [(title: String, stage: AnalysisStage)] = []

    public init(readsNotes: Bool = true) { self.readsNotes = readsNotes }

    /// Why it cannot run, as a missing model would say; nil: it can.
    public var unavailable: String?
    public private(set) var prewarms = 0

    public func unavailableReason() -> String? { unavailable }
    public func prewarm() async throws { prewarms += 1 }

    /// Notes given their quick stage without the model.
    public private(set) var withoutModel: [String] = []

    public func quickAnalysis(_ note: Note, today: Timestamp, usingModel: Bool) async throws -> Analysis {
        if !usingModel { withoutModel.append(note.title) }
        return try result(note, today, .quick)
    }

    public func analyze(_ note: Note, today: Timestamp, partial: (@Sendable (String) -> Void)?) async throws -> Analysis {
        try result(note, today, .full)
    }

    /// Notes read together: `batchSize` above 1 makes the queue hand over several at once.
    public var batchSize = 1
    /// The titles each batch run was given, in order.
    public private(set) var batches: [[String]] = []
    /// Runs when a batch run is given a note (a user adding one meanwhile).
    public var whenGiven: ((Note) throws -> Void)?

    /// As a model would: `batchSize` notes at once, the first done first, each place taken by the
    /// next note at once.
    public func analyze(pulling next: @escaping @Sendable () async -> (note: Note, today: Timestamp)?,
                        done: @escaping @Sendable (Note, Result<Analysis, any Error>) async -> Void) async {
        batches.append([])
        var running: [(Note, Timestamp)] = []
        while true {
            while running.count < batchSize, let item = await next() {
                batches[batches.count - 1].append(item.note.title)
                try? whenGiven?(item.note)
                running.append(item)
            }
            guard !running.isEmpty else { return }
            let (note, today) = running.removeFirst()
            await done(note, Result { try result(note, today, .full) })
        }
    }

    public struct Failure: Error {}

    private func result(_ note: Note, _ today: Timestamp, _ stage: AnalysisStage) throws -> Analysis {
        calls.append((note.title, stage))
        if failing.contains(note.title) { throw Failure() }
        try duringAnalysis?(note)
        return Analysis(category: note.body.hasPrefix("Pay") ? .finance : .personal, urgency: 2,
                        tasks: [TaskItem(text: "Do " + note.title + (stage == .quick ? " (quick)" : ""), due: "2026-12-04")],
                        summary: note.title, model: "fake", analyzedAt: today, analyzerVersion: analyzerVersion,
                        contentHash: note.contentHash, stage: stage)
    }
}
