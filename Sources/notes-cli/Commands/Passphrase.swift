// An encrypted remote's passphrase: from NOTES_PASSPHRASE_FILE (scripts, the daemon), else
// typed on the terminal without echo, else none (the sync says how to give one).
#if canImport(Glibc)
import Notes
import Glibc
#endif
import Sync

enum Passphrase {
    /// `askOnTerminal` false for the daemon: it has no one to ask.
    static func source(environment: [String: String], askOnTerminal: Bool) -> PassphraseSource {
        let file = Settings(environment)[.passphraseFile]
        return { request in
            if let file { return try read(file) }
            guard askOnTerminal else { return nil }
            return try ask(request)
        }
    }

    /// The file's bytes without the line break an editor or `echo` leaves at the end.
    static func read(_ path: String) throws -> [UInt8] {
        var passphrase: [UInt8]
        do { passphrase = try FileSystem.read(path) } catch {
            throw SyncError.passphrase("cannot read NOTES_PASSPHRASE_FILE (\(error)); nothing was changed")
        }
        if passphrase.last == UInt8(ascii: "\n") { passphrase.removeLast() }
        if passphrase.last == UInt8(ascii: "\r") { passphrase.removeLast() }
        guard !passphrase.isEmpty else { throw SyncError.passphrase("NOTES_PASSPHRASE_FILE (\(path)) is empty; nothing was changed") }
        return passphrase
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
