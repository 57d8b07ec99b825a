// An advisory lock on a file (flock) that the kernel releases when its holder dies, however it
// dies: the one way processes of notes exclude each other without a lock that can go stale.
import Glibc

/// Held while it lives. flock locks belong to the open file description, so two `FileLock`s on
/// one path exclude each other within one process as well as across processes.
public final class FileLock {
    public enum Kind: Sendable { case shared, exclusive }

    public let path: String
    public let kind: Kind
    /// How long acquiring it waited for other holders (zero when it was free).
    public let waited: Duration
    private let descriptor: Int32

    private init(path: String, kind: Kind, waited: Duration, descriptor: Int32) {
        self.path = path
        self.kind = kind
        self.waited = waited
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Locks the file at `path` (created 0600 when `create` and missing), waiting up to
    /// `patience` for other holders; nil when one still holds it then. A missing file that is
    /// not to be created, or one that cannot be opened, throws `FileSystemError`.
    public static func acquire(_ kind: Kind, at path: String, create: Bool = true, patience: Duration) throws -> FileLock? {
        // O_RDONLY is enough: flock needs no write access, and a reader of a notebook it may
        // not write can still wait on its lock.
        let descriptor = create ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, FileSystem.fileMode) : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(path: path, code: errno) }
        let operation = (kind == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB
        let start = ContinuousClock.now
        // Polled rather than blocking, so the wait has a bound the caller chooses: a holder that
        // is stopped (SIGSTOP, a hung disk) must not hang every other process without a word.
        var pause: useconds_t = 1_000
        while flock(descriptor, operation) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw FileSystemError(path: path, code: code)
            }
            guard ContinuousClock.now - start < patience else {
                close(descriptor)
                return nil
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return FileLock(path: path, kind: kind, waited: ContinuousClock.now - start, descriptor: descriptor)
    }

    /// Replaces the file's contents with `bytes`, in place: a rename would leave this lock on a
    /// file that nobody else opens any more. Emptied first, so that a holder that dies, or a
    /// write that fails (a full disk), leaves the file empty or whole, never partly new. Only a
    /// lock acquired with `create` can write.
    public func write(_ bytes: [UInt8]) throws {
        guard ftruncate(descriptor, 0) == 0 else { throw FileSystemError(path: path, code: errno) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let code = count < 0 ? errno : ENOSPC
                _ = ftruncate(descriptor, 0)
                throw FileSystemError(path: path, code: code)
            }
            offset += count
        }
    }
}
