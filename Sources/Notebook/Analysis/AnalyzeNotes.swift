// `notes analyze` as a use case: the vectors a notebook lacks first, then the chosen notes'
// analyses in the foreground, each step told as an event for the executable to print.
import Notes

public final class AnalyzeNotes {
    /// Which analyses to run.
    public enum Selection: Sendable, Equatable {
        /// The notes without a full analysis of their current text (the default, `--stale`).
        case pending
        /// The quick stage of the notes without any analysis of their text (`--quick`).
        case quickPending
        /// These notes, analysed again, in this order (ids, or `--all`).
        case notes([NoteID])
        /// Only the vectors (`--vectors`).
        case vectorsOnly
    }

    public enum Event {
        /// Vectors are made for this many notes (told before the first).
        case vectorsToMake(Int)
        /// This many notes' vectors are made so far.
        case vectorsMade(Int)
        case vectorsFailed(notes: Int, error: any Error)
        /// This many notes are analysed (told before the first, when there is any).
        case toAnalyse(Int)
        /// A note's analysis, stored, or not (`stored` false: the note changed meanwhile, and
        /// `analysis` is nil); `done` counts the notes so far.
        case analysed(NoteID, Analysis?, stored: Bool, done: Int)
    }

    /// Why nothing was analysed: the words the user reads.
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    let analyzer: any NoteAnalyzing
    let embedder: (any TextEmbedding)?
    let queue: AnalysisQueue
    private var report: (Event) -> Void = { _ in }
    private var failure: (any Error)?
    private var done = 0

    public init(notebook: LocalNotebook, analyzer: any NoteAnalyzing, embedder: (any TextEmbedding)?, clock: @escaping () -> Timestamp) {
        self.analyzer = analyzer
        self.embedder = embedder
        var forward: (AnalysisEvent) -> Void = { _ in }
        queue = AnalysisQueue(notebook: notebook, analyzer: analyzer, embedder: embedder, clock: clock) { forward($0) }
        forward = { [unowned self] in self.queueReported($0) }
    }

    /// Runs the selection, telling each step to `report`. Without a selection of ids, every
    /// note's vectors are brought current first. `partial(done)`: where the response of the
    /// next note (`done` notes before it) streams, if anywhere. The first failure of a note
    /// ends the run (what is stored stays).
    public func run(_ selection: Selection, partial: (Int) -> (@Sendable (String) -> Void)? = { _ in nil },
                    report: @escaping (Event) -> Void) throws {
        self.report = report
        defer { self.report = { _ in } }
        if selection == .vectorsOnly, let missing = TextEmbeddings.missing(embedder) {
            throw Refusal(description: "cannot make vectors: \(missing)")
        }
        if case .notes = selection {} else if embedder?.unavailableReason() == nil {
            let lacking = try queue.lackingVectorCount()
            if lacking > 0 {
                done = 0
                report(.vectorsToMake(lacking))
                while try queue.embedNext() {}
            }
        }
        if selection == .vectorsOnly { return }
        done = 0
        let total: Int
        switch selection {
        case let .notes(ids): total = ids.count
        case .quickPending: total = try queue.pendingQuickCount()
        default: total = try queue.pendingCount()
        }
        report(.toAnalyse(total))
        guard total > 0 else { return }
        // A backlog's quick stage needs no model; a few notes' loads only the category's, on first use.
        let quick = selection == .quickPending
        let usesModel = try !quick || queue.quickStageUsesModel()
        if usesModel, let reason = analyzer.unavailableReason() {
            throw Refusal(description: "the model is unavailable: \(reason). \(total) note\(total == 1 ? "" : "s") stay pending; see 'notes model'.")
        }
        let analyzer = self.analyzer, queue = self.queue
        if !quick { try waitFor { try await analyzer.prewarm() } }
        if case let .notes(ids) = selection {
            for id in ids {
                let stream = partial(done)
                try waitFor { try await queue.analyze(id, partial: stream) }
                try throwFailure()
            }
        } else {
            let stages: AnalysisQueue.Stages = quick ? .quickOnly : .fullOnly
            while true {
                let stream = partial(done)
                guard try waitFor({ try await queue.step(stages, partial: stream) }) else { break }
                try throwFailure()
            }
        }
    }

    private func throwFailure() throws {
        if let failure {
            self.failure = nil
            throw failure
        }
    }

    private func queueReported(_ event: AnalysisEvent) {
        switch event {
        case .started: return
        case let .embedded(stored, _):
            done += stored.count
            report(.vectorsMade(done))
        case let .embeddingFailed(notes, error): report(.vectorsFailed(notes: notes.count, error: error))
        case let .stored(id, analysis, _):
            done += 1
            report(.analysed(id, analysis, stored: true, done: done))
        case let .changedMeanwhile(id):
            done += 1
            report(.analysed(id, nil, stored: false, done: done))
        case let .failed(_, error):
            done += 1
            failure = error
        }
    }
}
