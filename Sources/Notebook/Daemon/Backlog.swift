// The daemon's progress through a backlog (two notes or more pending): a line every
// `everyNotes` notes or `everyMilliseconds`, with the pace and the time left, and one when it
// is done. Notes added meanwhile join it. Pure: it is told the pending counts and the time.

public final class Backlog {
    static let everyNotes = 10
    static let everyMilliseconds: Int64 = 60_000
    private var throughput: Throughput?
    private var done = 0
    private var lastLine: (done: Int, at: Int64) = (0, 0)

    public init() {}

    /// After one step of the analysis queue (`worked`: it analysed something), with the full
    /// analyses pending before and after it: the line to log, if one is due.
    public func step(worked: Bool, pendingBefore: Int, pendingAfter: Int, now: Int64) -> String? {
        guard worked else {
            defer { throughput = nil }
            guard let throughput, done > 0, let pace = throughput.notesPerMinute(done: done, now: now) else { return nil }
            return "backlog done: \(done) notes, \(Throughput.pace(pace)) notes/min"
        }
        if throughput == nil {
            guard pendingBefore >= 2 else { return nil }
            (throughput, done, lastLine) = (Throughput(total: pendingBefore, started: now), 0, (0, now))
        }
        guard let current = throughput else { return nil }
        // A quick analysis leaves the note pending for its full one.
        done += max(0, pendingBefore - pendingAfter)
        let work = Throughput(total: done + pendingAfter, started: current.started)
        throughput = work
        guard done - lastLine.done >= Backlog.everyNotes || now - lastLine.at >= Backlog.everyMilliseconds else { return nil }
        lastLine = (done, now)
        return "backlog: " + work.report(done: done, now: now)
    }
}
