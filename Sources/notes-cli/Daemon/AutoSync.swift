// The daemon's syncing: on an interval, and a little after local changes (debounced), one at a
// time (the engine's lock also keeps a manual `notes sync` from running at the same moment).
import Notebook
import Notes
import Storage
import Sync

/// Runs the syncs that `SyncSchedule` (Notebook) says are due, and logs them.
struct AutoSync {
    let context: Context
    let log: DaemonLog
    private var schedule: SyncSchedule
    private var lastFailure: String?

    init(context: Context, log: DaemonLog, interval: Int64) {
        self.context = context
        self.log = log
        schedule = SyncSchedule(interval: interval, now: Clock.now().milliseconds, hasRemote: AutoSync.remoteConfigured(context))
    }

    var nextDeadline: Int64 { schedule.nextDeadline }

    private static func remoteConfigured(_ context: Context) -> Bool {
        FileSystem.exists(context.syncRepositoryPath) && ((try? context.syncEngine().remotes().isEmpty) == false)
    }

    /// A write reached the database: sync soon if it was a local change not yet synced (a
    /// sync's own import, or nothing new, does not count, or syncing would never stop).
    mutating func noteLocalChange(store: NoteStore) throws {
        guard schedule.hasRemote, try store.unsyncedChangeCount() > 0 else { return }
        schedule.localChange(at: Clock.now().milliseconds)
    }

    mutating func runIfDue(store: NoteStore) throws {
        guard schedule.take(at: Clock.now().milliseconds) else { return }
        schedule.remotesRead(hasRemote: AutoSync.remoteConfigured(context))
        guard schedule.hasRemote else { return }
        do {
            let engine = try context.syncEngine()
            let remote = try SyncRules.defaultRemote(among: engine.remotes().map(\.name))
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
            if message != lastFailure { log.error("sync failed (retrying every \(schedule.interval / 1000) s): \(message)") }
            lastFailure = message
        }
    }
}
