// An encrypted remote's passphrase from NOTES_PASSPHRASE_FILE: how scripts and the daemon,
// which have no one to ask, give it.
import Notes
import Sync

public enum PassphraseFile {
    /// The file NOTES_PASSPHRASE_FILE names, if set.
    public static func path(environment: [String: String]) -> String? { Settings(environment)[.passphraseFile] }

    /// The passphrase from the file when one is named, else none (the sync then says how to give one).
    public static func source(environment: [String: String]) -> PassphraseSource {
        let file = path(environment: environment)
        return { _ in try file.map(read) }
    }

    /// The file's bytes without the line break an editor or `echo` leaves at the end.
    public static func read(_ path: String) throws -> [UInt8] {
        var passphrase: [UInt8]
        do { passphrase = try FileSystem.read(path) } catch {
            throw SyncError.passphrase("cannot read NOTES_PASSPHRASE_FILE (\(error)); nothing was changed")
        }
        if passphrase.last == UInt8(ascii: "\n") { passphrase.removeLast() }
        if passphrase.last == UInt8(ascii: "\r") { passphrase.removeLast() }
        guard !passphrase.isEmpty else { throw SyncError.passphrase("NOTES_PASSPHRASE_FILE (\(path)) is empty; nothing was changed") }
        return passphrase
    }
}
