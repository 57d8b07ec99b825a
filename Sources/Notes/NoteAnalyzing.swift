// The port through which the daemon and `notes analyze` get an analysis, whatever produces it.

public protocol NoteAnalyzing: Sendable {
    /// Model, prompt and schema together: stored with each result, and a change makes every
    /// note pending again.
    var analyzerVersion: String { get }

    /// Why analysis cannot run now (no model, no library), or nil when it can.
    func unavailableReason() -> String?

    /// Loads the model and evaluates the fixed part of the prompt, so the first note is fast.
    func prewarm() async throws

    /// True when `analyze` reads the note with a model, beyond what `quickAnalysis` gives: then
    /// a quick analysis is stored first and the full one replaces it.
    var readsNotes: Bool { get }

    /// The quick stage, without generation: the category, checklist items and deadlines, the
    /// note's opening as summary (`stage` quick). Fast enough to run as soon as a note is added.
    /// `usingModel` false: no model at all, the category from the note's tags and keywords
    /// alone, for a backlog of hundreds (an import), which the full stage reads again anyway.
    func quickAnalysis(_ note: Note, today: Timestamp, usingModel: Bool) async throws -> Analysis

    /// As `quickAnalysis(_:today:usingModel:)`; `inBacklog` true when many notes wait for it
    /// (an import): then only what costs no more than rules a note, nothing embedded.
    func quickAnalysis(_ note: Note, today: Timestamp, usingModel: Bool, inBacklog: Bool) async throws -> Analysis

    /// Analyses one note fully. `today` lets the model judge relative deadlines ("tomorrow").
    /// `partial`, when given, receives the text generated so far as it grows, for display.
    func analyze(_ note: Note, today: Timestamp, partial: (@Sendable (String) -> Void)?) async throws -> Analysis

    /// How many notes `analyze(pulling:done:)` reads at once to best effect; 1: one at a time.
    var batchSize: Int { get }

    /// Analyses notes fully as they come, several at once when the model can (one batch): `next`
    /// gives the next note with the day to judge it by (nil: no more), `done` receives each
    /// result as soon as it is ready, not necessarily in order. A note finished makes room for
    /// the next at once, so the batch stays full and a note handed over meanwhile joins it. A
    /// note that fails does not fail the others; every note `next` gave gets its result.
    func analyze(pulling next: @escaping @Sendable () async -> (note: Note, today: Timestamp)?,
                 done: @escaping @Sendable (Note, Result<Analysis, any Error>) async -> Void) async
}

extension NoteAnalyzing {
    public var batchSize: Int { 1 }

    public func analyze(pulling next: @escaping @Sendable () async -> (note: Note, today: Timestamp)?,
                        done: @escaping @Sendable (Note, Result<Analysis, any Error>) async -> Void) async {
        await analyzeOneByOne(pulling: next, done: done)
    }

    /// One note after the other, with `analyze(_:today:partial:)`.
    public func analyzeOneByOne(pulling next: @Sendable () async -> (note: Note, today: Timestamp)?,
                                done: @Sendable (Note, Result<Analysis, any Error>) async -> Void) async {
        while let (note, today) = await next() {
            let result: Result<Analysis, any Error>
            do { result = .success(try await analyze(note, today: today, partial: nil)) } catch { result = .failure(error) }
            await done(note, result)
        }
    }
}

extension NoteAnalyzing {
    /// An analyzer whose quick stage costs the same in a backlog.
    public func quickAnalysis(_ note: Note, today: Timestamp, usingModel: Bool, inBacklog: Bool) async throws -> Analysis {
        try await quickAnalysis(note, today: today, usingModel: usingModel)
    }
}
