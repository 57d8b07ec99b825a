// Standard streams without Foundation: buffered writes, TTY detection and colour rules.
#if canImport(Glibc)
import Glibc
#endif
import Notes

/// Buffered output to a file descriptor; flushed at exit and before anything reads input.
final class OutputStream: TextOutputStream {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) { self.descriptor = descriptor }

    lazy var isTerminal: Bool = isatty(descriptor) == 1

    func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    func write(bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count > 1 << 16 { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                break // EPIPE (output closed, e.g. `notes list | head`): nothing more to say.
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Where a command's output goes, and how it should look.
final class Terminal {
    let out = OutputStream(descriptor: STDOUT_FILENO)
    let err = OutputStream(descriptor: STDERR_FILENO)
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
        FileSystem.readAll(descriptor: STDIN_FILENO)
    }

    var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// For the kill tests (`NOTES_SYNC_PAUSE_AT`, `NOTES_IMPORT_PAUSE_AT`): the process stops
    /// itself (SIGSTOP) after saying where on stderr, so that a test can kill it exactly there.
    func pauseForKillTest(at point: String) {
        printError("notes: paused at \(point)")
        err.flush()
        raise(SIGSTOP)
    }

    /// Asks a yes/no question on the terminal; anything but y/yes is no.
    func confirm(_ question: String) -> Bool {
        err.write(question + " [y/N] ")
        flush()
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1, byte != 10 { line.append(byte) }
        let answer = String(decoding: line, as: UTF8.self).trimmingWhitespace().lowercased()
        return answer == "y" || answer == "yes"
    }
}

