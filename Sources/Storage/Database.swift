// One SQLite connection over the C API: WAL, a busy timeout, foreign keys, cached statements.
import CSQLite

/// Not Sendable: one owner serialises access. The CLI and the daemon each open their own.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    private var statements: [String: Statement] = [:]
    private let busyWait: BusyWait

    /// How long a writer waits for another process's write transaction before giving up.
    public static let busyTimeout: Duration = .seconds(10)

    public enum Mode: Sendable { case readWrite, readOnly }

    /// Opens (and with `.readWrite` creates) the database. Nothing is written here: a file that
    /// is not a database fails at the first read with SQLITE_NOTADB and is left as it was.
    public init(path: String, mode: Mode = .readWrite, busyTimeout: Duration = Database.busyTimeout) throws {
        var connection: OpaquePointer?
        // SQLITE_OPEN_NOMUTEX: the connection is never shared between threads (see above).
        let flags = (mode == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let rc = sqlite3_open_v2(path, &connection, flags, nil)
        guard rc == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw DatabaseError(extendedCode: rc, message: message)
        }
        handle = connection
        self.path = path
        busyWait = BusyWait(limit: busyTimeout)
        // The context pointer stays valid: `busyWait` lives as long as the connection, which
        // deinit closes before it releases its properties.
        sqlite3_busy_handler(handle, BusyWait.handler, Unmanaged.passUnretained(busyWait).toOpaque())
        do {
            // Reading the schema first makes a corrupt or foreign file fail before any write.
            try execute("SELECT count(*) FROM sqlite_schema")
            try execute("PRAGMA foreign_keys = ON")
            // Pages read through a memory map instead of one pread each: a scan of 10,000 notes'
            // vectors made 6,800 system calls, a third of `notes related`'s time. Writes still
            // go through the WAL as before.
            try execute("PRAGMA mmap_size = 268435456")
            if mode == .readWrite {
                // In WAL mode NORMAL never corrupts and loses nothing when a process is killed;
                // only a power cut can drop the last commits.
                try execute("PRAGMA synchronous = NORMAL")
            }
        } catch {
            // Every property is set, so the throw runs deinit, which closes the connection;
            // closing it here too would free it twice.
            throw error
        }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether the file is in WAL mode, which lets the CLI and the daemon write at once.
    var isWriteAheadLog: Bool {
        get throws { try scalarText("PRAGMA journal_mode") == "wal" }
    }

    /// Switches the file to WAL mode (a database on disk keeps it). The switch needs the file to
    /// itself, and SQLite may refuse it at once, without waiting, while another connection
    /// reads the file: `NoteStore.open` does it under the notebook's setup lock.
    func useWriteAheadLog() throws {
        if try !isWriteAheadLog { try execute("PRAGMA journal_mode = WAL") }
    }

    func error(_ rc: Int32, sql: String?, message: String? = nil) -> DatabaseError {
        let code = sqlite3_extended_errcode(handle)
        return DatabaseError(extendedCode: code, message: message ?? String(cString: sqlite3_errmsg(handle)), sql: sql,
                             waited: code & 0xFF == SQLITE_BUSY ? busyWait.takeWaitThatRanOut() : nil)
    }

    /// A cached prepared statement for `sql`.
    func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    func execute(_ sql: String, _ values: [any DatabaseValueConvertible] = []) throws {
        try statement(sql).execute(values)
    }

    /// Runs a script of several statements (a migration), without caching.
    func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            throw error(rc, sql: nil, message: text)
        }
    }

    func scalarInt(_ sql: String, _ values: [any DatabaseValueConvertible] = []) throws -> Int64? {
        try statement(sql).firstRow(values) { $0.isNull(0) ? nil : $0.int(0) } ?? nil
    }

    func scalarText(_ sql: String, _ values: [any DatabaseValueConvertible] = []) throws -> String? {
        try statement(sql).firstRow(values) { $0.optionalString(0) } ?? nil
    }

    /// Opened read-only, or on a file this process may not write.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    public var changes: Int { Int(sqlite3_changes(handle)) }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a transaction. IMMEDIATE takes the write lock up front, so a writer waits
    /// on the busy timeout instead of failing with SQLITE_BUSY when it upgrades a read lock.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
