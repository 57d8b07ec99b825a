// The daemon's side of the analysis queue: prewarming, and a log line for each note.
import Notes
import Storage

struct AnalysisWorker {
    let queue: AnalysisQueue
    let log: any DaemonLogging
    let clock: @Sendable () -> Timestamp
    private(set) var ready = false
    private let backlog = Backlog()

    init(store: NoteStore, analyzer: any NoteAnalyzing, embedder: (any TextEmbedding)?, log: any DaemonLogging, clock: @escaping @Sendable () -> Timestamp) {
        self.log = log
        self.clock = clock
        // The handle a person would type, as `notes list` shows it.
        let handle = { (id: NoteID) in (try? store.handle(of: id)) ?? id.rawValue }
        queue = AnalysisQueue(store: store, analyzer: analyzer, embedder: embedder, clock: clock) { event in
            switch event {
            case let .embedded(notes, milliseconds): log.info("vectors of \(notes.count) note\(notes.count == 1 ? "" : "s") in \(milliseconds) ms")
            case let .embeddingFailed(notes, error): log.error("cannot make the vectors of \(notes.count) notes: \(error)")
            case let .started(id, stage): log.info("analysing \(handle(id))\(stage == .quick ? " (quick)" : "")")
            case let .stored(id, analysis, milliseconds):
                log.info("analysed \(handle(id))\(analysis.stage == .quick ? " (quick)" : "") in \(milliseconds) ms: "
                    + "\(analysis.category.rawValue), urgency \(analysis.urgency), \(analysis.tasks.count) task\(analysis.tasks.count == 1 ? "" : "s")")
            case let .changedMeanwhile(id): log.info("note \(handle(id)) changed while it was analysed; analysing it again")
            case let .failed(id, error): log.error("cannot analyse \(handle(id)): \(error)")
            }
        }
    }

    mutating func prewarm() throws {
        let started = clock().milliseconds
        let analyzer = queue.analyzer
        try waitFor { try await analyzer.prewarm() }
        ready = true
        log.info("model ready in \(clock().milliseconds - started) ms")
    }

    /// A backlog's quick stage or a batch of vectors, without the analyzer's model; false when
    /// neither has work.
    func stepWithoutModel() throws -> Bool {
        let queue = self.queue
        return try waitFor { try await queue.stepWithoutModel() }
    }

    /// Analyses one note (a quick analysis before any full one); false when nothing is pending.
    /// `stopping`: asked while a note (or a batch) is analysed; true cancels it, and the notes
    /// stay pending for the next start.
    func analyzeNext(stopping: @escaping () -> Bool) throws -> Bool {
        let queue = self.queue
        let before = try queue.pendingCount()
        let worked = try waitFor({ try await queue.step(.both) }, cancelWhen: stopping)
        if let line = try backlog.step(worked: worked, pendingBefore: before, pendingAfter: queue.pendingCount(), now: clock().milliseconds) {
            log.info(line)
        }
        return worked
    }
}
