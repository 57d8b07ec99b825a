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
    func quickAnalysis(_ note: Note, today: Timestamp) async throws -> Analysis

    /// Analyses one note fully. `today` lets the model judge relative deadlines ("tomorrow").
    /// `partial`, when given, receives the text generated so far as it grows, for display.
    func analyze(_ note: Note, today: Timestamp, partial: (@Sendable (String) -> Void)?) async throws -> Analysis

    /// How many notes `analyze(_:today:)` reads together to best effect; 1: one at a time.
    var batchSize: Int { get }

    /// Analyses several notes fully, together when the model can (one batch); one result per
    /// note, in order. A note that fails does not fail the others.
    func analyze(_ notes: [Note], today: Timestamp) async -> [Result<Analysis, any Error>]
}

extension NoteAnalyzing {
    public var batchSize: Int { 1 }

    public func analyze(_ notes: [Note], today: Timestamp) async -> [Result<Analysis, any Error>] {
        await analyzeOneByOne(notes, today: today)
    }

    /// One note after the other, with `analyze(_:today:partial:)`.
    public func analyzeOneByOne(_ notes: [Note], today: Timestamp) async -> [Result<Analysis, any Error>] {
        var results: [Result<Analysis, any Error>] = []
        for note in notes {
            do { results.append(.success(try await analyze(note, today: today, partial: nil))) } catch { results.append(.failure(error)) }
        }
        return results
    }
}
