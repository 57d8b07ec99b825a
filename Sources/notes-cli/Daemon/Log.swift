// Daemon logs on stderr, one line per event: journald reads the <N> priority prefix when it is
// the reader (JOURNAL_STREAM is set); on a terminal or in a file, lines carry a UTC time instead.
import Notebook
import Notes

final class DaemonLog: DaemonLogging {
    private let terminal: Terminal
    private let journal: Bool

    init(terminal: Terminal, environment: [String: String]) {
        self.terminal = terminal
        journal = environment["JOURNAL_STREAM"] != nil
    }

    func log(_ level: LogLevel, _ message: String) {
        let prefix = journal ? "<\(level.rawValue)>" : Timestamp.current.iso8601 + " "
        terminal.err.write(prefix + message.replacingOccurrences("\n", with: " ") + "\n")
        terminal.err.flush()
    }

    /// For the daemon's other threads (the query service): the whole line in one write(2), so
    /// it never interleaves with the main thread's, which are flushed line by line.
    static func writeFromAnyThread(_ level: LogLevel, _ message: String, journal: Bool) {
        let prefix = journal ? "<\(level.rawValue)>" : Timestamp.current.iso8601 + " "
        OutputStream.writeAtOnce(prefix + message.replacingOccurrences("\n", with: " ") + "\n", descriptor: 2)
    }

    var forOtherThreads: @Sendable (LogLevel, String) -> Void {
        let journal = self.journal
        return { level, message in DaemonLog.writeFromAnyThread(level, message, journal: journal) }
    }
}
