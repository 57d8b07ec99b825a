// Opening a notebook from many connections at once, and what a busy notebook's error says.
import Foundation
import Notes
import Testing
import TestSupport
@testable import Storage

struct NotebookSetupTests {
    /// Connections in one process exclude each other through the setup lock as processes do
    /// (flock belongs to the open file), so threads stand in for processes here; the CLI's
    /// `ConcurrentOpenTests` races real ones.
    @Test(arguments: [false, true])
    func connectionsOpeningOneNotebookAtOnceAllSucceed(upgrading: Bool) throws {
        for round in 0..<200 {
            let directory = TemporaryDirectory()
            let home = directory.path + "/home"
            if upgrading {
                try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: fixturesDirectory + "/schema-v2.sqlite", toPath: home + "/" + NoteStore.databaseFileName)
            }
            let failures = Shared<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                do {
                    let store = try NoteStore.open(home: home)
                    try store.insert(makeNote("round \(round) note \(index)", at: 1_764_000_000_000 + Int64(index)))
                } catch {
                    failures.mutate { $0.append("connection \(index): \(error)") }
                }
            }
            #expect(failures.value.isEmpty, "round \(round): \(failures.value)")
            let store = try NoteStore.open(home: home)
            #expect(try store.notes().count == 8 + (upgrading ? 3 : 0))
            #expect(try store.database.isWriteAheadLog)
            #expect(try store.database.scalarInt("PRAGMA user_version") == Int64(Migrator.embedded.latestVersion))
            #expect(try store.database.scalarText("PRAGMA integrity_check") == "ok")
        }
    }

    /// A database in WAL mode with one table `t`, and a second connection to it.
    private func twoConnections(in directory: TemporaryDirectory, busyTimeout: Duration = Database.busyTimeout) throws -> (Database, Database) {
        let path = directory.path + "/notes.sqlite"
        let first = try Database(path: path)
        try first.useWriteAheadLog()
        try first.execute("CREATE TABLE t(x)")
        return (first, try Database(path: path, busyTimeout: busyTimeout))
    }

    @Test func aBusyErrorSaysHowLongItWaited() throws {
        let directory = TemporaryDirectory()
        let (holder, waiter) = try twoConnections(in: directory, busyTimeout: .milliseconds(30))
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        do {
            try waiter.execute("INSERT INTO t VALUES (1)")
            Issue.record("the insert should have found the notebook busy")
        } catch let error as DatabaseError {
            #expect(error.code == DatabaseError.SQLITE_BUSY.rawValue)
            let waited = try #require(error.waited)
            #expect(waited >= .milliseconds(30))
        }
    }

    /// A read transaction that would write after another connection committed cannot be helped
    /// by waiting (SQLITE_BUSY_SNAPSHOT): SQLite fails at once, and the error says it did not wait.
    @Test func aBusyErrorThatDidNotWaitSaysSo() throws {
        let directory = TemporaryDirectory()
        let (writer, reader) = try twoConnections(in: directory)
        try reader.execute("BEGIN DEFERRED")
        defer { try? reader.execute("ROLLBACK") }
        _ = try reader.scalarInt("SELECT count(*) FROM t")
        try writer.execute("INSERT INTO t VALUES (1)")
        do {
            try reader.execute("INSERT INTO t VALUES (2)")
            Issue.record("the stale reader's write should have been refused")
        } catch let error as DatabaseError {
            #expect(error.code == DatabaseError.SQLITE_BUSY.rawValue)
            #expect(error.waited == nil)
        }
    }
}
