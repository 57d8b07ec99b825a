// The notebook on disk: notes, tags and tombstones in SQLite.
import CSQLite
import Notes

#if canImport(Glibc)
import Glibc
#endif

public enum NoteStoreError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, candidates: [(id: NoteID, handle: String, title: String)])
    case invalidReference(String)
    case cannotCreateHome(path: String, reason: String)
    case notAnalysed(String)
    case noSuchTask(String, Int)
    case setupTimedOut(lockPath: String, waited: Duration)

    public var description: String {
        switch self {
        case let .notFound(reference): "no note matches '\(reference)'"
        case let .ambiguous(reference, candidates):
            // The handles `notes list` shows, so the user can pick one and type it.
            "'\(reference)' matches \(candidates.count > 10 ? "more than 10" : "\(candidates.count)") notes; use one of their handles:\n"
                + candidates.prefix(10).map { "  \($0.handle)  \($0.title)" }.joined(separator: "\n")
        case let .invalidReference(reference):
            "'\(reference)' is not a note id (ids are hex digits, at least 4 of them)"
        case let .cannotCreateHome(path, reason): "cannot create the notes directory \(path): \(reason)"
        case let .notAnalysed(handle): "note \(handle) has no analysis yet; run 'notes analyze \(handle)' first"
        case let .noSuchTask(id, number): "note \(id) has no task \(number)"
        case let .setupTimedOut(lockPath, waited):
            "another notes process has been creating or upgrading this notebook for \(waited.components.seconds) s "
                + "and still holds \(lockPath); nothing was changed, try again once it is done"
        }
    }

    public static func == (lhs: NoteStoreError, rhs: NoteStoreError) -> Bool { lhs.description == rhs.description }
}

/// Not Sendable, like the Database it owns.
public final class NoteStore {
    /// Only Storage speaks SQL: other modules ask the store.
    let database: Database

    public static let databaseFileName = "notes.sqlite"
    /// Beside the database: held exclusively by the process that creates or upgrades the
    /// notebook, and shared by every other while it checks that there is nothing to do.
    public static let setupLockFileName = "notes.sqlite.lock"
    /// How long opening waits for another process that creates or upgrades the notebook (an
    /// upgrade rebuilds indexes over every note: seconds on a large notebook).
    static let setupPatience: Duration = .seconds(60)

    /// Brings `database` to the latest schema if it is not there yet.
    public convenience init(database: Database, migrator: Migrator = .embedded) throws {
        self.init(unchecked: database)
        guard try !isCurrent(migrator) else { return }
        try migrator.migrate(database)
        try rebuildLinksIfNeeded()
    }

    private init(unchecked database: Database) {
        self.database = database
    }

    /// Every migration applied and the link index built. A notebook already current (every
    /// command but the first after an upgrade) is checked in one read transaction: one lock of
    /// the file instead of one per statement.
    private func isCurrent(_ migrator: Migrator) throws -> Bool {
        try database.transaction(immediate: false) {
            try migrator.isCurrent(database) && linkIndexIsCurrent()
        }
    }

    /// Runs `body`, whose reads then see one state of the notebook and share one lock of the
    /// file (a search makes a dozen queries or more). `body` must not write.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(immediate: false, body)
    }

    /// Opens the notebook in `home`, creating the directory (0700) and database (0600) if needed.
    ///
    /// Any number of processes may do this at once, on a notebook that does not exist yet or
    /// that an upgrade must migrate: SQLite alone does not make that safe, since on a new file
    /// the switch to WAL and the first reads fail with SQLITE_BUSY at once, without waiting, when
    /// another connection is doing the same (two `notes add` on a new notebook failed one time
    /// in three or four). So each process checks, under a shared lock of `setupLockFileName`,
    /// whether the notebook is ready; if not, it takes the lock exclusively and creates,
    /// switches or migrates it, while the others wait for it and then find nothing to do.
    public static func open(home: String, mode: Database.Mode = .readWrite) throws -> NoteStore {
        if mode == .readWrite {
            do { try FileSystem.createDirectories(home) } catch {
                throw NoteStoreError.cannotCreateHome(path: home, reason: (error as? FileSystemError)?.reason ?? "\(error)")
            }
        }
        let path = home + "/" + databaseFileName
        let lockPath = home + "/" + setupLockFileName
        let (database, ready) = try withExtendedLifetime(try setupLock(.shared, at: lockPath, mode: mode)) {
            if mode == .readWrite, access(path, F_OK) != 0 {
                // An empty file is a valid empty database; creating it ourselves sets its mode.
                let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
                if fd >= 0 { close(fd) }
            }
            let database = try Database(path: path, mode: mode)
            return (database, try (mode == .readOnly || database.isWriteAheadLog) && NoteStore(unchecked: database).isCurrent(.embedded))
        }
        if ready { return NoteStore(unchecked: database) }
        return try withExtendedLifetime(try setupLock(.exclusive, at: lockPath, mode: mode)) {
            if mode == .readWrite { try database.useWriteAheadLog() }
            return try NoteStore(database: database)
        }
    }

    /// The setup lock, or nil where there can be none: a reader of a notebook made before the
    /// lock existed, or a home where the file cannot be created (read-only, full), whose
    /// database then fails on its own terms.
    private static func setupLock(_ kind: FileLock.Kind, at path: String, mode: Database.Mode) throws -> FileLock? {
        let lock: FileLock?
        do {
            lock = try FileLock.acquire(kind, at: path, create: mode == .readWrite, patience: setupPatience)
        } catch is FileSystemError {
            return nil
        }
        guard let lock else { throw NoteStoreError.setupTimedOut(lockPath: path, waited: setupPatience) }
        return lock
    }

    // MARK: Reading

    static let noteColumns = "n.id, n.title, n.body, n.created, n.updated, n.seq"
    /// A note's tags in one column, in the order of `note_tags_by_note` (by tag). Tags hold
    /// only letters, digits, `_`, `-` and `/` (`Tags.normalized`), never the unit separator.
    static let tagsColumn = "(SELECT group_concat(tag, char(31)) FROM note_tags WHERE note_seq = n.seq)"

    func note(from row: Row) throws -> Note {
        let seq = row.int(5)
        let tags = try database.statement("SELECT tag FROM note_tags WHERE note_seq = ? ORDER BY tag").rows([seq]) { $0.string(0) }
        return Note(id: NoteID(row.string(0))!, title: row.string(1), body: row.string(2), tags: tags,
                    created: Timestamp(milliseconds: row.int(3)), updated: Timestamp(milliseconds: row.int(4)))
    }

    /// A note from `noteColumns` followed by `tagsColumn` at `tagsAt`.
    func note(from row: Row, tagsAt column: Int32) -> Note {
        let tags = row.isNull(column) ? [] : row.string(column).split(separator: "\u{1F}").map(String.init)
        return Note(id: NoteID(row.string(0))!, title: row.string(1), body: row.string(2), tags: tags,
                    created: Timestamp(milliseconds: row.int(3)), updated: Timestamp(milliseconds: row.int(4)))
    }

    /// The live note with this id, or nil (also for a tombstone).
    public func note(_ id: NoteID) throws -> Note? {
        try database.statement("SELECT \(NoteStore.noteColumns) FROM notes n WHERE n.id = ? AND n.deleted IS NULL")
            .firstRow([id.rawValue]) { try note(from: $0) }
    }

    /// The id of the one live note whose id starts or ends with `reference` (dashes optional):
    /// a handle from a listing, or any unique part of either end.
    public func resolve(_ reference: String) throws -> NoteID {
        guard let hex = NoteID.hexDigits(reference.trimmingWhitespace()), hex.count >= 4 else {
            throw NoteStoreError.invalidReference(reference)
        }
        guard hex.count <= 32 else { throw NoteStoreError.notFound(reference) }
        let prefix = NoteID.dashed(hex)
        // A range scan on the unique index: ids sort as text, and "~" sorts after every hex digit.
        let starts = try database.statement(
            "SELECT id, title FROM notes WHERE id >= ? AND id < ? AND deleted IS NULL ORDER BY id LIMIT 11")
            .rows([prefix, prefix + "~"]) { (id: NoteID($0.string(0))!, title: $0.string(1)) }
        // An end of six digits or more is found through the index of the ids' last six
        // (`notes_by_id_end`; a dashed id ends in 12 hex digits); a shorter one needs a scan, a
        // few milliseconds at 10,000 notes. Not needed for a whole id.
        let length = NoteHandle.minimumLength
        let byIndex = hex.count >= length
        let ends: [(id: NoteID, title: String)] = hex.count == 32 ? [] : try database.statement("""
            SELECT id, title FROM notes WHERE \(byIndex ? "substr(id, -\(length)) = ? AND" : "")
            substr(replace(id, '-', ''), -?) = ? AND deleted IS NULL ORDER BY id LIMIT 11
            """).rows((byIndex ? [String(hex.suffix(length))] : []) + [hex.count, hex]) { (id: NoteID($0.string(0))!, title: $0.string(1)) }
        var matches = starts
        for end in ends where !matches.contains(where: { $0.id == end.id }) { matches.append(end) }
        switch matches.count {
        case 0: throw NoteStoreError.notFound(reference)
        case 1: return matches[0].id
        default:
            let shown = Array(matches.sorted { $0.id < $1.id }.prefix(11))
            let handles = try handles(for: shown.map(\.id))
            throw NoteStoreError.ambiguous(reference, candidates: shown.map { (id: $0.id, handle: handles[$0.id] ?? $0.id.rawValue, title: $0.title) })
        }
    }

    /// Live notes, newest change first.
    public func notes(matching filter: NoteFilter = NoteFilter()) throws -> [Note] {
        let (sql, values) = listingQuery(filter, columns: "\(NoteStore.noteColumns), \(NoteStore.tagsColumn)", joinAnalyses: false)
        return try database.statement(sql).rows(values) { note(from: $0, tagsAt: 6) }
    }

    /// Live notes with their analyses, newest change first: what `notes list` prints. Two
    /// queries in all (the notes with their tags and analyses, then the tasks), not three a
    /// note: 10,000 notes took 412 ms that way, against 31 ms for the sqlite3 shell.
    /// `forLines`: for a listing of one line a note, without bodies (each is empty) or tasks.
    public func notesWithAnalyses(matching filter: NoteFilter = NoteFilter(), forLines: Bool = false) throws -> [(note: Note, analysis: Analysis?)] {
        let noteColumns = forLines ? NoteStore.noteColumns.replacingOccurrences("n.body", with: "''") : NoteStore.noteColumns
        let columns = "\(noteColumns), \(NoteStore.tagsColumn), \(NoteStore.analysisColumns)"
        let (sql, values) = listingQuery(filter, columns: columns, joinAnalyses: true)
        var analysed: [Int64: Int] = [:]
        var result: [(note: Note, analysis: Analysis?)] = []
        try database.statement(sql).forEachRow(values) { row in
            let analysis = row.isNull(7) ? nil : analysisWithoutTasks(from: row, at: 7)
            if analysis != nil { analysed[row.int(5)] = result.count }
            result.append((note(from: row, tagsAt: 6), analysis))
        }
        guard !analysed.isEmpty, !forLines else { return result }
        // A few analysed notes: their tasks by key; many: one pass over every task.
        let statement = try database.statement(analysed.count <= 64
            ? "SELECT note_seq, text, done, due FROM tasks WHERE note_seq = ? ORDER BY position"
            : "SELECT note_seq, text, done, due FROM tasks ORDER BY note_seq, position")
        let read = { (row: Row) in
            if let index = analysed[row.int(0)] { result[index].analysis!.tasks.append(NoteStore.task(from: row, at: 1)) }
        }
        if analysed.count <= 64 {
            for seq in analysed.keys { try statement.forEachRow([seq], read) }
        } else {
            try statement.forEachRow([], read)
        }
        return result
    }

    private func listingQuery(_ filter: NoteFilter, columns: String, joinAnalyses: Bool) -> (String, [any DatabaseValueConvertible]) {
        var sql = "SELECT \(columns) FROM notes n"
        var conditions = ["n.deleted IS NULL"]
        var values: [any DatabaseValueConvertible] = []
        if filter.category != nil || filter.urgency != nil {
            sql += " JOIN analyses a ON a.note_seq = n.seq"
        } else if joinAnalyses {
            sql += " LEFT JOIN analyses a ON a.note_seq = n.seq"
        }
        if let tag = filter.tag {
            conditions.append("n.seq IN (SELECT note_seq FROM note_tags WHERE tag = ?)")
            values.append(Tags.normalized([tag]).first ?? tag)
        }
        if let category = filter.category {
            conditions.append("coalesce(a.user_category, a.category) = ?")
            values.append(category.rawValue)
        }
        if let urgency = filter.urgency {
            conditions.append("coalesce(a.user_urgency, a.urgency) = ?")
            values.append(urgency)
        }
        appendTimeConditions(filter, to: &conditions, values: &values)
        sql += " WHERE " + conditions.joined(separator: " AND ") + " ORDER BY n.updated DESC, n.id DESC"
        if let limit = filter.limit { sql += " LIMIT \(limit)" }
        return (sql, values)
    }

    func appendTimeConditions(_ filter: NoteFilter, to conditions: inout [String], values: inout [any DatabaseValueConvertible]) {
        if let since = filter.since {
            conditions.append("n.updated >= ?")
            values.append(since.milliseconds)
        }
        if let until = filter.until {
            conditions.append("n.updated < ?")
            values.append(until.milliseconds)
        }
    }

    /// Every live note's id.
    public func allIDs() throws -> [NoteID] {
        try database.statement("SELECT id FROM notes WHERE deleted IS NULL").rows { NoteID($0.string(0))! }
    }

    /// The short handle of each id among the live notes (see `NoteHandle`): what listings show
    /// and what `resolve` reads back. For a few ids (a search's results), the usual case is asked
    /// of SQLite first: no other note shares their last six digits. Otherwise every id is read,
    /// since handles come from the ids' ends, which no index orders (10,000 ids: 15 ms).
    public func handles(for ids: [NoteID]) throws -> [NoteID: String] {
        guard !ids.isEmpty else { return [:] }
        if ids.count <= 100, let shortest = try shortestHandles(ids) { return shortest }
        return NoteHandle.handles(for: ids, among: try allIDs())
    }

    /// Each id's last `NoteHandle.minimumLength` digits, when no other live note ends with them
    /// or starts with them (then no longer handle is needed); nil when one does.
    private func shortestHandles(_ ids: [NoteID]) throws -> [NoteID: String]? {
        let length = NoteHandle.minimumLength
        // The dashed id ends in 12 hex digits, so its last six characters are digits.
        let ends = ids.map { String($0.rawValue.suffix(length)) }
        guard Set(ends).count == Set(ids).count else { return nil }
        let shown = Set(ids.map(\.rawValue))
        // Through the index of the ids' last six characters (`notes_by_id_end`).
        let sharing = try database.statement("""
            SELECT id FROM notes WHERE substr(id, -\(length)) IN (\(ends.map { _ in "?" }.joined(separator: ","))) AND deleted IS NULL
            """).rows(ends) { $0.string(0) }
        guard sharing.allSatisfy(shown.contains) else { return nil }
        let starting = try database.statement("SELECT id FROM notes WHERE id >= ? AND id < ? AND deleted IS NULL LIMIT 2")
        for (id, end) in zip(ids, ends) {
            // The first eight characters of a dashed id are digits too: a range on the index.
            let others = try starting.rows([end, end + "~"]) { $0.string(0) }.filter { $0 != id.rawValue }
            guard others.isEmpty else { return nil }
        }
        return Dictionary(zip(ids, ends), uniquingKeysWith: { first, _ in first })
    }

    public func handle(of id: NoteID) throws -> String {
        try handles(for: [id])[id] ?? id.rawValue
    }

    /// Tags with how many live notes carry each, most used first.
    public func tagCounts() throws -> [(tag: String, count: Int)] {
        try database.statement("""
            SELECT t.tag, count(*) FROM note_tags t JOIN notes n ON n.seq = t.note_seq
            WHERE n.deleted IS NULL GROUP BY t.tag ORDER BY count(*) DESC, t.tag
            """).rows { (tag: $0.string(0), count: Int($0.int(1))) }
    }

    public struct Counts: Sendable, Equatable {
        public var notes: Int
        public var deleted: Int
        public var tags: Int
        /// Links in live notes, and how many of them point at no note.
        public var links: Int
        public var brokenLinks: Int
    }

    /// The schema's version: the number of the last migration applied.
    public func schemaVersion() throws -> Int {
        Int(try database.scalarInt("PRAGMA user_version") ?? 0)
    }

    public func counts() throws -> Counts {
        try database.statement("""
            SELECT count(*) FILTER (WHERE deleted IS NULL), count(*) FILTER (WHERE deleted IS NOT NULL),
                   (SELECT count(DISTINCT tag) FROM note_tags t JOIN notes n ON n.seq = t.note_seq WHERE n.deleted IS NULL),
                   (SELECT count(*) FROM links), (SELECT count(*) FROM links WHERE target_seq IS NULL)
            FROM notes
            """).firstRow {
                Counts(notes: Int($0.int(0)), deleted: Int($0.int(1)), tags: Int($0.int(2)), links: Int($0.int(3)), brokenLinks: Int($0.int(4)))
            }!
    }

    // MARK: Writing

    /// Stores a new note. Fails with SQLITE_CONSTRAINT if the id exists.
    public func insert(_ note: Note) throws {
        try database.transaction { try insertRow(note) }
    }

    func insertRow(_ note: Note, origin: NoteOrigin? = nil) throws {
        try database.execute(
            "INSERT INTO notes(id, title, body, content_hash, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
            [note.id.rawValue, note.title, note.body, note.contentHash, note.created.milliseconds, note.updated.milliseconds])
        let seq = database.lastInsertedRowID
        try writeTags(note.tags, seq: seq)
        try indexLinks(seq: seq, origin: origin)
        try bumpVersion(seq: seq)
    }

    /// Replaces a live note's title, body, tags and timestamps.
    public func update(_ note: Note) throws {
        try database.transaction { try updateRow(note) }
    }

    /// `origin` replaces the aliases and file path an import gave the note; nil keeps them.
    func updateRow(_ note: Note, origin: NoteOrigin? = nil) throws {
        try database.execute(
            "UPDATE notes SET title = ?, body = ?, content_hash = ?, created = ?, updated = ? WHERE id = ? AND deleted IS NULL",
            [note.title, note.body, note.contentHash, note.created.milliseconds, note.updated.milliseconds, note.id.rawValue])
        guard database.changes == 1 else { throw NoteStoreError.notFound(note.id.rawValue) }
        let seq = try seq(of: note.id)
        try database.execute("DELETE FROM note_tags WHERE note_seq = ?", [seq])
        try writeTags(note.tags, seq: seq)
        try indexLinks(seq: seq, origin: origin)
        try bumpVersion(seq: seq)
    }

    private func writeTags(_ tags: [String], seq: Int64) throws {
        for tag in tags { try database.execute("INSERT OR IGNORE INTO note_tags(note_seq, tag) VALUES (?, ?)", [seq, tag]) }
    }

    func seq(of id: NoteID) throws -> Int64 {
        guard let seq = try database.scalarInt("SELECT seq FROM notes WHERE id = ?", [id.rawValue]) else {
            throw NoteStoreError.notFound(id.rawValue)
        }
        return seq
    }

    /// Deletes a note, leaving a tombstone: the id and the time of deletion, its text cleared.
    public func delete(_ id: NoteID, at time: Timestamp) throws {
        try database.transaction { try deleteRow(id, at: time) }
    }

    func deleteRow(_ id: NoteID, at time: Timestamp) throws {
        try database.execute(
            "UPDATE notes SET title = '', body = '', analysis_text = '', content_hash = '', deleted = ?, updated = ? WHERE id = ? AND deleted IS NULL",
            [time.milliseconds, time.milliseconds, id.rawValue])
        guard database.changes == 1 else { throw NoteStoreError.notFound(id.rawValue) }
        let seq = try seq(of: id)
        try database.execute("DELETE FROM note_tags WHERE note_seq = ?", [seq])
        try database.execute("DELETE FROM analyses WHERE note_seq = ?", [seq])
        try indexLinks(seq: seq)
        try bumpVersion(seq: seq)
    }

    /// Whether a tombstone exists for the id.
    func isDeleted(_ id: NoteID) throws -> Bool {
        try database.scalarInt("SELECT deleted IS NOT NULL FROM notes WHERE id = ?", [id.rawValue]) == 1
    }

    public enum ImportOutcome: Sendable, Equatable { case added, updated, unchanged }

    /// Adds notes or brings existing ones up to date, all in one transaction: a note already
    /// here changes only if the imported copy was updated later. A tombstone is not revived.
    /// Imported notes keep their aliases and file paths, for links and `notes export`, and an
    /// added or updated note the analysis and corrections its file carries (an export's).
    public func importNotes(_ notes: [ImportedNote], progress: (Int) -> Void = { _ in }) throws -> [ImportOutcome] {
        // A large import touches more pages than SQLite's default 2 MB cache holds; spilling
        // them to the WAL and reading them back mid-transaction was a tenth of a 10,000-note
        // vault import's profile.
        try database.execute("PRAGMA cache_size = -65536")
        defer { try? database.execute("PRAGMA cache_size = -2000") }
        return try database.transaction {
            var outcomes: [ImportOutcome] = []
            outcomes.reserveCapacity(notes.count)
            for (index, imported) in notes.enumerated() {
                if index % 500 == 0 { progress(index) }
                let note = imported.note
                let origin = NoteOrigin(aliases: imported.aliases, path: imported.path)
                let existing = try database.statement("SELECT updated, deleted FROM notes WHERE id = ?")
                    .firstRow([note.id.rawValue]) { (updated: $0.int(0), deleted: !$0.isNull(1)) }
                if let existing {
                    if existing.deleted || existing.updated >= note.updated.milliseconds {
                        outcomes.append(.unchanged)
                        continue
                    }
                    try updateRow(note, origin: origin)
                    outcomes.append(.updated)
                } else {
                    try insertRow(note, origin: origin)
                    outcomes.append(.added)
                }
                if let analysis = imported.analysis { try restore(analysis, corrections: imported.corrections, of: note.id) }
            }
            return outcomes
        }
    }
}
