// At most one sync per repository at a time, across processes: an flock on a file in the repo.
import Notes

/// Held while it lives; the kernel releases it if the process dies, so a crash never leaves
/// it stuck (unlike git's own `.lock` files).
public final class SyncLock {
    public var path: String { lock.path }
    private let lock: FileLock

    private init(lock: FileLock) { self.lock = lock }

    /// The lock, or nil when another sync (in this or another process) still holds it after
    /// `patience`. The short wait is not for a running sync (the daemon skips a round rather
    /// than block the CLI) but for a lock just released: a child process forked at that moment
    /// shares the lock's open file until it execs, and flock belongs to the open file.
    static func tryAcquire(repositoryPath: String, patience: Duration = .milliseconds(250)) throws -> SyncLock? {
        let path = repositoryPath + "/notes-sync.lock"
        do {
            // Two engines in one process are serialised as well (see `FileLock`).
            return try FileLock.acquire(.exclusive, at: path, patience: patience).map(SyncLock.init)
        } catch let error as FileSystemError {
            throw SyncError.git(GitError(function: "open(\(path))", code: error.code, errorClass: 0, message: error.reason))
        }
    }
}
