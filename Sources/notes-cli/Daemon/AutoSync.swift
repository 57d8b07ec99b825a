// The daemon's syncing: on an interval, and a little after local changes (debounced), one at a
// time (the engine's lock also keeps a manual `notes sync` from running at the same moment).
import Notes
import Storage
import Sync

struct AutoSync {
    let context: Context
    let log: DaemonLog
    let interval: Int64
    /// How long the notebook must stay quiet after a local change before it is synced.
    static let debounce: Int64 = 10_000

    private var nextInterval: Int64
    private var afterChange: Int64?
    private var lastFailure: String?
    /// Read from the sync repository at start and at each interval, not on every wake-up: a
    /// remote added while the daemon runs is used from the next interval on.
    private var hasRemote: Bool

    init(context: Context, log: DaemonLog, interval: Int64) {
        self.context = context
        self.log = log
        self.interval = interval
        nextInterval = Clock.now().milliseconds + 2_000
        hasRemote = AutoSync.remoteConfigured(context)
    }

    /// When the next sync (or, without a remote, the next look for one) is due.
    var nextDeadline: Int64 { hasRemote ? min(nextInterval, afterChange ?? .max) : nextInterval }

    private static func remoteConfigured(_ context: Context) -> Bool {
        FileSystem.exists(context.syncRepositoryPath) && ((try? context.syncEngine().remotes().isEmpty) == false)
    }

    /// A write reached the database: sync soon if it was a local change not yet synced (a
    /// sync's own import, or nothing new, does not count, or syncing would never stop).
    mutating func noteLocalChange(store: NoteStore) throws {
        guard hasRemote, try store.unsyncedChangeCount() > 0 else { return }
        afterChange = Clock.now().milliseconds + AutoSync.debounce
    }

    mutating func runIfDue(store: NoteStore) throws {
        guard Clock.now().milliseconds >= nextDeadline else { return }
        afterChange = nil
        nextInterval = Clock.now().milliseconds + interval
        hasRemote = AutoSync.remoteConfigured(context)
        guard hasRemote else { return }
        do {
            let engine = try context.syncEngine()
            let remote = try SyncCommand.defaultRemote(engine)
            // The daemon asks no one: an encrypted remote needs the cached key or NOTES_PASSPHRASE_FILE.
            let summary = try engine.sync(remote: remote, options: SyncOptions(
                credentials: context.sshCredentials, passphrase: Passphrase.source(environment: context.environment, askOnTerminal: false)))
            for notice in summary.lockNotices { log.info(notice) }
            if summary.sent + summary.received + summary.conflicted > 0 || lastFailure != nil {
                log.info("synced with \(remote): \(summary.sent) sent, \(summary.received) received, \(summary.merged) merged, \(summary.conflicted) conflicted")
            }
            lastFailure = nil
        } catch {
            let message = NotesCLI.describe(error, context: context)
            if message != lastFailure { log.error("sync failed (retrying every \(interval / 1000) s): \(message)") }
            lastFailure = message
        }
    }
}
