// The notebook the server's tools and resources work on: its store, its home and environment
// (which models to use), and whether a client may change it.
import AI
import MCP
import Notes
import Storage

public final class NotebookAccess {
    let store: NoteStore
    let home: NotebookHome
    let environment: [String: String]
    /// `notes mcp --allow-write`: `add`, `append` and `done` are served; without it the
    /// server writes nothing at all to the notebook (not even vectors for `related`).
    public let allowWrite: Bool
    let now: () -> Timestamp
    /// Made once: a search by meaning loads the embedding model on the first query (unless
    /// the daemon answers) and keeps it for the next ones.
    lazy var searchEmbedding: (any TextEmbedding)? = DaemonQueryEmbedding.forSearch(environment: environment, home: home)
    lazy var embedding: (any TextEmbedding)? = TextEmbeddings.fromEnvironment(environment)

    public init(store: NoteStore, home: NotebookHome, environment: [String: String], allowWrite: Bool,
                now: @escaping () -> Timestamp = { .current }) {
        self.store = store
        self.home = home
        self.environment = environment
        self.allowWrite = allowWrite
        self.now = now
    }

    /// The notebook in `home` for `notes mcp`: created (or brought to the current schema)
    /// first; without `allowWrite` the server then reads it through a read-only connection, so
    /// that no request can change it.
    public static func open(home: NotebookHome, environment: [String: String], allowWrite: Bool) throws -> NotebookAccess {
        let writable = try NoteStore.open(home: home.path)
        let store = allowWrite ? writable : try NoteStore.open(home: home.path, mode: .readOnly)
        return NotebookAccess(store: store, home: home, environment: environment, allowWrite: allowWrite)
    }
}
