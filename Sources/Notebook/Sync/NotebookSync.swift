// The notebook's sync for the commands and the daemon: the engine over this notebook, with this
// machine's ssh credentials and the passphrase's source, and the default-remote rule. What it
// hands back are Notes values, so a caller needs no sync library of its own.
import Notes
import Sync

public struct NotebookSync {
    /// Where an encrypted remote's passphrase comes from when no key is cached on this machine.
    public enum Passphrases: Sendable {
        /// NOTES_PASSPHRASE_FILE, else typed on the terminal (a command run by a person).
        case fileOrTerminal
        /// NOTES_PASSPHRASE_FILE only (the daemon, which has no one to ask).
        case fileOnly
    }

    let engine: SyncEngine
    let credentials: RemoteCredentials
    let passphrase: PassphraseSource

    init(notebook: LocalNotebook, environment: [String: String], passphrases: Passphrases) throws {
        engine = try notebook.syncEngine()
        credentials = SSHCredentials.from(environment: environment)
        passphrase = switch passphrases {
        case .fileOrTerminal: PassphrasePrompt.source(environment: environment)
        case .fileOnly: PassphraseFile.source(environment: environment)
        }
    }

    // MARK: Remotes

    public func remotes() throws -> [RemoteInfo] {
        try engine.remotes()
    }

    /// The remote a sync uses when none is named (`SyncRules.defaultRemote`).
    public func defaultRemote() throws -> String {
        try SyncRules.defaultRemote(among: remotes().map(\.name))
    }

    public func addRemote(name: String, url: String) throws {
        try engine.addRemote(name: name, url: url)
    }

    /// Encrypts a new remote with a key of `cost`, or joins one another machine encrypted (then
    /// true). On any failure the remote is not added.
    public func addEncryptedRemote(name: String, url: String, cost: KeyCost) throws -> Bool {
        try engine.addEncryptedRemote(name: name, url: url, cost: cost, credentials: credentials, passphrase: passphrase)
    }

    public func describeRemote(_ name: String) throws -> RemoteDescription {
        try engine.describeRemote(name)
    }

    public func removeRemote(name: String) throws {
        try engine.removeRemote(name: name)
    }

    // MARK: Syncing

    /// Syncs with `remote`, or the default remote when nil; `progress` hears each step.
    public func sync(remote: String? = nil, allowDeletes: Bool = false, progress: ((SyncStep) -> Void)? = nil) throws -> SyncSummary {
        let name = try remote ?? defaultRemote()
        return try engine.sync(remote: name, options: SyncOptions(allowDeletes: allowDeletes, credentials: credentials, passphrase: passphrase),
                               progress: progress)
    }

    // MARK: Conflicts and history

    public func conflicts() throws -> [NoteConflict] {
        try engine.conflicts()
    }

    public func resolveConflict(_ id: NoteID, _ resolution: ConflictResolution, at time: Timestamp) throws {
        try engine.resolveConflict(id, resolution, at: time)
    }

    /// Every synced version of the note, newest first.
    public func history(of id: NoteID) throws -> [NoteRevision] {
        try engine.history(of: id)
    }
}

extension LocalNotebook {
    /// The notebook's sync; creates `repo/` in the home on first use.
    public func sync(environment: [String: String], passphrases: NotebookSync.Passphrases) throws -> NotebookSync {
        try NotebookSync(notebook: self, environment: environment, passphrases: passphrases)
    }
}
