// An encrypted remote's passphrase for a command: from NOTES_PASSPHRASE_FILE (`PassphraseFile`),
// else typed on the terminal without echo, else none (the sync says how to give one).
#if canImport(Glibc)
import Glibc
#endif
import Notes
import Sync

enum PassphrasePrompt {
    /// The file's passphrase when NOTES_PASSPHRASE_FILE names one, else typed on the terminal.
    static func source(environment: [String: String]) -> PassphraseSource {
        let file = PassphraseFile.path(environment: environment)
        return { request in
            if let file { return try PassphraseFile.read(file) }
            return try ask(request)
        }
    }

    /// Asks on the controlling terminal (never on a pipe), twice for a new remote.
    static func ask(_ request: PassphraseRequest) throws -> [UInt8]? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        let first = try prompt(request.isNew ? "New passphrase for the encrypted remote \(request.remote): "
                                             : "Passphrase for the encrypted remote \(request.remote): ", tty: tty)
        guard request.isNew else { return first }
        guard !first.isEmpty else { throw SyncError.passphrase("the passphrase is empty; nothing was changed") }
        let second = try prompt("Type it again: ", tty: tty)
        guard first == second else { throw SyncError.passphrase("the two passphrases differ; nothing was changed") }
        return first
    }

    private static func prompt(_ text: String, tty: Int32) throws -> [UInt8] {
        _ = text.withCString { write(tty, $0, strlen($0)) }
        var saved = termios()
        let hasTermios = tcgetattr(tty, &saved) == 0
        if hasTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            _ = tcsetattr(tty, TCSAFLUSH, &quiet)
        }
        defer { if hasTermios { _ = tcsetattr(tty, TCSAFLUSH, &saved) } }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(tty, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { throw SyncError.passphrase("no passphrase was typed; nothing was changed") }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }
}
