// The notebook as the sync engine sees it (Notes.NotebookPort), over SQLite.
import Notes

extension NoteStore: NotebookPort {
    static let checkpointCommitKey = "sync.commit"
    static let checkpointVersionKey = "sync.version"

    /// Advances the notebook's change counter and stamps the note with it. Every write to a
    /// note, its tombstone or its analysis calls this inside its transaction.
    func bumpVersion(seq: Int64) throws {
        try database.execute("UPDATE notebook_version SET value = value + 1 WHERE id = 1")
        try database.execute("UPDATE notes SET version = (SELECT value FROM notebook_version WHERE id = 1) WHERE seq = ?", [seq])
    }

    func currentVersion() throws -> NotebookVersion {
        NotebookVersion(try database.scalarInt("SELECT value FROM notebook_version WHERE id = 1") ?? 0)
    }

    public func snapshot(changedSince version: NotebookVersion?) throws -> NotebookSnapshot {
        // A read transaction: the records and the version are one consistent picture.
        try database.transaction(immediate: false) {
            let rows = try database.statement("""
                SELECT n.id, n.title, n.body, n.created, n.updated, n.seq, n.deleted, a.note_seq IS NOT NULL AND a.content_hash = n.content_hash
                FROM notes n LEFT JOIN analyses a ON a.note_seq = n.seq
                WHERE n.version > ? ORDER BY n.seq
                """).rows([version?.rawValue ?? -1]) { row -> (record: NoteRecord, analysed: Bool) in
                let id = NoteID(row.string(0))!
                if let deleted = row.optionalInt(6) {
                    return (NoteRecord(id: id, state: .deleted(at: Timestamp(milliseconds: deleted))), false)
                }
                return (NoteRecord(try note(from: row)), row.int(7) == 1)
            }
            var records: [NoteRecord] = []
            records.reserveCapacity(rows.count)
            for (record, analysed) in rows {
                var record = record
                if analysed { record.analysis = try analysis(for: record.id) }
                records.append(record)
            }
            return NotebookSnapshot(records: records, version: try currentVersion())
        }
    }

    public func apply(_ records: [NoteRecord], expected version: NotebookVersion, syncedCommit: String) throws -> NotebookVersion {
        // FULL for this one transaction: the engine moves its git refs as soon as this returns,
        // so the import must survive a power cut, not only a killed process.
        try database.execute("PRAGMA synchronous = FULL")
        defer { try? database.execute("PRAGMA synchronous = NORMAL") }
        return try database.transaction {
            guard try currentVersion() == version else { throw NotebookPortError.changedSinceSnapshot }
            for record in records {
                switch record.state {
                case let .live(note):
                    try writeSynced(note)
                    if let analysis = record.analysis, analysis.contentHash == note.contentHash {
                        try storeAnalysis(analysis, id: note.id, seq: try seq(of: note.id), keepingDoneMarks: false)
                    }
                case let .deleted(time):
                    try writeTombstone(record.id, at: time)
                }
            }
            let after = try currentVersion()
            for (key, value) in [(NoteStore.checkpointCommitKey, syncedCommit), (NoteStore.checkpointVersionKey, String(after.rawValue))] {
                try database.execute("INSERT INTO sync_state(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value])
            }
            return after
        }
    }

    /// Notes written since the last sync's import (all of them before the first sync).
    public func unsyncedChangeCount() throws -> Int {
        let since = try checkpoint()?.version.rawValue ?? -1
        return Int(try database.scalarInt("SELECT count(*) FROM notes WHERE version > ?", [since]) ?? 0)
    }

    public func checkpoint() throws -> SyncCheckpoint? {
        guard let commit = try database.scalarText("SELECT value FROM sync_state WHERE key = ?", [NoteStore.checkpointCommitKey]),
              let version = try database.scalarText("SELECT value FROM sync_state WHERE key = ?", [NoteStore.checkpointVersionKey]),
              let number = Int64(version) else { return nil }
        return SyncCheckpoint(commit: commit, version: NotebookVersion(number))
    }

    /// A note exactly as sync merged it: inserted, replaced, or revived from a tombstone.
    private func writeSynced(_ note: Note) throws {
        if try database.scalarInt("SELECT seq FROM notes WHERE id = ?", [note.id.rawValue]) == nil {
            try insertRow(note)
            return
        }
        try database.execute("UPDATE notes SET deleted = NULL WHERE id = ?", [note.id.rawValue])
        try updateRow(note)
    }

    private func writeTombstone(_ id: NoteID, at time: Timestamp) throws {
        if try database.scalarInt("SELECT seq FROM notes WHERE id = ?", [id.rawValue]) == nil {
            try database.execute(
                "INSERT INTO notes(id, title, body, content_hash, created, updated, deleted) VALUES (?, '', '', '', ?, ?, ?)",
                [id.rawValue, time.milliseconds, time.milliseconds, time.milliseconds])
            try bumpVersion(seq: database.lastInsertedRowID)
        } else if try !isDeleted(id) {
            try deleteRow(id, at: time)
        }
    }
}
