// When the daemon's model sleeps: the durations people write, and the moment it falls asleep.
import Testing
@testable import Notebook

struct KeepAliveTests {
    @Test func durationsAsPeopleWriteThem() {
        #expect(KeepAlive("5m")?.duration == 300_000)
        #expect(KeepAlive("90s")?.duration == 90_000)
        #expect(KeepAlive("90")?.duration == 90_000)
        #expect(KeepAlive("1h")?.duration == 3_600_000)
        #expect(KeepAlive("250ms")?.duration == 250)
        #expect(KeepAlive("0")?.duration == 0)
        #expect(KeepAlive("forever") == KeepAlive(duration: nil))
        #expect(KeepAlive("-1") == KeepAlive(duration: nil))
        for wrong in ["", "m", "5 minutes", "-5m", "1.5h", "99999999999999999h"] { #expect(KeepAlive(wrong) == nil, "\(wrong)") }
        #expect(KeepAlive.standard.description == "5 min")
        #expect(KeepAlive(duration: 90_000).description == "90 s")
        #expect(KeepAlive(duration: nil).description == "forever")
    }

    @Test func theModelSleepsAfterTheDurationWithoutWork() {
        let keepAlive = KeepAlive.standard
        #expect(keepAlive.sleepTime(lastWork: 1_000) == 301_000)
        #expect(!keepAlive.shouldSleep(lastWork: 1_000, now: 300_999))
        #expect(keepAlive.shouldSleep(lastWork: 1_000, now: 301_000))
        #expect(KeepAlive(duration: 0).shouldSleep(lastWork: 1_000, now: 1_000))
        #expect(!KeepAlive(duration: nil).shouldSleep(lastWork: 0, now: .max))
        #expect(KeepAlive(duration: nil).sleepTime(lastWork: 0) == nil)
    }
}
