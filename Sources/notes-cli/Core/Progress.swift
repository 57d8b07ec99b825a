// A progress bar on standard error, shown only on a terminal, redrawn at most ten times a second.
import Notes

final class ProgressBar {
    private let terminal: Terminal
    private let total: Int
    private let label: String
    private var lastDraw: Int64 = 0
    private let enabled: Bool

    init(terminal: Terminal, total: Int, label: String) {
        self.terminal = terminal
        self.total = max(total, 1)
        self.label = label
        enabled = terminal.err.isTerminal && total > 50
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let now = Clock.now().milliseconds
        guard now - lastDraw >= 100 || done >= total else { return }
        lastDraw = now
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        terminal.err.write("\r\(label) \(bar) \(done)/\(total)")
        terminal.err.flush()
    }

    func finish() {
        guard enabled else { return }
        terminal.err.write("\r\u{1B}[2K")
        terminal.err.flush()
    }
}
