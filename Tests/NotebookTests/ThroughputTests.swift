// The pace and time left that progress bars and the daemon's backlog lines show.
import Testing
@testable import Notebook

struct ThroughputTests {
    @Test func paceAndTimeLeftFromTheWorkSoFar() {
        let work = Throughput(total: 200, started: 1_000_000)
        // 12 notes in 90 s: 8 a minute, 188 left take 23.5 min.
        #expect(work.notesPerMinute(done: 12, now: 1_090_000) == 8)
        #expect(work.millisecondsLeft(done: 12, now: 1_090_000) == 1_410_000)
        #expect(work.report(done: 12, now: 1_090_000) == "12/200, 8.0 notes/min, about 24 min left")
        #expect(work.report(done: 200, now: 1_090_000) == "200/200, 133 notes/min")
    }

    @Test func noPaceBeforeTheFirstNote() {
        let work = Throughput(total: 5, started: 0)
        #expect(work.notesPerMinute(done: 0, now: 10_000) == nil)
        #expect(work.report(done: 0, now: 10_000) == "0/5")
        #expect(work.report(done: 1, now: 0) == "1/5")
    }

    @Test func durationsReadAsAPersonSaysThem() {
        #expect(Throughput.duration(20_000) == "under a minute")
        #expect(Throughput.duration(23 * 60_000) == "about 23 min")
        #expect(Throughput.duration(125 * 60_000) == "about 2 h 05 min")
        #expect(Throughput.pace(0.44) == "0.4")
        #expect(Throughput.pace(9.96) == "10.0")
        #expect(Throughput.pace(139.6) == "140")
    }
}

struct BacklogTests {
    @Test func aBacklogIsReportedEveryTenNotesAndWhenDone() {
        let backlog = Backlog()
        var lines: [String] = []
        // 12 pending; each note first gets its quick analysis (still pending), then its full one.
        for index in 0..<12 {
            let pending = 12 - index
            let time = Int64(index) * 6_000
            if let line = backlog.step(worked: true, pendingBefore: pending, pendingAfter: pending, now: time) { lines.append(line) }
            if let line = backlog.step(worked: true, pendingBefore: pending, pendingAfter: pending - 1, now: time + 5_000) { lines.append(line) }
        }
        if let line = backlog.step(worked: false, pendingBefore: 0, pendingAfter: 0, now: 72_000) { lines.append(line) }
        #expect(lines == ["backlog: 10/12, 10 notes/min, under a minute left", "backlog done: 12 notes, 10 notes/min"])
    }

    @Test func oneNoteIsNoBacklog() {
        let backlog = Backlog()
        #expect(backlog.step(worked: true, pendingBefore: 1, pendingAfter: 0, now: 0) == nil)
        #expect(backlog.step(worked: false, pendingBefore: 0, pendingAfter: 0, now: 1_000) == nil)
    }
}
