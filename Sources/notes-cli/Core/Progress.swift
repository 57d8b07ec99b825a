// A progress bar on standard error, shown only on a terminal, redrawn at most ten times a second,
// with the pace and the time left (`Throughput`).
import Notebook
import Notes

final class ProgressBar {
    private let terminal: Terminal
    private let total: Int
    private let label: String
    private var lastDraw: Int64 = 0
    private let enabled: Bool
    private let throughput: Throughput

    init(terminal: Terminal, total: Int, label: String) {
        self.terminal = terminal
        self.total = max(total, 1)
        self.label = label
        enabled = terminal.err.isTerminal && total > 50
        throughput = Throughput(total: total, started: Timestamp.current.milliseconds)
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let now = Timestamp.current.milliseconds
        guard now - lastDraw >= 100 || done >= total else { return }
        lastDraw = now
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        terminal.err.write("\r\u{1B}[2K\(label) \(bar) " + throughput.report(done: done, now: now))
        terminal.err.flush()
    }

    func finish() {
        guard enabled else { return }
        terminal.err.write("\r\u{1B}[2K")
        terminal.err.flush()
    }
}
