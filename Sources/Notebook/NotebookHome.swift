// Where the notebook on this machine keeps its files: one directory, and the paths inside it.
import Notes
import Storage

/// `$NOTES_HOME`, else `$XDG_DATA_HOME/notes`, else `~/.local/share/notes`; inside it the
/// database, the sync repository (the medium, not the source of truth), the daemon's lock and
/// its socket.
/// The AI's cache of evaluated prefixes goes under `cache/` (`ModelConfiguration` reads
/// `NOTES_HOME` itself).
public struct NotebookHome: Sendable, Equatable {
    public let path: String

    init(path: String) { self.path = path }

    public init(environment: [String: String]) {
        if let home = Settings(environment)[.home] {
            path = home
        } else if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            path = data + "/notes"
        } else {
            path = (environment["HOME"] ?? "/tmp") + "/.local/share/notes"
        }
    }

    public var database: String { path + "/" + NoteStore.databaseFileName }
    /// The files in the home that a write to the notebook changes, for a watcher.
    public var databaseFileNames: Set<String> { [NoteStore.databaseFileName, NoteStore.databaseFileName + "-wal"] }
    public var syncRepository: String { path + "/repo" }
    /// One daemon per notebook: it holds an exclusive lock on this file.
    public var daemonLock: String { path + "/daemon.lock" }
    /// Where the running daemon answers searches with query vectors (`QueryVectorService`).
    public var daemonSocket: String { path + "/daemon.socket" }
}
