// ISO 8601 formatting and parsing of timestamps, exact to the millisecond.
import Notes
import Testing

struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (Int64(1_709_164_800_000), "2024-02-29T00:00:00Z"),
        (Int64(1_764_423_273_123), "2025-11-29T13:34:33.123Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
        (Int64(253_402_300_799_000), "9999-12-31T23:59:59Z"),
        (Int64(-59_011_459_194_993), "0100-01-01T00:00:05.007Z"),
    ])
    func formatsAndParsesBack(milliseconds: Int64, text: String) {
        let time = Timestamp(milliseconds: milliseconds)
        #expect(time.iso8601 == text)
        #expect(Timestamp(iso8601: text) == time)
    }

    @Test func parsesDatesZonesAndFractions() {
        #expect(Timestamp(iso8601: "2026-11-29")?.iso8601 == "2026-11-29T00:00:00Z")
        #expect(Timestamp(iso8601: "2026-11-29T10:00:00+02:00")?.iso8601 == "2026-11-29T08:00:00Z")
        #expect(Timestamp(iso8601: "2026-11-29T10:00-0130")?.iso8601 == "2026-11-29T11:30:00Z")
        #expect(Timestamp(iso8601: "2026-11-29T10:00:00.5Z")?.milliseconds == Timestamp(iso8601: "2026-11-29T10:00:00Z")!.milliseconds + 500)
        #expect(Timestamp(iso8601: "2026-11-29T10:00:00.123456Z")?.iso8601 == "2026-11-29T10:00:00.123Z")
        #expect(Timestamp(iso8601: "2026-11-29 10:00")?.iso8601 == "2026-11-29T10:00:00Z")
    }

    @Test func countsWholeDaysInUTC() {
        let evening = Timestamp(iso8601: "2026-12-01T23:30:00Z")!
        #expect(evening.daysSince1970 == 20_788 && Timestamp(daysSince1970: 20_788).iso8601 == "2026-12-01T00:00:00Z")
        #expect(Timestamp(milliseconds: -1).daysSince1970 == -1)
        #expect(evening.adding(days: 31).iso8601 == "2027-01-01T23:30:00Z")
        #expect(evening.adding(days: -1).day == "2026-11-30")
    }

    @Test(arguments: ["", "2026", "2026-13-01", "2026-11-32", "2026-11-29T25:00", "2026-11-29T10:00:00.Z", "2026-11-29Tjunk", "yesterday"])
    func rejectsWhatIsNotADate(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }
}
