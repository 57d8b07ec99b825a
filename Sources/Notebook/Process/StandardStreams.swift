// The process's standard streams on the C library, without Foundation (it would load ICU at
// start-up): buffered output, whole writes from any thread, terminal detection, a line read,
// and the few process-wide switches the executable sets.
#if canImport(Glibc)
import Glibc
#endif
import Notes

/// Buffered output to a file descriptor; flushed at exit and before anything reads input.
public final class OutputStream: TextOutputStream {
    public let descriptor: Int32
    private var buffer: [UInt8] = []

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public lazy var isTerminal: Bool = isatty(descriptor) == 1

    public func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    public func write(bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count > 1 << 16 { flush() }
    }

    public func flush() {
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

    /// `text` in one write(2), unbuffered: from another thread, a line that never interleaves
    /// with the ones this stream flushes.
    public static func writeAtOnce(_ text: String, descriptor: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}

public enum StandardInput {
    public static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Everything on standard input, as bytes.
    public static func readAll() -> [UInt8] { FileSystem.readAll(descriptor: STDIN_FILENO) }

    /// One line, without its newline (for a yes/no answer).
    public static func readLine() -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1, byte != 10 { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }
}

public enum ProcessControl {
    /// Writing to a closed pipe must end quietly, not kill the process with SIGPIPE.
    public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// For the kill tests: the process stops itself (SIGSTOP), so that a test can kill it exactly there.
    public static func stopForKillTest() { raise(SIGSTOP) }
}
