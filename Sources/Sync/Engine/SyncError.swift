// Why a sync stopped. Each case says what happened and what the user can do.

public enum SyncError: Error, CustomStringConvertible, Sendable {
    case git(GitError)
    case alreadyRunning(lockFile: String)
    case noSuchRemote(String)
    /// Our last-synced remote tip is not in the remote's history any more.
    case remoteRewritten(remote: String, lastSynced: String, now: String?)
    case newerFormat(found: Int, supported: Int)
    case tooManyDeletions(count: Int, of: Int)
    case unreadableFile(path: String, reason: String)
    /// The remote's branch moved (or dropped our commit) in every attempt: other machines
    /// kept pushing.
    case pushNotConfirmed(remote: String, attempts: Int)
    /// A lock in the remote stopped the push: a path remote's lock file younger than
    /// `GitLocks.staleAge` (with its age), or the lock an ssh server's git reported (no age).
    case remoteLocked(remote: String, lock: String, age: Int64?)
    case pushRejected(ref: String, status: String)
    case notebookKeptChanging(attempts: Int)
    case authenticationFailed(attempts: Int)
    case unknownHostKey(host: String, fingerprint: String, knownHosts: String)
    case hostKeyChanged(host: String, fingerprint: String, knownHosts: String)
    case hostKeyUnverifiable(host: String)
    case noSuchConflict(String)
    /// The notebook (its storage) failed; nothing was imported.
    case notebook(String)
    /// libsodium is missing (or failed): encrypted remotes cannot be used.
    case encryptionUnavailable(String)
    case wrongPassphrase(remote: String)
    /// An encrypted remote, no key cached here, and no passphrase to derive one.
    case passphraseNeeded(remote: String)
    /// The passphrase could not be read (its file, the terminal).
    case passphrase(String)
    /// A remote added as plain holds encrypted notes.
    case remoteIsEncrypted(remote: String, url: String)
    /// A remote added with --encrypt holds plain notes (or something that is not notes).
    case remoteIsPlain(remote: String)
    /// A sealed object failed authentication: changed without the key, or damaged.
    case tampered(object: String, what: String)
    /// The remote's salt or key check changed after this machine had synced with it.
    case encryptionChanged(remote: String)
    case unreadableKeyFile(remote: String, reason: String)
    case keyNotCached(path: String)

    public var description: String {
        switch self {
        case let .git(error): "git: \(error)"
        case let .alreadyRunning(file): "another sync is running (it holds \(file)); try again when it ends"
        case let .noSuchRemote(name): "no remote named '\(name)'; add one with: notes remote add \(name) URL"
        case let .remoteRewritten(remote, last, now):
            """
            the history of remote '\(remote)' was rewritten: the commit we last synced (\(last.prefix(12))) \
            is not in its branch any more (now \(now.map { String($0.prefix(12)) } ?? "missing")). Nothing was changed. \
            Choices: if the remote was replaced on purpose, run 'notes remote remove \(remote)' and add it again \
            (the next sync merges both notebooks, losing nothing); or restore the remote from a backup.
            """
        case let .newerFormat(found, supported):
            "the remote uses sync format \(found), this version understands up to \(supported); update notes on this machine"
        case let .tooManyDeletions(count, total):
            "this sync would delete \(count) of \(total) notes; nothing was changed. Run 'notes sync --allow-deletes' if that is intended"
        case let .unreadableFile(path, reason): "cannot read \(path) in the sync repository: \(reason)"
        case let .pushNotConfirmed(remote, attempts):
            "other machines kept pushing to '\(remote)': its branch moved during each of \(attempts) attempts; nothing was lost, run 'notes sync' again"
        case let .remoteLocked(remote, lock, age?):
            """
            another machine is syncing with \(remote) right now: it holds the lock \(lock) \
            (\(GitLockFile.describe(age: age)) old); try again in a moment. Nothing was lost. If no other machine \
            is syncing, an interrupted sync left it, and a sync removes it once it is \(GitLocks.staleAge) s old\
            \(age < GitLocks.staleAge ? " (in \(GitLocks.staleAge - age) s)" : "")
            """
        case let .remoteLocked(remote, status, nil):
            """
            the server of \(remote) holds a lock on the branch (\(status)): another machine is syncing \
            with it right now; try again in a moment. Nothing was lost. If it stays, a sync was \
            interrupted on the server: remove the lock file it names there
            """
        case let .pushRejected(ref, status): "the remote refused to update \(ref): \(status)"
        case let .notebookKeptChanging(attempts): "the notebook changed during each of \(attempts) attempts; run 'notes sync' again"
        case let .authenticationFailed(attempts):
            "ssh authentication failed after \(attempts) attempts; load your key in ssh-agent or give a key file"
        case let .unknownHostKey(host, fingerprint, knownHosts):
            """
            the ssh host key of \(host) is unknown (\(fingerprint)); the sync stopped. If that fingerprint is \
            the server's, trust it with: ssh-keyscan \(keyscanArguments(host)) >> \(knownHosts)
            """
        case let .hostKeyChanged(host, fingerprint, knownHosts):
            """
            the ssh host key of \(host) CHANGED (now \(fingerprint)); the sync stopped. This can be an attack. \
            If the server was reinstalled, remove its old line from \(knownHosts) \
            (ssh-keygen -R '\(host)' -f \(knownHosts)) and trust the new key
            """
        case let .hostKeyUnverifiable(host): "the ssh server \(host) did not give a host key that can be checked"
        case let .noSuchConflict(id): "note \(id) has no conflict to resolve"
        case let .notebook(message): "the notebook failed: \(message)"
        case let .encryptionUnavailable(reason):
            "encrypted remotes need libsodium (Debian: apt-get install libsodium23): \(reason)"
        case let .wrongPassphrase(remote):
            "wrong passphrase for the encrypted remote '\(remote)' (its key check does not match); nothing was changed"
        case let .passphraseNeeded(remote):
            """
            the remote '\(remote)' is encrypted and this machine has no key for it; nothing was changed. Run the \
            command on a terminal to type the passphrase, or set NOTES_PASSPHRASE_FILE to a file holding it
            """
        case let .passphrase(message): message
        case let .remoteIsEncrypted(remote, url):
            """
            the remote '\(remote)' holds encrypted notes, but it was added here as a plain remote; nothing was \
            changed. Add it with its passphrase: notes remote remove \(remote) && notes remote add \(remote) \(url) --encrypt
            """
        case let .remoteIsPlain(remote):
            """
            the remote '\(remote)' holds notes in plain text (or something that is not notes), not encrypted ones; \
            nothing was changed. Encrypting it would leave the plain notes readable in its history: use a new \
            empty repository with --encrypt, or add this one without --encrypt
            """
        case let .tampered(object, what):
            """
            \(what) in the encrypted remote failed authentication (object \(object.prefix(12))): it was changed by \
            someone without the key, or damaged; nothing was changed here. Restore the remote from a backup, or \
            sync from another machine into a new empty remote
            """
        case let .encryptionChanged(remote):
            """
            the remote '\(remote)' was encrypted again with another key since this machine last synced with it; \
            nothing was changed. If that was intended, run 'notes remote remove \(remote)' and add it again with \
            --encrypt and its new passphrase
            """
        case let .unreadableKeyFile(remote, reason):
            "cannot read the notes-encrypted file of the remote '\(remote)': \(reason); nothing was changed"
        case let .keyNotCached(path): "cannot write the key file \(path); nothing was changed"
        }
    }
}

private func keyscanArguments(_ host: String) -> String {
    // "[host]:port" in known_hosts is "-p port host" for ssh-keyscan.
    guard host.hasPrefix("["), let close = host.firstIndex(of: "]") else { return host }
    let name = host[host.index(after: host.startIndex)..<close]
    let port = host[host.index(after: close)...].dropFirst()
    return "-p \(port) \(name)"
}
