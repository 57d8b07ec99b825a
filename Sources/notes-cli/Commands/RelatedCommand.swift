// `notes related`: the notes nearest in meaning to one note.
import Notebook
import Notes

struct RelatedCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "related",
        abstract: "List the notes nearest in meaning to a note.",
        discussion: """
            By the notes' vectors (multilingual-e5-small unless NOTES_EMBEDDING_MODEL names
            another, made by the daemon and 'notes analyze'): the
            score is the cosine similarity of the closest parts of the two notes, from -1 to 1.
            A note without a current vector gets one now when the embedding model is installed.
            """,
        options: [Common.limit, Common.json],
        arguments: [Common.note]
    )

    let reference: String
    let limit: Int
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = arguments[Common.note]!
        limit = arguments[Common.limit] ?? 10
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let id = try notebook.id(of: reference)
        let search = NotebookSearch(notebook: notebook, embedder: TextEmbeddings.fromEnvironment(context.environment))
        search.embedNewestNotes()
        guard let related = try search.related(to: id, limit: limit) else {
            throw CommandFailure("note \(try notebook.handle(of: id)) has no vector yet and none can be made: \(search.meaningUnavailable ?? "unknown reason")")
        }
        let terminal = context.terminal
        if json {
            terminal.emit(.array(related.map(\.json)))
            return
        }
        // Notes without a vector cannot be among the related ones: say so, listed or not.
        let notice = context.pendingVectorsNotice(embedderVersion: search.embedderVersion)
        if related.isEmpty {
            // Every other note may have its vector and none be about the same thing.
            context.printEmpty(notice == nil ? "No other note is close in meaning." : "No other note with a vector is close in meaning.", notice: notice)
            return
        }
        let short = try context.handles(for: related.map(\.id))
        for note in related {
            terminal.print(terminal.yellow(short[note.id] ?? note.id.rawValue) + "  " + note.title + terminal.dim("  \(note.roundedSimilarity)"))
        }
        if let notice { terminal.printError(terminal.dim(notice)) }
    }
}
