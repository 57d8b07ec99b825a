// Lock files and temporaries that git and libgit2 leave in a git directory when a process dies
// mid-write, found with their age and removed when no live writer can own them.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Notes

/// Who may remove which lock, the rule stated once:
///
/// - In the sync repository, every lock and temporary, at any age: only a sync holding its
///   `notes-sync.lock` writes there, and a sync holds it.
/// - In a path remote, which other machines and plain git write too:
///   1. one last written more than `staleAge` ago (no live write keeps a lock that long);
///   2. this machine's own incoming ref's lock, at any age (only this machine writes that ref,
///      and only under its sync lock);
///   3. at any age, one that a dead notes writer named. Every notes writer holds the remote's
///      `notes-writer.lock` (an flock, which the kernel drops when its holder dies, however it
///      dies) for all of its writes there, and before each write it names in that file the lock
///      files the write may leave (`RemoteWriter`); it empties the file when it is done. So a
///      sync that holds the flock knows that no notes writer is alive, and a file that still
///      names something was left by one that died in the middle: what it names is that dead
///      writer's. A lock it does not name keeps rule 1, even one only a notes writer makes: plain
///      git (a user's `git push`) takes no flock and names nothing, so a fresh `main.lock` behind
///      an empty file may be a live push's, and removing a live lock can lose that push.
///   Rule 3 needs a flock that every writer of the remote sees: where it cannot be had (a
///   read-only remote, one this user may not write, a network filesystem whose locks may not
///   reach other machines) the sync writes without it, under rules 1 and 2 alone.
/// - Over ssh the server's git removes its own locks when its process ends; one that stays is
///   reported with the server's message, and nothing is removed from here.
enum GitLocks {
    /// How old a lock on a shared remote must be to be taken for a dead writer's. A ref lock is
    /// held for the milliseconds of one write, fsync and rename, and a pack being received has
    /// its mtime refreshed by every write, so 30 s is far beyond any live sync, even on a slow
    /// USB disk or network share, and short enough that a user retrying after a crash is not
    /// kept waiting for long.
    static let staleAge: Int64 = 30

    /// How long a fresh lock on a remote is waited for before the sync reports it.
    static let patience: Duration = .seconds(2)

    /// Every lock and temporary under `gitDirectory`. `notes-sync.lock` and `notes-writer.lock`
    /// are not ones: they are flocks, which the kernel releases when their process dies.
    static func find(in gitDirectory: String) -> [GitLockFile] {
        var found: [GitLockFile] = []
        let now = time(nil)
        func add(_ path: String, _ info: stat) { found.append(GitLockFile(path: path, age: Int64(now - info.st_mtim.tv_sec))) }
        forEachFile(in: gitDirectory, recursive: false) { path, name, info in
            if name.hasSuffix(".lock"), name != "notes-sync.lock", name != RemoteWriter.fileName { add(path, info) }
        }
        for folder in ["refs", "logs"] {
            forEachFile(in: gitDirectory + "/" + folder, recursive: true) { path, name, info in
                if name.hasSuffix(".lock") { add(path, info) }
            }
        }
        forEachFile(in: gitDirectory + "/objects", recursive: true) { path, name, info in
            if isTemporary(name) { add(path, info) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Names git (`tmp_pack_*`, `tmp_idx_*`, `tmp_obj_*`) and libgit2 (`pack_git2_*`,
    /// `tmp_object_git2_*`) give files they are still writing, and their lock files.
    static func isTemporary(_ name: String) -> Bool {
        name.hasSuffix(".lock") || name.hasPrefix("pack_git2_") || name.hasPrefix("tmp_object_git2_")
            || name.hasPrefix("tmp_pack_") || name.hasPrefix("tmp_idx_") || name.hasPrefix("tmp_rev_") || name.hasPrefix("tmp_obj_")
    }

    /// The lock at `path` with its age, or nil when it is gone.
    static func file(at path: String) -> GitLockFile? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return GitLockFile(path: path, age: Int64(time(nil) - info.st_mtim.tv_sec))
    }

    /// Whether `lock`, in `gitDirectory`, is one that `patterns` name: shell patterns for paths
    /// relative to the git directory (`refs/heads/main.lock`, `objects/pack/pack_git2_*`), where
    /// `*` stays within one folder.
    static func isNamed(_ lock: GitLockFile, by patterns: [String], in gitDirectory: String) -> Bool {
        guard lock.path.hasPrefix(gitDirectory + "/") else { return false }
        let relative = String(lock.path.dropFirst(gitDirectory.count + 1))
        return patterns.contains { fnmatch($0, relative, FNM_PATHNAME | FNM_PERIOD) == 0 }
    }

    /// Removes `locks` and returns those that were still there.
    static func remove(_ locks: [GitLockFile]) -> [GitLockFile] {
        locks.filter { unlink($0.path) == 0 }
    }

    /// The lock file a libgit2 error names ("failed to lock file '/r/refs/heads/main.lock' for
    /// writing"), if it names one.
    static func lockPath(in message: String) -> String? {
        GitError.quoted(in: message).first { $0.hasSuffix(".lock") }
    }

    private static func forEachFile(in directory: String, recursive: Bool, _ body: (String, String, stat) -> Void) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                if recursive { forEachFile(in: path, recursive: true, body) }
            } else {
                body(path, name, info)
            }
        }
    }
}

/// How a write to a path remote waits for a fresh lock (`SyncEngine.writingPastLocks`): it
/// tries again every `interval` until it has waited `patience`, then reports the lock. The
/// wait is counted in intervals slept, not read from a clock, so a test that passes a `sleep`
/// which returns at once sees the whole wait happen, and `waiting` tells it each time the
/// write found the lock held (the moment another machine's sync could end).
struct LockWait: Sendable {
    var patience = GitLocks.patience
    var interval: Duration = .milliseconds(50)
    var sleep: @Sendable (Duration) -> Void = LockWait.sleepingThread
    /// Called with the lock's path before each interval slept.
    var waiting: (@Sendable (String) -> Void)?

    static let sleepingThread: @Sendable (Duration) -> Void = { duration in
        let (seconds, attoseconds) = duration.components
        var left = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }
    }
}
