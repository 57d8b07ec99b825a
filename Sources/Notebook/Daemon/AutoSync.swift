// The daemon's syncing: on an interval, and a little after local changes (debounced), one at a
// time (the engine's lock also keeps a manual `notes sync` from running at the same moment).
import Notes
import Storage

/// The notebook's remotes as the daemon sees them: whether there is one, and a sync with the
/// default one (`SyncRules.defaultRemote`). Tests give their own.
public protocol DaemonSyncing {
    /// Read at start and at each interval.
    func hasRemote() -> Bool
    func syncDefaultRemote() throws -> SyncSummary
}

/// The sync repository in the notebook's home; the daemon asks no one, so an encrypted remote
/// needs the cached key or NOTES_PASSPHRASE_FILE.
public struct LocalRemotes: DaemonSyncing {
    let notebook: LocalNotebook
    let environment: [String: String]

    public init(notebook: LocalNotebook, environment: [String: String]) {
        self.notebook = notebook
        self.environment = environment
    }

    public func hasRemote() -> Bool {
        FileSystem.exists(notebook.home.syncRepository) && ((try? sync().remotes().isEmpty) == false)
    }

    public func syncDefaultRemote() throws -> SyncSummary {
        try sync().sync()
    }

    private func sync() throws -> NotebookSync {
        try notebook.sync(environment: environment, passphrases: .fileOnly)
    }
}

/// Runs the syncs that `SyncSchedule` says are due, and logs them.
struct AutoSync {
    let remotes: any DaemonSyncing
    let log: any DaemonLogging
    let clock: () -> Timestamp
    /// The user's words for a failure (the executable's, which knows every error's message).
    let describe: (any Error) -> String
    private var schedule: SyncSchedule
    private var lastFailure: String?

    init(remotes: any DaemonSyncing, log: any DaemonLogging, interval: Int64, clock: @escaping () -> Timestamp, describe: @escaping (any Error) -> String) {
        self.remotes = remotes
        self.log = log
        self.clock = clock
        self.describe = describe
        schedule = SyncSchedule(interval: interval, now: clock().milliseconds, hasRemote: remotes.hasRemote())
    }

    var nextDeadline: Int64 { schedule.nextDeadline }

    /// A write reached the database: sync soon if it was a local change not yet synced (a
    /// sync's own import, or nothing new, does not count, or syncing would never stop).
    mutating func noteLocalChange(store: NoteStore) throws {
        guard schedule.hasRemote, try store.unsyncedChangeCount() > 0 else { return }
        schedule.localChange(at: clock().milliseconds)
    }

    mutating func runIfDue() {
        guard schedule.take(at: clock().milliseconds) else { return }
        schedule.remotesRead(hasRemote: remotes.hasRemote())
        guard schedule.hasRemote else { return }
        do {
            let summary = try remotes.syncDefaultRemote()
            for notice in summary.lockNotices { log.info(notice) }
            if summary.sent + summary.received + summary.conflicted > 0 || lastFailure != nil {
                log.info("synced with \(summary.remote): \(summary.sent) sent, \(summary.received) received, \(summary.merged) merged, \(summary.conflicted) conflicted")
            }
            lastFailure = nil
        } catch {
            let message = describe(error)
            if message != lastFailure { log.error("sync failed (retrying every \(schedule.interval / 1000) s): \(message)") }
            lastFailure = message
        }
    }
}
