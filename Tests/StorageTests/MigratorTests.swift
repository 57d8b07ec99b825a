// The migrator: fresh databases, upgrades of every earlier version, and refusals that change nothing.
import Foundation
import Notes
import Testing
import TestSupport
@testable import Storage

struct MigratorTests {
    @Test func freshDatabaseReachesTheLatestVersion() throws {
        let database = try Database(path: ":memory:")
        try Migrator.embedded.migrate(database)
        #expect(try database.scalarInt("PRAGMA user_version") == Int64(Migrator.embedded.latestVersion))
        #expect(try database.scalarInt("SELECT count(*) FROM schema_migrations") == Int64(Migrator.embedded.migrations.count))
        // A second run is a no-op.
        try Migrator.embedded.migrate(database)
        #expect(try database.scalarInt("SELECT count(*) FROM schema_migrations") == Int64(Migrator.embedded.migrations.count))
    }

    @Test func embeddedMigrationsAreNumberedWithoutGaps() {
        let versions = Migrator.embedded.migrations.map(\.version)
        #expect(versions == Array(1...versions.count))
    }

    /// Every fixture is a notebook written at an earlier schema version; each must upgrade with
    /// every note, tag and tombstone intact, and stay searchable.
    @Test(arguments: ["schema-v1.sqlite", "schema-v2.sqlite"])
    func upgradesEarlierVersionsWithDataIntact(fixture: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notes.sqlite"
        try FileManager.default.copyItem(atPath: fixturesDirectory + "/" + fixture, toPath: path)
        let store = try NoteStore(database: Database(path: path))
        #expect(try store.database.scalarInt("PRAGMA user_version") == Int64(Migrator.embedded.latestVersion))

        let notes = try store.notes()
        #expect(notes.count == 3)
        let report = try #require(notes.first { $0.title == "Quarterly report" })
        #expect(report.tags == ["q4", "work"])
        #expect(report.body == "Quarterly report\n- [ ] draft numbers\n- [ ] send to Ana #work #q4")
        #expect(report.created == Timestamp(milliseconds: 1_764_000_100_000))
        #expect(report.updated == Timestamp(milliseconds: 1_764_000_200_000))
        #expect(try store.isDeleted(NoteID("01a1f000-0000-7000-8000-000000000004")!))
        #expect(try store.search("dentist").map(\.title) == ["Dentist appointment"])
        #expect(try store.search("日本語のノート").count == 1)
        #expect(try store.search("chateau").count == 1)
        // Nothing is analysed by "any" analyzer version: all pending; v2's analysis survives.
        #expect(try store.pendingAnalysisCount(analyzerVersion: "any") == 3)
        if fixture == "schema-v2.sqlite" {
            let dentist = try #require(notes.first { $0.title == "Dentist appointment" })
            let analysis = try #require(try store.analysis(for: dentist.id))
            #expect(analysis.category == .health)
            #expect(analysis.urgency == 4)
            #expect(analysis.tasks == [TaskItem(text: "call the dentist", done: true)])
            #expect(try store.pendingAnalysisCount(analyzerVersion: "fixture-1") == 2)
        }
        // Every upgraded note is new to sync.
        #expect(try store.snapshot(changedSince: nil).records.count == 4)
        #expect(try store.database.scalarText("PRAGMA integrity_check") == "ok")
    }

    @Test func refusesADatabaseNewerThanTheBinaryAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notes.sqlite"
        do {
            let database = try Database(path: path)
            try Migrator.embedded.migrate(database)
            try database.execute("PRAGMA user_version = 99")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: MigrationError.databaseNewer(databaseVersion: 99, knownVersion: Migrator.embedded.latestVersion)) {
            _ = try NoteStore(database: Database(path: path))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func refusesAnEditedAppliedMigration() throws {
        let database = try Database(path: ":memory:")
        try Migrator.embedded.migrate(database)
        var edited = Migrator.embedded.migrations
        let first = edited[0]
        edited[0] = Migration(fileName: "0001_\(first.name).sql", sql: first.sql + "\n-- edited\n")!
        #expect(throws: MigrationError.editedMigration(version: 1, name: first.name)) {
            try Migrator(migrations: edited).migrate(database)
        }
    }

    @Test func aFailingMigrationRollsBackAndReportsItsName() throws {
        let database = try Database(path: ":memory:")
        let migrations = [
            Migration(fileName: "0001_good.sql", sql: "CREATE TABLE a(x);")!,
            Migration(fileName: "0002_bad.sql", sql: "CREATE TABLE b(x); INSERT INTO missing VALUES (1);")!,
        ]
        #expect(throws: MigrationError.self) { try Migrator(migrations: migrations).migrate(database) }
        #expect(try database.scalarInt("PRAGMA user_version") == 1)
        #expect(try database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'b'") == 0)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notes.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect(throws: DatabaseError.self) { _ = try NoteStore.open(home: directory.path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aTruncatedDatabaseIsRefusedAndLeftUntouched() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try NoteStore.open(home: directory.path)
            for index in 0..<200 { try store.insert(try makeNote("note \(index) " + String(repeating: "text ", count: 50), at: 1_764_000_000_000 + Int64(index))) }
        }
        let path = directory.path + "/notes.sqlite"
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let damaged = whole.prefix(whole.count / 3) + Data(repeating: 0xAB, count: 4096) + whole.suffix(from: whole.count / 3 + 4096)
        try damaged.write(to: URL(fileURLWithPath: path))
        var failed = false
        do {
            let store = try NoteStore.open(home: directory.path)
            _ = try store.notes()
            _ = try store.search("note")
            failed = try store.database.scalarText("PRAGMA integrity_check") != "ok"
        } catch {
            failed = true
        }
        #expect(failed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
    }

    @Test func newNotebookFilesArePrivate() throws {
        let directory = TemporaryDirectory()
        let home = directory.path + "/nested/home"
        _ = try NoteStore.open(home: home)
        let homeMode = try FileManager.default.attributesOfItem(atPath: home)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: home + "/notes.sqlite")[.posixPermissions] as? Int
        #expect(homeMode == 0o700)
        #expect(fileMode == 0o600)
    }
}
