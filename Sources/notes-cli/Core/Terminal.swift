// Where a command writes: the standard streams (Notebook/Process) and the colour rules.
import Notebook
import Notes

/// Where a command's output goes, and how it should look.
final class Terminal {
    let out = OutputStream(descriptor: 1)
    let err = OutputStream(descriptor: 2)
    let environment: [String: String]

    init(environment: [String: String]) { self.environment = environment }

    /// Colour only on a terminal, never with NO_COLOR (any value) or TERM=dumb.
    lazy var colorsOut: Bool = out.isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    lazy var colorsErr: Bool = err.isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"

    func print(_ line: String = "") {
        // Two appends, not a copy of the line with its newline: a listing prints 10,000 lines.
        out.write(line)
        out.write(bytes: CollectionOfOne(UInt8(ascii: "\n")))
    }
    func printError(_ line: String) { err.write(line + "\n") }

    func style(_ text: String, _ codes: String, onStderr: Bool = false) -> String {
        (onStderr ? colorsErr : colorsOut) ? "\u{1B}[\(codes)m\(text)\u{1B}[0m" : text
    }
    func bold(_ text: String) -> String { style(text, "1") }
    func dim(_ text: String) -> String { style(text, "2") }
    func yellow(_ text: String) -> String { style(text, "33") }
    func red(_ text: String) -> String { style(text, "31") }
    func cyan(_ text: String) -> String { style(text, "36") }

    func flush() {
        out.flush()
        err.flush()
    }

    /// Everything on standard input, as bytes.
    func readStandardInput() -> [UInt8] {
        StandardInput.readAll()
    }

    var stdinIsTerminal: Bool { StandardInput.isTerminal }

    /// For the kill tests (`NOTES_SYNC_PAUSE_AT`, `NOTES_IMPORT_PAUSE_AT`): the process stops
    /// itself (SIGSTOP) after saying where on stderr, so that a test can kill it exactly there.
    func pauseForKillTest(at point: String) {
        printError("notes: paused at \(point)")
        err.flush()
        ProcessControl.stopForKillTest()
    }

    /// Asks a yes/no question on the terminal; anything but y/yes is no.
    func confirm(_ question: String) -> Bool {
        err.write(question + " [y/N] ")
        flush()
        let answer = StandardInput.readLine().trimmingWhitespace().lowercased()
        return answer == "y" || answer == "yes"
    }
}

