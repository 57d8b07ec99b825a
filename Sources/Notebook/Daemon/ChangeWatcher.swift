// Sleeps until the notebook changes, a signal arrives or a timeout passes, without polling:
// inotify on the notebook directory, and a self-pipe that the SIGTERM/SIGINT/SIGHUP handler
// writes to (the classic way to make a signal wake poll()).
#if canImport(Glibc)
import Notes
import Glibc
#endif

/// The write end of the signal pipe, for the handler (a C function pointer cannot capture).
nonisolated(unsafe) private var signalPipe: Int32 = -1

public final class ChangeWatcher: DaemonWakeups {

    private let changes: FileChanges
    private let signals: Int32

    /// Watches `directory` for writes to the database and its WAL, and catches SIGTERM, SIGINT
    /// and SIGHUP so that they stop the loop between notes instead of killing the process.
    public init(directory: String, fileNames: Set<String>) throws {
        changes = try FileChanges(directory: directory, fileNames: fileNames)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw DaemonStartError(description: "cannot receive signals: \(FileSystem.message(errno: errno))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        signals = ends[0]
        signalPipe = ends[1]
        for caught in Self.stopSignals {
            // Only async-signal-safe work in the handler: one write(2).
            signal(caught) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe, &byte, 1)
            }
        }
        // A parent may have started us with these blocked (a signal mask is inherited across
        // exec, the daemon's own fresh start included): unblock them, or a SIGTERM would never
        // arrive. After the handlers, so that one already pending reaches the pipe.
        var set = sigset_t()
        sigemptyset(&set)
        for caught in Self.stopSignals { sigaddset(&set, caught) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Watches the notebook's database, making its directory first (an inotify watch needs it).
    public convenience init(notebook home: NotebookHome) throws {
        try FileSystem.createDirectories(home.path)
        try self.init(directory: home.path, fileNames: home.databaseFileNames)
    }

    /// The signals that stop the daemon cleanly.
    public static let stopSignals = [SIGTERM, SIGINT, SIGHUP]

    /// A signal that arrived since the last call, if any; never blocks.
    public func pendingSignal() -> Int32? {
        // Kept once read: the analysis asks too (to stop), and the loop must still see it.
        if received == nil {
            var byte: UInt8 = 0
            if read(signals, &byte, 1) == 1 { received = Int32(byte) }
        }
        return received
    }

    private var received: Int32?

    /// Waits up to `milliseconds` (-1: forever) for a change to a watched file or a signal, or
    /// for input on `input` (`notes mcp`'s standard input). A change is told before input.
    public func wait(milliseconds: Int32, input: Int32?) -> Wakeup {
        if let signal = pendingSignal() { return .signal(signal) }
        var descriptors = [pollfd(fd: changes.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
        if let input { descriptors.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if let signal = pendingSignal() { return .signal(signal) }
        if ready <= 0 { return .timeout }
        if descriptors[0].revents != 0, changes.drain() { return .changed }
        // POLLHUP or POLLERR as well: the read that follows sees the end of the input.
        if input != nil, descriptors[2].revents != 0 { return .readable }
        return .timeout
    }
}
