// Locks that a killed sync leaves behind, in the sync repository and in a path remote: removed
// when no live writer can hold them, waited for and named when one may.
import Foundation
import Notes
import Synchronization
import TestSupport
import Testing
@testable import Sync

@Suite(.serialized)
struct StaleLocks {
    /// A lock written "just now" however long the test takes: its time is an hour ahead, so
    /// its age stays under `GitLocks.staleAge` on any machine (no race against the 30 s rule).
    static let fresh: TimeInterval = -3600

    /// Writes `path` as a lock file whose last change was `age` seconds ago.
    func leaveLock(_ path: String, age: TimeInterval) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("0123456789abcdef0123456789abcdef01234567\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }

    /// Two machines that have synced once through a new remote, and a note on `a` waiting to be sent.
    func twoMachines(in directory: TemporaryDirectory) throws -> (a: Replica, b: Replica, remote: String, note: Note) {
        let remote = try makeBareRemote(in: directory)
        let (a, b, note) = try twoSyncedMachines(in: directory, remote: remote, seed: 500)
        return (a, b, remote, note)
    }

    @Test func aStaleBranchLockInTheRemoteIsRemovedAndSaidSo() throws {
        let directory = TemporaryDirectory()
        let (a, b, remote, note) = try twoMachines(in: directory)
        let lock = remote + "/refs/heads/main.lock"
        try leaveLock(lock, age: 3 * 3600 + 60)
        try leaveLock(remote + "/objects/pack/pack-0123456789abcdef0123456789abcdef01234567.idx.lock", age: 3 * 3600 + 60)
        try leaveLock(remote + "/objects/pack/pack_git2_Xa91Qz", age: 3 * 3600 + 60)

        let summary = try a.sync()
        #expect(summary.sent == 1)
        #expect(!FileManager.default.fileExists(atPath: lock))
        #expect(summary.lockNotices.contains("removed a stale lock left by an interrupted sync, 3 h old (\(lock))"))
        #expect(summary.lockNotices.contains("removed 1 half-written file left by an interrupted sync"))
        #expect(try b.sync().received == 1)
        #expect(b.notebook.notes[note.id] == note)
        _ = try run(["git", "--git-dir", remote, "fsck", "--strict", "--no-progress"])
    }

    /// What a push's wait for a fresh lock did: the locks it found held and the time it slept.
    final class LockWaits: Sendable {
        private let state = Mutex<(found: [String], slept: Duration)>(([], .zero))
        var found: [String] { state.withLock { $0.found } }
        var slept: Duration { state.withLock { $0.slept } }

        /// A wait that sleeps no time, only counts it; `whenWaiting` runs as each wait starts.
        func options(whenWaiting: @escaping @Sendable (String) -> Void = { _ in }) -> SyncOptions {
            var options = SyncOptions()
            options.lockWait.sleep = { duration in self.state.withLock { $0.slept += duration } }
            options.lockWait.waiting = { path in
                self.state.withLock { $0.found.append(path) }
                whenWaiting(path)
            }
            return options
        }
    }

    @Test func aFreshBranchLockIsWaitedForThenNamed() throws {
        let directory = TemporaryDirectory()
        let (a, b, remote, note) = try twoMachines(in: directory)
        let lock = remote + "/refs/heads/main.lock"
        try leaveLock(lock, age: Self.fresh)
        let waits = LockWaits()
        #expect {
            try a.sync(waits.options())
        } throws: { error in
            guard case let SyncError.remoteLocked(remoteName, path, age?) = error else { return false }
            return remoteName == "origin" && path == lock && age < GitLocks.staleAge
                && "\(error)".hasPrefix("another machine is syncing with origin right now: it holds the lock \(lock)")
        }
        // The whole patience, in its intervals, and no more: then the lock is named.
        let wait = SyncOptions().lockWait
        #expect(waits.slept == wait.patience)
        #expect(waits.found == Array(repeating: lock, count: Int(wait.patience / wait.interval)))
        #expect(a.notebook.notes[note.id] == note)

        // The other machine's sync ends: the next try goes through.
        try FileManager.default.removeItem(atPath: lock)
        try a.sync()
        try b.sync()
        #expect(b.notebook.notes[note.id] == note)
    }

    @Test func aLockReleasedWhileWaitingLetsTheSyncThrough() throws {
        let directory = TemporaryDirectory()
        let (a, _, remote, _) = try twoMachines(in: directory)
        let lock = remote + "/refs/heads/main.lock"
        try leaveLock(lock, age: Self.fresh)
        // The other machine's sync ends as soon as this one starts waiting for it.
        let waits = LockWaits()
        #expect(try a.sync(waits.options { try? FileManager.default.removeItem(atPath: $0) }).sent == 1)
        #expect(waits.found == [lock], "the lock was waited for once")
        #expect(waits.slept == SyncOptions().lockWait.interval)
    }

    /// Only this machine writes its incoming ref, and only while it holds its own sync lock:
    /// a lock on it is a dead sync's at any age.
    @Test func thisMachinesOwnIncomingRefLockIsRemovedAtAnyAge() throws {
        let directory = TemporaryDirectory()
        let (a, _, remote, _) = try twoMachines(in: directory)
        let incoming = remote + "/refs/notes-sync/incoming/" + (try a.engine.machineID()) + ".lock"
        try leaveLock(incoming, age: Self.fresh)
        let summary = try a.sync()
        #expect(summary.sent == 1)
        #expect(summary.removedLocks.map(\.path) == [incoming])
    }

    /// Another machine's fresh lock on its own incoming ref is not ours to remove.
    @Test func anotherMachinesFreshLockIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        let (a, _, remote, _) = try twoMachines(in: directory)
        let theirs = remote + "/refs/notes-sync/incoming/0000000000000000.lock"
        try leaveLock(theirs, age: Self.fresh)
        #expect(try a.sync().removedLocks.isEmpty)
        #expect(FileManager.default.fileExists(atPath: theirs))
    }

    /// A notes writer that dies (here: its lock's file closed without `end()`, as the kernel
    /// closes it when a process dies) leaves the remote's writer lock free and the locks it named
    /// behind. They are removed at once: a 0 s old branch lock is otherwise waited for, then
    /// refused as another machine's live sync.
    @Test func aDeadWritersLocksAreRemovedAtOnce() throws {
        let directory = TemporaryDirectory()
        let (a, b, remote, note) = try twoMachines(in: directory)
        let lock = remote + "/refs/heads/main.lock", pack = remote + "/objects/pack/pack_git2_5d0c9e1a2b3f4a6c"
        do {
            let dead = try #require(RemoteWriter.begin(remote: remote, patience: .zero))
            dead.willLeave(["refs/notes-sync/incoming/00000000deadbeef.lock", "objects/pack/pack_git2_*"])
            dead.willLeave(["refs/heads/main.lock"])
            try leaveLock(lock, age: Self.fresh)
            try leaveLock(pack, age: Self.fresh)
        }
        let summary = try a.sync()
        #expect(summary.sent == 1)
        #expect(Set(summary.removedLocks.map(\.path)) == [lock, pack])
        #expect(summary.lockNotices.contains { $0.hasPrefix("removed a stale lock left by an interrupted sync") && $0.hasSuffix("(\(lock))") })
        #expect(try String(contentsOfFile: remote + "/" + RemoteWriter.fileName, encoding: .utf8).isEmpty)
        #expect(try b.sync().received == 1)
        #expect(b.notebook.notes[note.id] == note)
        _ = try run(["git", "--git-dir", remote, "fsck", "--strict", "--no-progress"])
    }

    /// With no notes writer behind it (the writer lock is free and names nothing) a fresh
    /// branch lock may be a user's live `git push`: the 30 s rule stands.
    @Test func aFreshLockNoDeadWriterNamedIsRespected() throws {
        let directory = TemporaryDirectory()
        let (a, _, remote, note) = try twoMachines(in: directory)
        #expect(try String(contentsOfFile: remote + "/" + RemoteWriter.fileName, encoding: .utf8).isEmpty)
        let lock = remote + "/refs/heads/main.lock"
        try leaveLock(lock, age: Self.fresh)
        let waits = LockWaits()
        #expect {
            try a.sync(waits.options())
        } throws: { error in
            guard case let SyncError.remoteLocked(_, path, age?) = error else { return false }
            return path == lock && age < GitLocks.staleAge
        }
        #expect(waits.slept == GitLocks.patience, "waited for, then respected")
        #expect(FileManager.default.fileExists(atPath: lock))
        #expect(a.notebook.notes[note.id] == note)
    }

    /// A dead writer's list names only what it had begun to write: one that died sending its
    /// objects never touched the branch, so a fresh branch lock is someone else's (a live `git
    /// push`) and stands, while the pack it was writing goes at once. Plain git's temporaries
    /// and other refs' locks are never a notes writer's, whatever the list says.
    @Test func aDeadWriterAccountsOnlyForWhatItNamed() throws {
        let directory = TemporaryDirectory()
        let (a, b, remote, note) = try twoMachines(in: directory)
        let branchLock = remote + "/refs/heads/main.lock", pack = remote + "/objects/pack/pack_git2_77aa01"
        let plainGit = [remote + "/objects/pack/tmp_pack_Qx81aZ", remote + "/refs/heads/other.lock", remote + "/packed-refs.lock"]
        do {
            let dead = try #require(RemoteWriter.begin(remote: remote, patience: .zero))
            dead.willLeave(["refs/notes-sync/incoming/00000000deadbeef.lock", "objects/pack/pack_git2_*"])
            for path in [branchLock, pack] + plainGit { try leaveLock(path, age: Self.fresh) }
        }
        let waits = LockWaits()
        #expect(throws: SyncError.self) { try a.sync(waits.options()) }
        #expect(Set(waits.found) == [branchLock], "only the branch lock is waited for")
        #expect(!FileManager.default.fileExists(atPath: pack))
        #expect(([branchLock] + plainGit).allSatisfy { FileManager.default.fileExists(atPath: $0) })

        // The branch lock's owner finishes: the sync goes through, and the rest stays theirs.
        try FileManager.default.removeItem(atPath: branchLock)
        #expect(try a.sync().removedLocks.isEmpty)
        #expect(try b.sync().received == 1)
        #expect(b.notebook.notes[note.id] == note)
        #expect(plainGit.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    /// A live writer holds the writer lock: the push waits for it (here not at all), then says
    /// another machine is syncing; when it is done, the next sync goes through.
    @Test func aLiveWriterIsWaitedForThenNamed() throws {
        let directory = TemporaryDirectory()
        let (a, b, remote, note) = try twoMachines(in: directory)
        var options = SyncOptions()
        options.writerPatience = .zero
        var live = RemoteWriter.begin(remote: remote, patience: .zero)
        #expect(live != nil)
        #expect {
            try a.sync(options)
        } throws: { error in
            guard case let SyncError.remoteBusy(name, lockFile) = error else { return false }
            return name == "origin" && lockFile == remote + "/" + RemoteWriter.fileName
                && "\(error)".hasPrefix("another machine is syncing with origin right now (it holds \(lockFile))")
        }
        live?.end()
        live = nil
        try a.sync(options)
        #expect(try b.sync().received == 1)
        #expect(b.notebook.notes[note.id] == note)
    }

    /// The writer lock is trusted where every writer's kernel sees it.
    @Test func theWriterLockIsTrustedOnLocalDisksOnly() throws {
        let directory = TemporaryDirectory()
        #expect(RemoteWriter.sharesLocks(at: directory.path))
        #expect(!RemoteWriter.sharesLocks(at: directory.path + "/missing"))
        #expect(!RemoteWriter.sharesLocks(at: "/proc"))
    }

    /// Under the sync lock nothing else writes the sync repository: its locks go at any age.
    @Test func theSyncRepositorysOwnLocksAreRemoved() throws {
        let directory = TemporaryDirectory()
        let (a, _, _, _) = try twoMachines(in: directory)
        let repository = a.engine.repository.path
        let left = [repository + "/refs/heads/main.lock", repository + "/index.lock",
                    repository + "/refs/remotes/origin/main.lock", repository + "/objects/pack/pack_git2_q81mZa"]
        for path in left { try leaveLock(path, age: Self.fresh) }
        let summary = try a.sync()
        #expect(summary.sent == 1)
        #expect(Set(summary.removedLocks.map(\.path)) == Set(left))
        #expect(summary.lockNotices.count == 4)
        #expect(left.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        #expect(FileManager.default.fileExists(atPath: repository + "/notes-sync.lock"))
    }

    @Test func findsLocksWithTheirAge() throws {
        let directory = TemporaryDirectory()
        try leaveLock(directory.path + "/refs/heads/main.lock", age: 90)
        try leaveLock(directory.path + "/packed-refs.lock", age: 5)
        try leaveLock(directory.path + "/objects/ab/tmp_object_git2_aa", age: 5)
        try leaveLock(directory.path + "/objects/pack/pack-1.pack", age: 5)
        try leaveLock(directory.path + "/notes-sync.lock", age: 5)
        try leaveLock(directory.path + "/" + RemoteWriter.fileName, age: 5)
        let found = GitLocks.find(in: directory.path)
        #expect(found.map(\.path) == [directory.path + "/objects/ab/tmp_object_git2_aa", directory.path + "/packed-refs.lock",
                                      directory.path + "/refs/heads/main.lock"])
        #expect(found[2].age >= 90, "measured from its time, never less")
        #expect(GitLockFile.describe(age: 90) == "90 s" && GitLockFile.describe(age: 240) == "4 min"
            && GitLockFile.describe(age: 3 * 3600) == "3 h" && GitLockFile.describe(age: 3 * 86400) == "3 days")
        #expect(GitLocks.lockPath(in: "failed to lock file '/r/refs/heads/main.lock' for writing") == "/r/refs/heads/main.lock")
        #expect(GitLocks.lockPath(in: "no lock named here") == nil)
        let patterns = ["objects/pack/pack_git2_*", "refs/heads/main.lock"]
        #expect(found.map { GitLocks.isNamed($0, by: patterns, in: directory.path) } == [false, false, true])
        #expect(GitLocks.isNamed(GitLockFile(path: directory.path + "/objects/pack/pack_git2_ab12idx.lock", age: 0), by: patterns, in: directory.path))
        #expect(!GitLocks.isNamed(GitLockFile(path: directory.path + "/objects/pack/sub/pack_git2_ab", age: 0), by: patterns, in: directory.path))
    }
}
