// Content hashes and FNV-1a: the published values, and the same hash on every path.
import Testing
import Notes

struct ContentHashTests {
    /// The published FNV-1a 64-bit test vectors: stored hashes and cache keys depend on them.
    @Test func fnv1aGivesThePublishedValues() {
        #expect(FNV1a.hash([UInt8]()) == 0xCBF2_9CE4_8422_2325)
        #expect(FNV1a.hash(Array("a".utf8)) == 0xAF63_DC4C_8601_EC8C)
        #expect(FNV1a.hash(Array("foobar".utf8)) == 0x8594_4171_F739_67E8)
        #expect(ContentHash.of("foobar") == "85944171f73967e8")
    }

    /// Contiguous bytes take a faster path than other collections; both give the same hash,
    /// in one piece or combined in parts.
    @Test func everyKindOfCollectionHashesAlike() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let contiguous = FNV1a.hash(bytes)
        #expect(FNV1a.hash(bytes.lazy.map { $0 }) == contiguous)
        #expect(FNV1a.hash(bytes[...]) == contiguous)
        var parts = FNV1a()
        parts.combine(bytes[..<4_000])
        parts.combine(bytes[4_000...].lazy.map { $0 })
        #expect(parts.value == contiguous)
        let text = "Καλημέρα, notes 😀"
        #expect(FNV1a.hash(text.utf8) == FNV1a.hash(Array(text.utf8)))
    }
}
