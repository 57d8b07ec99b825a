// Note ids: UUIDv7 layout, parsing, and the shortest unique prefixes shown in listings.
import Notes
import Testing

struct NoteIDTests {
    @Test func newIDsAreVersion7WithTheTimeUpFront() {
        var generator = SeededGenerator(seed: 1)
        let id = NoteID(milliseconds: 0x0193_F2A1_8B2C, using: &generator)
        #expect(id.rawValue.hasPrefix("0193f2a1-8b2c-7"))
        #expect(id.rawValue.count == 36)
        let variant = id.rawValue[id.rawValue.index(id.rawValue.startIndex, offsetBy: 19)]
        #expect("89ab".contains(variant))
        let later = NoteID(milliseconds: 0x0193_F2A1_8B2D, using: &generator)
        #expect(id < later)
    }

    @Test func parsesCanonicalAndUndashedFormsInAnyCase() {
        let id = NoteID("0193F2A1-8B2C-7D3E-9F40-123456789ABC")
        #expect(id?.rawValue == "0193f2a1-8b2c-7d3e-9f40-123456789abc")
        #expect(NoteID("0193f2a18b2c7d3e9f40123456789abc") == id)
        #expect(NoteID("0193f2a1-8b2c") == nil)
        #expect(NoteID("zz93f2a18b2c7d3e9f40123456789abc") == nil)
    }

    @Test func shortestPrefixesAreUniqueAndAtLeastSix() {
        let ids = ["0193f2a1-8b2c-7d3e-9f40-000000000001", "0193f2a1-8b2c-7d3e-9f40-000000000002", "0193f3ff-0000-7000-8000-000000000000", "aaaaaaaa-0000-7000-8000-000000000000"].map { NoteID($0)! }
        let prefixes = NoteIDPrefix.shortest(for: ids)
        #expect(prefixes[ids[0]] == "0193f2a1-8b2c-7d3e-9f40-000000000001")
        #expect(prefixes[ids[2]] == "0193f3")
        #expect(prefixes[ids[3]] == "aaaaaa")
        for (id, prefix) in prefixes {
            #expect(id.rawValue.hasPrefix(prefix))
            #expect(!prefix.hasSuffix("-"))
            #expect(ids.filter { $0.rawValue.hasPrefix(prefix) } == [id])
        }
    }

    @Test func aPrefixNeverEndsOnADash() {
        let ids = ["01234567-0000-7000-8000-000000000000", "01234567-1000-7000-8000-000000000000"].map { NoteID($0)! }
        #expect(NoteIDPrefix.shortest(for: ids)[ids[0]] == "01234567-0")
    }
}
