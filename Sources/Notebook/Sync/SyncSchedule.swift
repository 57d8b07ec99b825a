// When the daemon syncs: a pure state machine, told the time, so that tests drive it.

/// Every `interval`, and `debounce` after a local change not yet synced, as long as the
/// notebook stays quiet that long (each change moves it on); never two at once, since the
/// daemon runs one when `take` says so and asks again only afterwards. Without a remote, the
/// interval is when to look for one again.
public struct SyncSchedule: Sendable, Equatable {
    /// How long the notebook must stay quiet after a local change before it is synced.
    static let debounce: Int64 = 10_000
    /// The first sync after start: soon, but not in the middle of start-up.
    static let firstDelay: Int64 = 2_000

    public let interval: Int64
    /// Read from the sync repository at start and at each interval, not on every wake-up: a
    /// remote added while the daemon runs is used from the next interval on.
    public private(set) var hasRemote: Bool
    private var nextInterval: Int64
    private var afterChange: Int64?

    /// `interval` and `now` in milliseconds.
    public init(interval: Int64, now: Int64, hasRemote: Bool) {
        self.interval = interval
        self.hasRemote = hasRemote
        nextInterval = now + SyncSchedule.firstDelay
    }

    /// When the next sync (or, without a remote, the next look for one) is due.
    public var nextDeadline: Int64 { hasRemote ? min(nextInterval, afterChange ?? .max) : nextInterval }

    /// A local change not yet synced happened at `now`.
    public mutating func localChange(at now: Int64) {
        guard hasRemote else { return }
        afterChange = now + SyncSchedule.debounce
    }

    /// True when a sync is due at `now`; the schedule then counts the next interval from now
    /// and forgets the change it waited for. The caller reads the remotes again
    /// (`remotesRead`) and syncs if there is one.
    public mutating func take(at now: Int64) -> Bool {
        guard now >= nextDeadline else { return false }
        afterChange = nil
        nextInterval = now + interval
        return true
    }

    public mutating func remotesRead(hasRemote: Bool) {
        self.hasRemote = hasRemote
    }
}
