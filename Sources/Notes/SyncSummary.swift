// What a sync did, for the summary line, `--json` and the daemon's log; and the stale lock files
// it removed on the way.

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
    /// Locks that interrupted syncs had left (here or in the remote) and this sync removed.
    public var removedLocks: [GitLockFile]

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
        "{\"remote\":\"\(QuotedString.quoted(remote).dropFirst().dropLast())\",\"sent\":\(sent),\"received\":\(received)," +
            "\"merged\":\(merged),\"conflicted\":\(conflicted),\"commit\":\"\(commit)\",\"attempts\":\(attempts)}"
    }
}

/// A lock (`refs/heads/main.lock`, `index.lock`, `objects/pack/pack-….idx.lock`) or a pack or
/// object being written (`objects/pack/pack_git2_…`), and how long ago it was last written.
public struct GitLockFile: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    /// Seconds since its last modification, measured against the file's mtime.
    public let age: Int64

    package init(path: String, age: Int64) {
        self.path = path
        self.age = age
    }

    public var description: String { "\(path), \(GitLockFile.describe(age: age)) old" }

    /// "12 s", "4 min", "3 h", "2 days".
    public static func describe(age seconds: Int64) -> String {
        switch seconds {
        case ..<120: "\(max(0, seconds)) s"
        case ..<7200: "\(seconds / 60) min"
        case ..<172_800: "\(seconds / 3600) h"
        default: "\(seconds / 86400) days"
        }
    }
}
