// The port through which the daemon and `notes analyze` get an analysis, whatever produces it.

public protocol NoteAnalyzing: Sendable {
    /// Model, prompt and schema together: stored with each result, and a change makes every
    /// note pending again.
    var analyzerVersion: String { get }

    /// Why analysis cannot run now (no model, no library), or nil when it can.
    func unavailableReason() -> String?

    /// Loads the model and evaluates the fixed part of the prompt, so the first note is fast.
    func prewarm() async throws

    /// Analyses one note. `today` lets the model judge relative deadlines ("tomorrow").
    /// `partial`, when given, receives the text generated so far as it grows, for display.
    func analyze(_ note: Note, today: Timestamp, partial: (@Sendable (String) -> Void)?) async throws -> Analysis
}
