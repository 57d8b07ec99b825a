// The analysis pipeline: take the next note that needs analysing, analyse it, and store the
// result only if the note still has the text that was analysed. Used by `notes analyze` and the
// daemon alike; tested with a fake analyzer.
import Notes
import Storage

/// What happened to one note, for the caller's log or display.
public enum AnalysisEvent {
    case started(NoteID, AnalysisStage)
    case stored(NoteID, Analysis, milliseconds: Int64)
    /// The note was edited or deleted while it was analysed: the result was dropped, and the
    /// note is pending again.
    case changedMeanwhile(NoteID)
    /// Not retried in this process until the note is edited.
    case failed(NoteID, any Error)
    /// Vectors stored for these notes (the first part of the quick stage).
    case embedded([NoteID], milliseconds: Int64)
    /// Vectors could not be made for these notes: not retried in this process until edited.
    case embeddingFailed([NoteID], any Error)
}

/// Two stages. A note with no analysis of its current text gets a quick one first (no
/// generation, so a new note has its category and deadlines within moments), newest change
/// first, and before that (with an embedder) its vectors, several notes a step; a backlog of
/// more than `quickBacklog` gets its quick stage without the model, before the vectors, even
/// when the analyzer does not read notes (its full stage is then the scorer's). Then,
/// when the analyzer reads notes with a model, every note lacking a full analysis gets one,
/// oldest change first: when more than one is pending, up to the analyzer's
/// `batchSize` are read at once, the next taking the place of each one done. Call `step()`
/// until it returns false. A single pending note is analysed at once, alone; a new note stops a
/// running batch from taking more, so that its quick stage comes within seconds, and its full
/// stage is the first of the next batch.
///
/// Not thread-safe: one owner calls it, one step at a time (the CLI, from its main thread).
public final class AnalysisQueue: @unchecked Sendable {
    let store: NoteStore
    public let analyzer: any NoteAnalyzing
    /// Makes the notes' vectors; nil: none are made (search by words only).
    let embedder: (any TextEmbedding)?
    let clock: () -> Timestamp
    let report: (AnalysisEvent) -> Void
    /// Notes (id and content hash) whose analysis failed here: skipped until edited.
    private var failed: Set<String> = []
    /// Notes (id and content hash) whose vectors failed here: skipped until edited.
    private var failedVectors: Set<String> = []

    /// Notes embedded together in one step: their chunks share the model's batches.
    static let embeddingBatch = 16

    public init(store: NoteStore, analyzer: any NoteAnalyzing, embedder: (any TextEmbedding)? = nil, clock: @escaping () -> Timestamp,
                report: @escaping (AnalysisEvent) -> Void = { _ in }) {
        self.store = store
        self.analyzer = analyzer
        self.embedder = embedder
        self.clock = clock
        self.report = report
    }

    public convenience init(notebook: LocalNotebook, analyzer: any NoteAnalyzing, embedder: (any TextEmbedding)? = nil,
                            clock: @escaping () -> Timestamp, report: @escaping (AnalysisEvent) -> Void = { _ in }) {
        self.init(store: notebook.store, analyzer: analyzer, embedder: embedder, clock: clock, report: report)
    }

    /// Notes without current vectors (0 without an embedder).
    public func lackingVectorCount() throws -> Int {
        guard let embedder else { return 0 }
        return try store.lackingVectorCount(model: embedder.version)
    }

    /// Makes and stores the vectors of up to `embeddingBatch` notes that lack current ones, most
    /// recent change first; false when none is left (or the embedder cannot run: then it says
    /// why through `unavailableReason`). A vector is stored only if its note still has the text
    /// that was embedded.
    @discardableResult
    public func embedNext() throws -> Bool {
        guard let embedder, embedder.unavailableReason() == nil else { return false }
        let notes = try store.notesLackingVectors(model: embedder.version, limit: failedVectors.count + Self.embeddingBatch)
            .filter { !failedVectors.contains(key($0)) }.prefix(Self.embeddingBatch)
        guard !notes.isEmpty else { return false }
        let started = clock().milliseconds
        do {
            let stored = try embedder.embedAndStore(Array(notes), in: store)
            report(.embedded(stored, milliseconds: clock().milliseconds - started))
        } catch {
            failedVectors.formUnion(notes.map(key))
            report(.embeddingFailed(notes.map(\.id), error))
        }
        return true
    }

    /// Notes still lacking a full analysis.
    public func pendingCount() throws -> Int { try store.pendingAnalysisCount(analyzerVersion: analyzer.analyzerVersion) }

    /// Notes without any analysis of their current text: what the quick stage has to do.
    public func pendingQuickCount() throws -> Int { try store.pendingQuickAnalysis().count }

    /// Which stages `step` runs: the daemon both; `notes analyze` the full one (a quick result
    /// it would replace at once is not worth storing); `notes analyze --quick` the quick one.
    public enum Stages: Sendable { case both, quickOnly, fullOnly }

    /// Analyses one note, the quick stage before the full one, after the vectors of a batch of
    /// notes that lack them; false when nothing is pending.
    @discardableResult
    public func step(_ stages: Stages = .both, partial: (@Sendable (String) -> Void)? = nil) async throws -> Bool {
        let quickStage = stages == .quickOnly || (stages == .both && analyzer.readsNotes)
        // A backlog's quick stage comes first even when the full stage is the scorer alone
        // (no reader): at 0.6 s a note, that would leave an import without categories for long.
        if stages != .fullOnly, try await quickBacklogStep() { return true }
        if try embedNext() { return true }
        if quickStage, let note = try waitingForQuickStage(upTo: 1).first {
            await runQuick(note, usingModel: true)
            return true
        }
        guard stages != .quickOnly else { return false }
        newNotesArrived = false
        let size = max(1, analyzer.batchSize)
        let notes = try next(in: try fullCandidates(limit: failed.count + size), count: size)
        guard let first = notes.first else { return false }
        if stages == .both, analyzer.readsNotes, try lacksQuickAnalysis(first) {
            // Added between the question for quick analyses above and this one.
            await run(first, stage: .quick)
            return true
        }
        if notes.count == 1 {
            fresh.removeAll { $0 == first.id }
            await run(first, stage: .full, partial: partial)
        } else {
            await runBatch(stopForNewNotes: stages == .both)
        }
        return true
    }

    /// More notes than this waiting for their quick stage (an import, a sync that brought
    /// hundreds) get it without the model, `quickBacklogBatch` a step, before their vectors: on 2
    /// cores the model's category takes about 0.6 s a note, so a thousand would wait ten minutes
    /// for categories that their full stage gives again anyway.
    static let quickBacklog = 8
    static let quickBacklogBatch = 64

    /// What a step can do while the analyzer's model is not loaded (missing, or asleep): a
    /// backlog's quick stage, then vectors; false when neither has work.
    public func stepWithoutModel() async throws -> Bool {
        if try await quickBacklogStep() { return true }
        return try embedNext()
    }

    /// Whether the quick stage of the notes waiting for it now would use the model: false for a
    /// backlog (more than `quickBacklog`), whose quick stage needs no model at all.
    public func quickStageUsesModel() throws -> Bool {
        try waitingForQuickStage(upTo: Self.quickBacklog + 1).count <= Self.quickBacklog
    }

    /// Up to `count` notes waiting for their quick stage (none of this text's analysis), newest
    /// change first, those that failed here left out.
    private func waitingForQuickStage(upTo count: Int) throws -> [Note] {
        try next(in: try store.pendingQuickAnalysis(limit: failed.count + count), count: count)
    }

    /// The quick stage without the model for up to `quickBacklogBatch` notes, if more than
    /// `quickBacklog` wait for it; false otherwise.
    private func quickBacklogStep() async throws -> Bool {
        try await quickStepWithoutModel(ifMoreThan: Self.quickBacklog)
    }

    /// The quick stage without the model for up to `quickBacklogBatch` notes waiting for it,
    /// newest change first, however few; false when none waits (`QuickLane`'s step).
    public func quickStepWithoutModel() async throws -> Bool {
        try await quickStepWithoutModel(ifMoreThan: 0)
    }

    private func quickStepWithoutModel(ifMoreThan minimum: Int) async throws -> Bool {
        let waiting = try waitingForQuickStage(upTo: Self.quickBacklogBatch)
        guard waiting.count > minimum else { return false }
        let inBacklog = waiting.count > Self.quickBacklog
        for note in waiting { await runQuick(note, usingModel: false, inBacklog: inBacklog) }
        return true
    }

    private func runQuick(_ note: Note, usingModel: Bool, inBacklog: Bool = false) async {
        await run(note, stage: .quick, usingModel: usingModel, inBacklog: inBacklog)
        if newNotesArrived, fresh.count < max(1, analyzer.batchSize) * Self.batchRunLength { fresh.append(note.id) }
    }

    /// Analyses this note fully now, whatever analysis it has (`notes analyze ID`, `--all`).
    public func analyze(_ id: NoteID, partial: (@Sendable (String) -> Void)? = nil) async throws {
        guard let note = try store.note(id) else { return }
        await run(note, stage: .full, partial: partial)
    }

    private func next(in candidates: [NoteID]) throws -> Note? {
        try next(in: candidates, count: 1).first
    }

    private func next(in candidates: [NoteID], count: Int) throws -> [Note] {
        var notes: [Note] = []
        for id in candidates where notes.count < count {
            if let note = try store.note(id), !failed.contains(key(note)) { notes.append(note) }
        }
        return notes
    }

    /// Notes that arrived while a batch ran (it stopped taking more for them) and got their
    /// quick stage since, not yet handed to the full stage: it takes them first, so that a new
    /// note does not wait behind a backlog. Otherwise full analyses go oldest change first.
    private var fresh: [NoteID] = []
    private var newNotesArrived = false

    /// Notes lacking a full analysis, those just added first, then oldest change first.
    private func fullCandidates(limit: Int) throws -> [NoteID] {
        // One given its full analysis elsewhere meanwhile (`notes analyze`) is no longer fresh.
        fresh = try fresh.filter { try store.analysis(for: $0)?.stage != .full }
        let pending = try store.pendingAnalysis(analyzerVersion: analyzer.analyzerVersion, limit: limit)
        return fresh + pending.filter { !fresh.contains($0) }
    }

    /// Notes a batch run hands over at most, in batches' worth: the caller gets a step back
    /// every minute or two of a long backlog.
    static let batchRunLength = 8

    /// The notes of the running batch (handed to the analyzer, not yet stored), with when each
    /// was handed over, and how many it has been given.
    private var inBatch: [NoteID: Int64] = [:]
    private var handedInBatch = 0

    /// The full stage of the pending notes, several at once: the analyzer asks for the next
    /// pending note whenever one is done, until `batchRunLength` batches' worth, none is left,
    /// or (`stopForNewNotes`) a note waits for its quick stage: then the notes already in the
    /// batch are finished and the step ends, so that the new note's quick stage is next.
    private func runBatch(stopForNewNotes: Bool) async {
        inBatch = [:]
        handedInBatch = 0
        let limit = max(1, analyzer.batchSize) * Self.batchRunLength
        await analyzer.analyze(pulling: { [self] in
            do {
                guard handedInBatch < limit else { return nil }
                if stopForNewNotes, !(try waitingForQuickStage(upTo: 1).isEmpty) {
                    newNotesArrived = true
                    return nil
                }
                let candidates = try fullCandidates(limit: failed.count + inBatch.count + 1)
                guard let note = try next(in: candidates.filter { inBatch[$0] == nil }) else { return nil }
                if stopForNewNotes, try lacksQuickAnalysis(note) {
                    newNotesArrived = true
                    return nil
                }
                fresh.removeAll { $0 == note.id }
                handedInBatch += 1
                inBatch[note.id] = clock().milliseconds
                report(.started(note.id, .full))
                return (note, clock())
            } catch {
                return nil
            }
        }, done: { [self] note, result in
            let started = inBatch.removeValue(forKey: note.id) ?? clock().milliseconds
            store(result, of: note, stage: .full, started: started)
        })
    }

    private func run(_ note: Note, stage: AnalysisStage, usingModel: Bool = true, inBacklog: Bool = false,
                     partial: (@Sendable (String) -> Void)? = nil) async {
        let analyzer = self.analyzer
        let today = clock()
        let started = clock().milliseconds
        report(.started(note.id, stage))
        let result: Result<Analysis, any Error>
        do {
            result = .success(stage == .quick ? try await analyzer.quickAnalysis(note, today: today, usingModel: usingModel, inBacklog: inBacklog)
                : try await analyzer.analyze(note, today: today, partial: partial))
        } catch {
            result = .failure(error)
        }
        store(result, of: note, stage: stage, started: started)
    }

    /// Stores an analysis if its note still has the text analysed, and says what happened.
    private func store(_ result: Result<Analysis, any Error>, of note: Note, stage: AnalysisStage, started: Int64) {
        // Stopped (the daemon on a signal): not a failure; the note stays pending.
        if case .failure = result, Task.isCancelled { return }
        do {
            var analysis = try result.get()
            // What the full stage gives is final for this analyzer, whatever it calls itself: a
            // result marked quick would stay pending for ever.
            analysis.stage = stage
            if try store.saveAnalysis(analysis, for: note.id) {
                report(.stored(note.id, analysis, milliseconds: clock().milliseconds - started))
            } else if try stage == .full || store.note(note.id)?.contentHash != note.contentHash {
                report(.changedMeanwhile(note.id))
            }
        } catch {
            failed.insert(key(note))
            report(.failed(note.id, error))
        }
    }

    /// No analysis of the note's current text, not even a quick one: a note just added or
    /// edited, whose quick stage comes before its full one.
    private func lacksQuickAnalysis(_ note: Note) throws -> Bool {
        try store.analysis(for: note.id)?.contentHash != note.contentHash
    }

    private func key(_ note: Note) -> String { note.id.rawValue + note.contentHash }
}
