// How fast a long piece of work goes and when it ends: the pace so far (notes per minute) and
// the time left at that pace. The progress bars of `notes analyze` and `notes import` and the
// daemon's backlog lines say it the same way.

/// Work on `total` notes that began at `started` (milliseconds).
public struct Throughput: Sendable, Equatable {
    let total: Int
    let started: Int64

    public init(total: Int, started: Int64) {
        self.total = total
        self.started = started
    }

    /// Notes per minute over the work so far; nil until a note is done or a moment has passed.
    func notesPerMinute(done: Int, now: Int64) -> Double? {
        let elapsed = now - started
        guard done > 0, elapsed > 0 else { return nil }
        return Double(done) * 60_000 / Double(elapsed)
    }

    /// Milliseconds left at the pace so far; nil while there is no pace yet.
    func millisecondsLeft(done: Int, now: Int64) -> Int64? {
        guard let pace = notesPerMinute(done: done, now: now) else { return nil }
        return Int64((Double(max(0, total - done)) / pace * 60_000).rounded())
    }

    /// "12/200, 8.3 notes/min, about 23 min left" (the pace and time left once there is one).
    public func report(done: Int, now: Int64) -> String {
        var text = "\(done)/\(total)"
        if let pace = notesPerMinute(done: done, now: now), let left = millisecondsLeft(done: done, now: now) {
            text += ", " + Throughput.pace(pace) + " notes/min"
            if done < total { text += ", " + Throughput.duration(left) + " left" }
        }
        return text
    }

    /// One decimal below 10 notes a minute ("0.4", "8.3"), whole numbers above ("140").
    static func pace(_ notesPerMinute: Double) -> String {
        if notesPerMinute >= 10 { return String(Int(notesPerMinute.rounded())) }
        let tenths = Int((notesPerMinute * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// "under a minute", "about 23 min", "about 2 h 05 min".
    static func duration(_ milliseconds: Int64) -> String {
        let minutes = Int((Double(milliseconds) / 60_000).rounded())
        if minutes < 1 { return "under a minute" }
        if minutes < 60 { return "about \(minutes) min" }
        let rest = minutes % 60
        return "about \(minutes / 60) h \(rest < 10 ? "0" : "")\(rest) min"
    }
}
