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
    /// environment names, through a connection of its own, read-only: asking writes no note.
    /// First, unless `makingVectors` is false, the newest notes lacking a vector get one, as
    /// `notes search` does (`NotebookSearch.embedNewestNotes`, through a writable connection of
    /// a moment): asked right after `notes add` on a notebook without a daemon, the model's
    /// search ("tooth doctor") found the note ("Dentist") by no word, and nothing by meaning.
    public static func open(home: NotebookHome, environment: [String: String], now: Timestamp,
                            makingVectors: Bool = true) throws -> NotebookQuestions {
        guard let model = NoteReader.model(environment: environment) else {
            throw AskUnavailableError(description: "asking your notes needs the reading model, and NOTES_READER_MODEL is none")
        }
        if case let .unavailable(reason) = model.availability {
            throw AskUnavailableError(description: "the reading model is unavailable: \(reason); see 'notes model'")
        }
        let embedder = TextEmbeddings.fromEnvironment(environment)
        // A notebook this user may not write is asked all the same, by words where vectors lack.
        if makingVectors, let writing = try? NoteStore.open(home: home.path) {
            NotebookSearch(store: writing, embedder: embedder).embedNewestNotes()
        }
        let reading = try NoteStore.open(home: home.path, mode: .readOnly)
        return NotebookQuestions(search: NotebookSearch(store: reading, embedder: embedder), model: model, now: now)
    }
}
