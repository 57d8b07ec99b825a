// Note ids: UUIDv7 layout, parsing, and the short handles shown in listings.
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

    @Test func handlesAreTheShortestUniqueEndsOfAtLeastSixDigits() {
        let ids = ["0193f2a1-8b2c-7d3e-9f40-000001abc001", "0193f2a1-8b2c-7d3e-9f40-000002abc001", "0193f3ff-0000-7000-8000-123456789abc",
                   "0193f3ff-0000-7000-8000-0000000c0001"].map { NoteID($0)! }
        let handles = NoteHandle.handles(for: ids, among: ids)
        #expect(handles[ids[0]] == "1abc001")
        #expect(handles[ids[1]] == "2abc001")
        #expect(handles[ids[2]] == "789abc")
        #expect(handles[ids[3]] == "0c0001")
        for (id, handle) in handles {
            #expect(ids.filter { NoteHandle.matches(handle, $0) } == [id])
        }
    }

    @Test func aHandleNeverStartsAnotherNotesID() {
        // The other note's id starts with this one's last six digits: the handle takes one more.
        let ids = ["0193f2a1-8b2c-7d3e-9f40-0000000193f2", "0193f2a1-8b2c-7d3e-9f40-123456789abc"].map { NoteID($0)! }
        let handles = NoteHandle.handles(for: [ids[0]], among: ids)
        #expect(handles[ids[0]] == "00193f2")
        #expect(!ids[1].rawValue.hasPrefix(handles[ids[0]]!))
    }

    @Test func handlesOfManyIdsMadeInOneMinuteAreUniqueEitherWay() {
        var generator = SeededGenerator(seed: 3)
        let ids = (0..<2000).map { NoteID(milliseconds: 1_764_000_000_000 + Int64($0 % 50), using: &generator) }
        let handles = NoteHandle.handles(for: ids, among: ids)
        #expect(handles.count == ids.count)
        #expect(handles.values.allSatisfy { $0.count >= NoteHandle.minimumLength })
        #expect(handles.values.filter { $0.count == NoteHandle.minimumLength }.count > 1900)
        let digits = ids.map { $0.rawValue.replacingOccurrences("-", with: "") }
        for (id, handle) in handles.prefix(200) {
            #expect(digits.filter { $0.hasPrefix(handle) || $0.hasSuffix(handle) } == [id.rawValue.replacingOccurrences("-", with: "")])
        }
    }

    @Test func aHandleAmongOthersIsTheSameAsAmongAll() {
        let ids = ["0193f2a1-8b2c-7d3e-9f40-000000abc001", "0193f2a1-8b2c-7d3e-9f40-000000bbc001"].map { NoteID($0)! }
        #expect(NoteHandle.handles(for: [ids[0]], among: [ids[1]]) == NoteHandle.handles(for: [ids[0]], among: ids))
    }

    @Test func matchesTheStartOrTheEnd() {
        let id = NoteID("0193f2a1-8b2c-7d3e-9f40-123456789abc")!
        #expect(NoteHandle.matches("0193f2a18b", id))
        #expect(NoteHandle.matches("789abc", id))
        #expect(NoteHandle.matches("40123456789abc", id))
        #expect(!NoteHandle.matches("789ab", id))
        #expect(!NoteHandle.matches("193f2a", id))
    }
}
