// How long the daemon keeps the model loaded once there is nothing to analyse: after
// `duration` without work the model sleeps (is unloaded, its memory given back) until the next
// change wakes it. Like Ollama's keep_alive: "5m" by default, "0" sleeps as soon as the work is
// done, "forever" never. A pure state machine over the times it is told; the daemon supplies
// the clock.
public struct KeepAlive: Sendable, Equatable {
    /// Milliseconds without work before the model sleeps; nil: never.
    let duration: Int64?
    public static let standard = KeepAlive(duration: 300_000)

    init(duration: Int64?) { self.duration = duration }

    /// "5m", "90s", "1h", a number of seconds, "0", or "forever"; nil for anything else.
    public init?(_ text: String) {
        let text = text.lowercased()
        if text == "forever" || text == "-1" { self.init(duration: nil); return }
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        let unit = units.first { text.hasSuffix($0.suffix) && Int64(text.dropLast($0.suffix.count)) != nil }
        guard let number = Int64(unit.map { String(text.dropLast($0.suffix.count)) } ?? text), number >= 0,
              number <= Int64.max / 3_600_000 else { return nil }
        self.init(duration: number * (unit?.milliseconds ?? 1_000))
    }

    /// When a model last used at `lastWork` falls asleep; nil: never.
    public func sleepTime(lastWork: Int64) -> Int64? { duration.map { lastWork + $0 } }

    /// Whether a model last used at `lastWork` should sleep at `now`.
    public func shouldSleep(lastWork: Int64, now: Int64) -> Bool {
        sleepTime(lastWork: lastWork).map { now >= $0 } ?? false
    }

    /// "5 min", "90 s", "forever", for the log.
    public var description: String {
        guard let duration else { return "forever" }
        if duration % 60_000 == 0 { return "\(duration / 60_000) min" }
        if duration % 1_000 == 0 { return "\(duration / 1_000) s" }
        return "\(duration) ms"
    }
}
