// Daemon logs on stderr, one line per event: journald reads the <N> priority prefix when it is
// the reader (JOURNAL_STREAM is set); on a terminal or in a file, lines carry a UTC time instead.
import Notes

final class DaemonLog {
    enum Level: Int { case error = 3, warning = 4, info = 6, debug = 7 }

    private let terminal: Terminal
    private let journal: Bool

    init(terminal: Terminal, environment: [String: String]) {
        self.terminal = terminal
        journal = environment["JOURNAL_STREAM"] != nil
    }

    func log(_ level: Level, _ message: String) {
        let prefix = journal ? "<\(level.rawValue)>" : Clock.now().iso8601 + " "
        terminal.err.write(prefix + message.replacingOccurrences("\n", with: " ") + "\n")
        terminal.err.flush()
    }

    func info(_ message: String) { log(.info, message) }
    func warning(_ message: String) { log(.warning, message) }
    func error(_ message: String) { log(.error, message) }
}
