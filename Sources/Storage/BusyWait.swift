// How a connection waits for another process's lock: SQLite's busy handler, which also remembers
// how long a wait that ran out lasted, so that the error can say so.
import CSQLite
import Glibc

/// SQLite returns SQLITE_BUSY in two ways: after the busy handler has waited its whole limit, or
/// at once, without calling it, where waiting could not help ("If SQLite determines that
/// invoking the busy handler could result in a deadlock, it will go ahead and return SQLITE_BUSY
/// to the application instead of invoking the busy handler", sqlite3_busy_handler). Only the
/// first is "the notebook stayed busy"; `takeWaitThatRanOut` tells them apart.
final class BusyWait {
    let limit: Duration
    private var started: ContinuousClock.Instant?
    private var ranOut: Duration?

    init(limit: Duration) { self.limit = limit }

    /// sqlite3_busy_timeout's own schedule: short pauses first, since most locks are held for
    /// the milliseconds of one commit.
    private static let pauses: [useconds_t] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100].map { $0 * 1_000 }

    /// Called by SQLite with the number of times it was called before for the same lock;
    /// true to try again.
    func shouldRetry(attempt: Int) -> Bool {
        let now = ContinuousClock.now
        if attempt == 0 {
            started = now
            ranOut = nil
        }
        let waited = now - (started ?? now)
        guard waited < limit else {
            ranOut = waited
            return false
        }
        usleep(BusyWait.pauses[min(attempt, BusyWait.pauses.count - 1)])
        return true
    }

    /// How long the last wait lasted, if it ran out since this was last asked; nil when SQLite
    /// gave up without waiting.
    func takeWaitThatRanOut() -> Duration? {
        defer { ranOut = nil }
        return ranOut
    }

    static let handler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, attempt in
        guard let context else { return 0 }
        return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().shouldRetry(attempt: Int(attempt)) ? 1 : 0
    }
}
