// The reading model and the read-only connection `notes ask` (and the `ask` tool) answer with.
import AI
import Analysis
import Notes
import Storage

/// Why no question can be answered now, in the user's words.
public struct AskUnavailableError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

extension NotebookQuestions {
    /// A conversation over the notebook at `home` (which must exist) with the reading model the
    /// environment names, through a connection of its own, read-only: asking writes nothing.
    public static func open(home: NotebookHome, environment: [String: String], now: Timestamp) throws -> NotebookQuestions {
        guard let model = NoteReader.model(environment: environment) else {
            throw AskUnavailableError(description: "asking your notes needs the reading model, and NOTES_READER_MODEL is none")
        }
        if case let .unavailable(reason) = model.availability {
            throw AskUnavailableError(description: "the reading model is unavailable: \(reason); see 'notes model'")
        }
        let reading = try NoteStore.open(home: home.path, mode: .readOnly)
        return NotebookQuestions(search: NotebookSearch(store: reading, embedder: TextEmbeddings.fromEnvironment(environment)), model: model, now: now)
    }
}
