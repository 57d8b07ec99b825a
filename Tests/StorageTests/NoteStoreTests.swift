// The note store: writing, reading, resolving ids, tombstones, imports and analyses.
import Foundation
import Notes
import Testing
import TestSupport
@testable import Storage

struct NoteStoreTests {
    @Test func insertsAndReadsBackEveryField() throws {
        let store = try inMemoryStore()
        let note = try makeNote("Call the dentist\nabout the #Health check", tags: ["home"])
        try store.insert(note)
        let read = try #require(try store.note(note.id))
        #expect(read == note)
        #expect(read.tags == ["health", "home"])
        #expect(read.title == "Call the dentist")
    }

    @Test func updateReplacesTextAndTags() throws {
        let store = try inMemoryStore()
        var note = try makeNote("first #a")
        try store.insert(note)
        note.body = "second #b"
        note.title = "second"
        note.tags = ["b"]
        note.updated = Timestamp(milliseconds: note.updated.milliseconds + 1000)
        try store.update(note)
        #expect(try store.note(note.id) == note)
        #expect(try store.tagCounts().map(\.tag) == ["b"])
        #expect(try store.search("first").isEmpty)
        #expect(try store.search("second").count == 1)
    }

    @Test func deleteLeavesATombstoneWithoutText() throws {
        let store = try inMemoryStore()
        let note = try makeNote("secret plans #private")
        try store.insert(note)
        try store.delete(note.id, at: Timestamp(milliseconds: 1_764_000_999_000))
        #expect(try store.note(note.id) == nil)
        #expect(try store.isDeleted(note.id))
        #expect(try store.search("secret").isEmpty)
        #expect(try store.tagCounts().isEmpty)
        #expect(try store.counts() == NoteStore.Counts(notes: 0, deleted: 1, tags: 0, links: 0, brokenLinks: 0))
        #expect(try store.database.scalarText("SELECT body FROM notes") == "")
        #expect(throws: NoteStoreError.notFound(note.id.rawValue)) { try store.delete(note.id, at: Timestamp(milliseconds: 0)) }
    }

    @Test func resolvesUniquePrefixesWithOrWithoutDashes() throws {
        let store = try inMemoryStore()
        let a = Note(id: NoteID("01a1f000-0000-7000-8000-00000000000a")!, title: "a", body: "a", tags: [], created: Timestamp(milliseconds: 1), updated: Timestamp(milliseconds: 1))
        let b = Note(id: NoteID("01a1f000-0000-7000-8000-00000000000b")!, title: "b", body: "b", tags: [], created: Timestamp(milliseconds: 1), updated: Timestamp(milliseconds: 1))
        try store.insert(a)
        try store.insert(b)
        #expect(try store.resolve("01a1f000-0000-7000-8000-00000000000a") == a.id)
        #expect(try store.resolve("01A1F00000007000800000000000000B") == b.id)
        #expect(throws: NoteStoreError.self) { try store.resolve("01a1f0") }
        do {
            _ = try store.resolve("01a1f0")
        } catch let NoteStoreError.ambiguous(_, candidates) {
            #expect(candidates.map(\.id) == [a.id, b.id])
        }
        #expect(throws: NoteStoreError.notFound("ffffff")) { try store.resolve("ffffff") }
        #expect(throws: NoteStoreError.invalidReference("xyz!")) { try store.resolve("xyz!") }
        #expect(throws: NoteStoreError.invalidReference("ab")) { try store.resolve("ab") }
    }

    @Test func handlesForAFewIdsMatchThoseComputedOverAll() throws {
        let store = try inMemoryStore()
        for index in 0..<150 { try store.insert(try makeNote("note \(index)", at: 1_764_000_000_000 + Int64(index % 7))) }
        try store.delete(try store.allIDs()[3], at: Timestamp(milliseconds: 1))
        let all = try store.allIDs()
        let everything = NoteHandle.handles(for: all, among: all)
        var generator = SeededGenerator(seed: 7)
        let some = Array(all.shuffled(using: &generator).prefix(20))
        let few = try store.handles(for: some)
        for id in some {
            #expect(few[id] == everything[id])
            #expect(try store.resolve(few[id]!) == id)
        }
    }

    @Test func resolvesAUniqueEndAndListsTheCandidatesOfAnAmbiguousOne() throws {
        let store = try inMemoryStore()
        let a = Note(id: NoteID("01a1f000-0000-7000-8000-0000001abc42")!, title: "a", body: "a", tags: [], created: Timestamp(milliseconds: 1), updated: Timestamp(milliseconds: 1))
        let b = Note(id: NoteID("01a1f000-0000-7000-8000-0000002abc42")!, title: "b", body: "b", tags: [], created: Timestamp(milliseconds: 1), updated: Timestamp(milliseconds: 1))
        // Its id starts with what the other two end with.
        let c = Note(id: NoteID("abc42000-0000-7000-8000-000000000000")!, title: "c", body: "c", tags: [], created: Timestamp(milliseconds: 1), updated: Timestamp(milliseconds: 1))
        for note in [a, b, c] { try store.insert(note) }
        #expect(try store.resolve("1abc42") == a.id)
        #expect(try store.resolve("0000002ABC42") == b.id)
        #expect(try store.resolve("2-abc42") == b.id)
        do {
            _ = try store.resolve("abc42")
            Issue.record("an ambiguous reference resolved")
        } catch let NoteStoreError.ambiguous(reference, candidates) {
            #expect(reference == "abc42")
            #expect(candidates.map(\.id) == [a.id, b.id, c.id])
            #expect(NoteStoreError.ambiguous(reference, candidates: candidates).description.contains("  000000  c"))
            #expect(candidates.map(\.handle) == ["1abc42", "2abc42", "000000"])
        }
        #expect(try store.handles(for: [a.id, b.id, c.id]) == [a.id: "1abc42", b.id: "2abc42", c.id: "000000"])
    }

    @Test func aFewIdsWhoseEndsAreSharedGetTheLongerHandles() throws {
        let store = try inMemoryStore()
        func note(_ id: String) -> Note {
            Note(id: NoteID(id)!, title: id, body: id, tags: [], created: Timestamp(milliseconds: 1), updated: Timestamp(milliseconds: 1))
        }
        // d and e share their last six digits; f ends with the first six digits of d and e.
        let d = note("01a1f000-0000-7000-8000-000000abcdef"), e = note("01a1f000-0000-7000-8000-000001abcdef")
        let f = note("0b2c3000-0000-7000-8000-00000001a1f0"), g = note("0b2c3000-0000-7000-8000-000000777777")
        for item in [d, e, f, g] { try store.insert(item) }
        let all = try store.allIDs()
        let expected = NoteHandle.handles(for: all, among: all)
        #expect(try store.handles(for: [d.id]) == [d.id: "0abcdef"])
        #expect(try store.handles(for: [f.id]) == [f.id: expected[f.id]!])
        #expect(expected[f.id]!.count > NoteHandle.minimumLength)
        #expect(try store.handles(for: [g.id]) == [g.id: "777777"])
        #expect(try store.handles(for: [d.id, e.id, f.id, g.id]) == expected)
    }

    @Test func listFiltersByTagAndTimeNewestFirst() throws {
        let store = try inMemoryStore()
        let old = try makeNote("old #work", at: 1_000_000)
        let new = try makeNote("new #work", at: 3_000_000)
        let other = try makeNote("other #home", at: 2_000_000)
        for note in [old, new, other] { try store.insert(note) }
        #expect(try store.notes().map(\.body) == ["new #work", "other #home", "old #work"])
        #expect(try store.notes(matching: NoteFilter(tag: "#WORK")).map(\.body) == ["new #work", "old #work"])
        #expect(try store.notes(matching: NoteFilter(since: Timestamp(milliseconds: 2_000_000))).count == 2)
        #expect(try store.notes(matching: NoteFilter(until: Timestamp(milliseconds: 2_000_000))).map(\.body) == ["old #work"])
        #expect(try store.notes(matching: NoteFilter(limit: 1)).map(\.body) == ["new #work"])
    }

    @Test func importAddsUpdatesNewerAndLeavesTheRest() throws {
        let store = try inMemoryStore()
        var note = try makeNote("original", at: 1_000)
        try store.insert(note)
        let fresh = try makeNote("fresh", at: 2_000)
        var older = note
        older.body = "older copy"
        older.updated = Timestamp(milliseconds: 500)
        #expect(try store.importNotes(imported(older, fresh)) == [.unchanged, .added])
        note.body = "newer copy"
        note.updated = Timestamp(milliseconds: 9_000)
        #expect(try store.importNotes(imported(note, fresh)) == [.updated, .unchanged])
        #expect(try store.note(note.id)?.body == "newer copy")
    }

    @Test func importNeverRevivesATombstone() throws {
        let store = try inMemoryStore()
        var note = try makeNote("gone", at: 1_000)
        try store.insert(note)
        try store.delete(note.id, at: Timestamp(milliseconds: 2_000))
        note.updated = Timestamp(milliseconds: 3_000)
        #expect(try store.importNotes(imported(note)) == [.unchanged])
        #expect(try store.note(note.id) == nil)
    }

    @Test func writersAndAReaderOnSeparateConnectionsNeverSeeLockErrors() async throws {
        let directory = TemporaryDirectory()
        _ = try NoteStore.open(home: directory.path)
        let home = directory.path
        try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let store = try NoteStore.open(home: home)
                    for index in 0..<60 {
                        try store.insert(try makeNote("writer \(writer) note \(index)", at: 1_764_000_000_000 + Int64(writer * 1000 + index)))
                    }
                    return 60
                }
            }
            group.addTask {
                let store = try NoteStore.open(home: home)
                var reads = 0
                for _ in 0..<60 {
                    _ = try store.notes(matching: NoteFilter(limit: 5))
                    _ = try store.search("writer")
                    reads += 1
                }
                return 0
            }
            var written = 0
            for try await count in group { written += count }
            #expect(written == 120)
        }
        #expect(try NoteStore.open(home: home).counts().notes == 120)
    }
}
