// The daemon's sync schedule, driven by a clock the test sets.
@testable import Notebook
import Testing

/// `take` outside `#expect`, which cannot call a mutating method.
private func take(_ schedule: inout SyncSchedule, at now: Int64) -> Bool { schedule.take(at: now) }

struct SyncScheduleTests {
    @Test func firstSoonThenEveryInterval() {
        var schedule = SyncSchedule(interval: 300_000, now: 0, hasRemote: true)
        #expect(schedule.nextDeadline == SyncSchedule.firstDelay)
        #expect(!take(&schedule, at: 1_999))
        #expect(take(&schedule, at: 2_000))
        #expect(schedule.nextDeadline == 302_000)
        #expect(!take(&schedule, at: 301_999))
        #expect(take(&schedule, at: 302_500))
        #expect(schedule.nextDeadline == 602_500)
    }

    @Test func aLocalChangeSyncsOnceTheNotebookStaysQuiet() {
        var schedule = SyncSchedule(interval: 300_000, now: 0, hasRemote: true)
        #expect(take(&schedule, at: 2_000))
        schedule.localChange(at: 50_000)
        schedule.localChange(at: 55_000)
        #expect(schedule.nextDeadline == 55_000 + SyncSchedule.debounce)
        #expect(!take(&schedule, at: 64_999))
        #expect(take(&schedule, at: 65_000))
        // The change was synced: back to the interval, counted from that sync.
        #expect(schedule.nextDeadline == 365_000)
    }

    @Test func withoutARemoteChangesWaitAndTheIntervalLooksForOne() {
        var schedule = SyncSchedule(interval: 60_000, now: 0, hasRemote: false)
        schedule.localChange(at: 1_000)
        #expect(schedule.nextDeadline == 2_000)
        #expect(take(&schedule, at: 2_000))
        schedule.remotesRead(hasRemote: false)
        schedule.localChange(at: 3_000)
        #expect(schedule.nextDeadline == 62_000)
        #expect(take(&schedule, at: 62_000))
        // A remote added meanwhile is seen at the interval; from then on changes count.
        schedule.remotesRead(hasRemote: true)
        schedule.localChange(at: 70_000)
        #expect(schedule.nextDeadline == 80_000)
    }
}
