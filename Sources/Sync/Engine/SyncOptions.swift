// How a sync runs: the deletion guard, its retries and waits, the ssh credentials and where an
// encrypted remote's passphrase comes from.

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
