// One daemon per notebook: an exclusive flock on $NOTES_HOME/daemon.lock, holding its pid.
#if canImport(Glibc)
import Notes
import Glibc
#endif

/// The kernel drops the lock when the process dies, however it dies (kill -9 included), so a
/// stale lock file never blocks the next start.
public final class DaemonLock {
    public let path: String
    private let descriptor: Int32

    public enum Failure: Error, CustomStringConvertible {
        case alreadyRunning(path: String, pid: Int32?)
        case cannotOpen(path: String, reason: String)

        public var description: String {
            switch self {
            case let .alreadyRunning(path, pid):
                "a daemon is already running for this notebook" + (pid.map { " (pid \($0))" } ?? "") + "; its lock is \(path)"
            case let .cannotOpen(path, reason): "cannot open the daemon lock \(path): \(reason)"
            }
        }
    }

    /// Takes the lock or fails at once; never waits.
    public init(home: NotebookHome) throws {
        // The descriptor is set only once the lock is ours: a throw after every property is set
        // runs deinit, which would empty the running daemon's pid from the file.
        let path = home.daemonLock
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw Failure.cannotOpen(path: path, reason: FileSystem.message(errno: errno)) }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            let pid = DaemonLock.readPID(opened)
            close(opened)
            throw Failure.alreadyRunning(path: path, pid: pid)
        }
        self.path = path
        descriptor = opened
        let text = Array("\(getpid())\n".utf8)
        ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        ftruncate(descriptor, 0)
        close(descriptor)
    }

    /// The pid of the running daemon, or nil when none holds the lock.
    public static func runningPID(home: NotebookHome) -> Int32? {
        let descriptor = open(home.daemonLock, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return readPID(descriptor) ?? -1
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace())
    }
}
