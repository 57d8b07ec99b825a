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
    public var attempts: Int

    public init(remote: String, sent: Int, received: Int, merged: Int, conflicted: Int, commit: String, attempts: Int) {
        self.remote = remote
        self.sent = sent
        self.received = received
        self.merged = merged
        self.conflicted = conflicted
        self.commit = commit
        self.attempts = attempts
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
    public var maximumAttempts: Int
    /// For ssh remotes.
    public var credentials: RemoteCredentials?

    public init(allowDeletes: Bool = false, maximumAttempts: Int = 5, credentials: RemoteCredentials? = nil) {
        self.allowDeletes = allowDeletes
        self.maximumAttempts = maximumAttempts
        self.credentials = credentials
    }
}
