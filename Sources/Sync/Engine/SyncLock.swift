// At most one sync per repository at a time, across processes: an flock on a file in the repo.
import Notes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Held while it lives; the kernel releases it if the process dies, so a crash never leaves
/// it stuck (unlike git's own `.lock` files).
public final class SyncLock {
    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The lock, or nil when another sync (in this or another process) still holds it after
    /// `patience`. The short wait is not for a running sync (the daemon skips a round rather
    /// than block the CLI) but for a lock just released: a child process forked at that moment
    /// shares the lock's open file until it execs, and flock belongs to the open file.
    static func tryAcquire(repositoryPath: String, patience: Duration = .milliseconds(250)) throws -> SyncLock? {
        let path = repositoryPath + "/notes-sync.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw SyncError.git(GitError(function: "open(\(path))", code: code, errorClass: 0, message: FileSystem.message(errno: code)))
        }
        // flock locks belong to the open file description: two opens in one process exclude
        // each other too, so two engines in one process are serialised as well.
        let deadline = ContinuousClock.now + patience
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else {
                close(fd)
                return nil
            }
            usleep(5_000)
        }
        return SyncLock(path: path, descriptor: fd)
    }
}
