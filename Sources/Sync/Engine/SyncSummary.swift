// What a sync did, for the CLI's summary line and `--json`.

public struct SyncSummary: Hashable, Sendable {
    public var remote: String
    /// Notes (and deletions) this machine contributed in this sync.
    public var sent: Int
    /// Notes the import wrote to the notebook: new, changed or deleted elsewhere, or merged.
    public var received: Int
    /// Notes changed on both sides and merged.
    public var merged: Int
    /// Notes flagged for the user by this sync (see `SyncEngine.conflicts()`).
    public var conflicted: Int
    /// The commit both sides now have.
    public var commit: String
    /// Pushes it took (more than one when another machine pushed meanwhile).
    var attempts: Int
    /// Locks that interrupted syncs had left (here or in the remote) and this sync removed.
    var removedLocks: [GitLockFile]

    public init(remote: String, sent: Int, received: Int, merged: Int, conflicted: Int, commit: String, attempts: Int,
                removedLocks: [GitLockFile] = []) {
        self.remote = remote
        self.sent = sent
        self.received = received
        self.merged = merged
        self.conflicted = conflicted
        self.commit = commit
        self.attempts = attempts
        self.removedLocks = removedLocks
    }

    /// What the user reads of them: a line per lock ("removed a stale lock left by an
    /// interrupted sync, 4 min old (/media/usb/notes.git/refs/heads/main.lock)"), and one for
    /// the half-written packs and objects, which block nothing but take room.
    public var lockNotices: [String] {
        let locks = removedLocks.filter { $0.path.hasSuffix(".lock") }
        let partial = removedLocks.count - locks.count
        return locks.map { "removed a stale lock left by an interrupted sync, \(GitLockFile.describe(age: $0.age)) old (\($0.path))" }
            + (partial == 0 ? [] : ["removed \(partial) half-written file\(partial == 1 ? "" : "s") left by an interrupted sync"])
    }

    /// One JSON object, keys in a fixed order.
    public var json: String {
        "{\"remote\":\"\(RepositoryFormat.quoted(remote).dropFirst().dropLast())\",\"sent\":\(sent),\"received\":\(received)," +
            "\"merged\":\(merged),\"conflicted\":\(conflicted),\"commit\":\"\(commit)\",\"attempts\":\(attempts)}"
    }
}

public struct SyncOptions: Sendable {
    /// Lets a sync delete more than `SyncEngine.deletionLimit` notes.
    public var allowDeletes: Bool
    /// Rounds of fetch, merge, import and push before giving up when the remote keeps moving.
    var maximumAttempts: Int
    /// How long a push to a path remote waits for another machine's writes there to end.
    var writerPatience = RemoteWriter.patience
    /// How a write to a path remote waits for a fresh lock there (tests make it observable).
    var lockWait = LockWait()
    /// For ssh remotes.
    public var credentials: RemoteCredentials?
    /// Asked for an encrypted remote's passphrase when this machine has no key cached for it
    /// (or another machine set the remote up first); nil, or a nil answer, stops the sync and
    /// says how to give one.
    public var passphrase: PassphraseSource?

    public init(allowDeletes: Bool = false, maximumAttempts: Int = 5, credentials: RemoteCredentials? = nil,
                passphrase: PassphraseSource? = nil) {
        self.allowDeletes = allowDeletes
        self.maximumAttempts = maximumAttempts
        self.credentials = credentials
        self.passphrase = passphrase
    }
}

/// Why a passphrase is asked: for a remote being encrypted now (worth asking twice) or for
/// one that already is.
public struct PassphraseRequest: Sendable {
    public let remote: String
    public let isNew: Bool
}

/// Gives a passphrase's bytes, or nil when there is none to give (no terminal, no file).
public typealias PassphraseSource = @Sendable (PassphraseRequest) throws -> [UInt8]?
