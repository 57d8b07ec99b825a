// Brings a database to the schema of migrations/*.sql, forward only, one transaction each.
import Notes

public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String
    public var checksum: String { ContentHash.of(sql) }

    /// Built from a file name `NNNN_name.sql`.
    public init?(fileName: String, sql: String) {
        guard fileName.hasSuffix(".sql"), let underscore = fileName.firstIndex(of: "_"),
              let version = Int(fileName[..<underscore]) else { return nil }
        self.version = version
        self.name = String(fileName[fileName.index(after: underscore)...].dropLast(4))
        self.sql = sql
    }
}

public enum MigrationError: Error, CustomStringConvertible, Equatable {
    case databaseNewer(databaseVersion: Int, knownVersion: Int)
    case editedMigration(version: Int, name: String)
    case missingMigration(version: Int)
    case failed(version: Int, name: String, message: String)

    public var description: String {
        switch self {
        case let .databaseNewer(database, known):
            "the database is at schema version \(database), but this notes only knows versions up to \(known). "
                + "It was written by a newer notes: upgrade notes. Nothing was changed."
        case let .editedMigration(version, name):
            "migration \(version) (\(name)) was changed after this database applied it. "
                + "Restore the original migrations/ file. Nothing was changed."
        case let .missingMigration(version):
            "the database records migration \(version), which this notes does not have. Nothing was changed."
        case let .failed(version, name, message):
            "migration \(version) (\(name)) failed and was rolled back: \(message)"
        }
    }
}

public struct Migrator: Sendable {
    public let migrations: [Migration]

    /// The migrations compiled into this binary from migrations/.
    public static let embedded = Migrator(migrations: embeddedMigrations.compactMap { Migration(fileName: $0.name, sql: $0.sql) })

    /// What a migration does that SQL cannot, run after its script in its transaction, by name.
    static let completions: [String: @Sendable (Database) throws -> Void] = ["vector_sketches": NoteStore.sketchStoredVectors]

    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Checks what is applied and applies the rest. A database that is current costs one read.
    func migrate(_ database: Database, upTo target: Int? = nil) throws {
        let target = target ?? latestVersion
        let current = Int(try database.scalarInt("PRAGMA user_version") ?? 0)
        if current > latestVersion { throw MigrationError.databaseNewer(databaseVersion: current, knownVersion: latestVersion) }
        if current > 0 { try verifyApplied(database) }
        if current >= target { return }
        try database.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL)
            """)
        for migration in migrations where migration.version <= target {
            // Re-read inside the write lock: another process may have just applied it.
            try database.transaction {
                let applied = try database.scalarInt("PRAGMA user_version") ?? 0
                if applied > Int64(latestVersion) {
                    throw MigrationError.databaseNewer(databaseVersion: Int(applied), knownVersion: latestVersion)
                }
                guard applied < Int64(migration.version) else { return }
                do {
                    try database.executeScript(migration.sql)
                    try Self.completions[migration.name]?(database)
                } catch let error as DatabaseError {
                    throw MigrationError.failed(version: migration.version, name: migration.name, message: error.message)
                }
                try database.execute(
                    "INSERT INTO schema_migrations(version, name, checksum, applied_at) VALUES (?, ?, ?, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))",
                    [migration.version, migration.name, migration.checksum])
                try database.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }

    /// Every applied migration must be one of ours, unchanged.
    /// Every migration applied, as this binary has them (throws as `migrate` would for a newer,
    /// edited or unknown one); false when some are still to apply.
    func isCurrent(_ database: Database) throws -> Bool {
        let current = Int(try database.scalarInt("PRAGMA user_version") ?? 0)
        if current > latestVersion { throw MigrationError.databaseNewer(databaseVersion: current, knownVersion: latestVersion) }
        guard current == latestVersion, current > 0 else { return false }
        try verifyApplied(database)
        return true
    }

    private func verifyApplied(_ database: Database) throws {
        let byVersion = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        try database.statement("SELECT version, name, checksum FROM schema_migrations ORDER BY version").forEachRow { row in
            let applied = Int(row.int(0))
            guard let known = byVersion[applied] else { throw MigrationError.missingMigration(version: applied) }
            if known.checksum != row.string(2) { throw MigrationError.editedMigration(version: applied, name: row.string(1)) }
        }
    }
}
