// Why a sync stopped. Each case says what happened and what the user can do.
import Notes

public enum SyncError: Error, CustomStringConvertible, Sendable {
    case git(GitError)
    case alreadyRunning(lockFile: String)
    case noSuchRemote(String)
    /// `notes remote add` with a name that is taken (`url`: the remote's).
    case remoteExists(name: String, url: String)
    /// A path remote that cannot be used, when it is added (nothing is) or synced with.
    case unusableRemote(remote: String, path: String, problem: RemoteProblem, use: RemoteUse)
    /// The network connection to `host` (an ssh remote's server) ended during a fetch or push;
    /// `detail` is what libgit2 said.
    case connectionLost(remote: String, host: String, use: RemoteUse, detail: String)
    /// No connection to `host` could be made (refused, no route, a name that does not resolve).
    case unreachable(remote: String, host: String, use: RemoteUse, detail: String)
    /// Another machine's sync, alive, holds the path remote's writer lock (see `RemoteWriter`).
    case remoteBusy(remote: String, lockFile: String)
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
        case let .remoteExists(name, url):
            """
            a remote named '\(name)' already exists (\(url)); nothing was changed. To point it elsewhere: \
            notes remote remove \(name), then notes remote add \(name) URL (your notes stay here, and the old remote keeps its copy)
            """
        case let .unusableRemote(remote, path, problem, use): Self.describe(problem, of: remote, at: path, use)
        case let .connectionLost(remote, host, use, detail): Self.describeConnection(to: host, of: remote, lost: true, use, detail)
        case let .unreachable(remote, host, use, detail): Self.describeConnection(to: host, of: remote, lost: false, use, detail)
        case let .remoteBusy(remote, lockFile):
            """
            another machine is syncing with \(remote) right now (it holds \(lockFile)); try again when it ends. \
            Nothing was lost
            """
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

/// When a path remote's problem was met: what was being done decides what was lost (nothing)
/// and what is left to do.
public enum RemoteUse: Sendable {
    /// `notes remote add`: nothing is added.
    case adding
    /// A fetch: nothing was changed on this machine.
    case reading
    /// A push: this machine keeps every note, merged, and the next sync sends them.
    case writing
    /// The fetch after a push that checks it landed: the notes are merged here already.
    case checking
}

extension SyncError {
    /// `error`, from using the path remote `remote` at `path`, in the user's words when the
    /// remote's directory or disk explains it (see `RemoteProblem.explaining`); else as it is.
    static func explaining(_ error: GitError, remote: String, at path: String, _ use: RemoteUse) -> SyncError {
        guard let problem = RemoteProblem.explaining(error, at: path, writing: use == .writing) else { return .git(error) }
        return .unusableRemote(remote: remote, path: path, problem: problem, use: use)
    }

    /// A connection that ended mid-way (`lost`) or never began. Neither loses anything: libgit2
    /// writes fetched objects and moves refs only after the whole pack arrived, and
    /// git-receive-pack on the server does the same with a push, so each side has all of a
    /// transfer or none of it.
    static func describeConnection(to host: String, of remote: String, lost: Bool, _ use: RemoteUse, _ detail: String) -> String {
        let doing = switch use {
        case .adding, .reading: lost ? "while fetching from '\(remote)'" : "to fetch from '\(remote)'"
        case .writing: lost ? "while sending notes to '\(remote)'" : "to send notes to '\(remote)'"
        case .checking: lost ? "while checking that '\(remote)' got the notes" : "to check that '\(remote)' got the notes"
        }
        let outcome = switch use {
        case .adding: "; no remote was added. Run the command again"
        case .reading: ". Nothing was changed here, and nothing was lost. Run 'notes sync' again"
        case .writing:
            """
            . Nothing was lost: this machine has every note, merged with what '\(remote)' had, and '\(remote)' has \
            either all of this push or none of it. Run 'notes sync' again to send what it lacks
            """
        case .checking: ". Nothing was lost: this machine has every note, merged. Run 'notes sync' again to check that '\(remote)' has them"
        }
        let what = lost ? "the connection to \(host) was lost \(doing)" : "cannot reach \(host) \(doing)"
        let check = lost ? "if it keeps failing, check the network to \(host)" : "is it on, and can this machine reach it?"
        return what + outcome + " (\(check)). libgit2 said: \(detail)"
    }

    static func describe(_ problem: RemoteProblem, of remote: String, at path: String, _ use: RemoteUse) -> String {
        let what = switch problem {
        case .missing: "\(path) does not exist (if it is on a disk or a share, is it mounted?)"
        case .notADirectory: "\(path) is a file, not a git repository"
        case .emptyDirectory: "\(path) is an empty directory, not a git repository"
        case .notARepository: "\(path) is not a git repository"
        case .notBare: "\(path) is a git repository with a working tree, and a remote must be a bare one (git does not push into checked-out files)"
        case .unreadable: "\(path) cannot be read by this user (permission denied)"
        case let .ownedByAnotherUser(uid):
            "\(path) belongs to another user (uid \(uid)), and git uses no repository that someone else owns unless you say you trust it"
        case .unwritable: "\(path) cannot be written by this user (permission denied)"
        case .readOnly: "\(path) is on a read-only disk or mount"
        case .full: "the disk that holds \(path) is full"
        }
        let outcome = switch use {
        case .adding: "; no remote was added."
        case .reading: ". Nothing was changed here, and nothing was lost."
        case .writing: ". Nothing was lost: this machine has every note, merged with what '\(remote)' had, and the next sync sends them."
        case .checking: ". Nothing was lost: this machine has every note, merged, and the next sync checks that '\(remote)' has them."
        }
        let elsewhere = "if the remote moved: notes remote remove \(remote), then notes remote add \(remote) NEW-PATH"
        let remedy = switch (problem, use) {
        case (.notBare, _): " Make a bare copy to sync through (git clone --bare \(path) NEW-PATH.git) and add that instead"
        case (.ownedByAnotherUser, _):
            " If you trust it: git config --global --add safe.directory \(FileSystem.realPath(path)) (or make it yours: sudo chown -R $USER \(path))"
        case (.unreadable, _), (.unwritable, _): " Give this user access to it (see: ls -ld \(path)), or sync as its owner"
        case (.readOnly, _): " Mount it read-write, then run 'notes sync' again"
        case (.full, _): " Free some space there, then run 'notes sync' again"
        case (.missing, .adding), (.emptyDirectory, .adding): " To make a new remote there: git init --bare \(path)"
        case (.notARepository, .adding), (.notADirectory, .adding):
            " Give the path of a bare repository, or make a new one: git init --bare NEW-PATH"
        case (.missing, _): " Mount it, then run 'notes sync' again; \(elsewhere)"
        case (.notADirectory, _), (.emptyDirectory, _), (.notARepository, _): " It was replaced or removed; \(elsewhere)"
        }
        let subject = use == .adding ? "cannot add the remote '\(remote)'" : "cannot sync with '\(remote)'"
        return subject + ": " + what + outcome + remedy
    }
}

private func keyscanArguments(_ host: String) -> String {
    // "[host]:port" in known_hosts is "-p port host" for ssh-keyscan.
    guard host.hasPrefix("["), let close = host.firstIndex(of: "]") else { return host }
    let name = host[host.index(after: host.startIndex)..<close]
    let port = host[host.index(after: close)...].dropFirst()
    return "-p \(port) \(name)"
}
