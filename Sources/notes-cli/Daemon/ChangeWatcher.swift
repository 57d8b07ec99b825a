// Sleeps until the notebook changes, a signal arrives or a timeout passes, without polling:
// inotify on the notebook directory and a signalfd for SIGTERM, SIGINT and SIGHUP.
#if canImport(Glibc)
import Glibc
#endif

final class ChangeWatcher {
    enum Wake: Equatable { case changed, signal(Int32), timeout }

    private let inotify: Int32
    private let signals: Int32
    private let fileNames: Set<String>

    /// Watches `directory` for writes to the database and its WAL. Blocks SIGTERM, SIGINT and
    /// SIGHUP for the process so that they arrive here instead of killing it.
    init(directory: String, fileNames: Set<String>) throws {
        self.fileNames = fileNames
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw CommandFailure("cannot watch \(directory) for changes: \(systemError(errno))") }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        guard inotify_add_watch(inotify, directory, mask) >= 0 else {
            throw CommandFailure("cannot watch \(directory) for changes: \(systemError(errno))")
        }
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signals = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard signals >= 0 else { throw CommandFailure("cannot receive signals: \(systemError(errno))") }
    }

    deinit {
        close(inotify)
        close(signals)
    }

    /// A signal that arrived since the last call, if any; never blocks.
    func pendingSignal() -> Int32? {
        var info = signalfd_siginfo()
        let count = withUnsafeMutableBytes(of: &info) { read(signals, $0.baseAddress, $0.count) }
        return count == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }

    /// Waits up to `milliseconds` (-1: forever) for a change to a watched file or a signal.
    func wait(milliseconds: Int32) -> Wake {
        if let signal = pendingSignal() { return .signal(signal) }
        var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, 2, milliseconds)
        if ready <= 0 { return .timeout }
        if let signal = pendingSignal() { return .signal(signal) }
        return drainEvents() ? .changed : .timeout
    }

    /// Reads every queued inotify event; true when one names a watched file.
    private func drainEvents() -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                if fileNames.contains(String(decoding: nameBytes, as: UTF8.self)) { relevant = true }
                offset += header + length
            }
        }
    }
}
