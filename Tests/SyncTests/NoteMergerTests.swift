// The merge table: git's trivial-merge cases at note level, edit against delete, and the text
// cases that trip line merges (no final newline, CRLF, repeated lines).
import Notes
import Testing
@testable import Sync

private let t0 = Timestamp(milliseconds: 1_800_000_000_000)
private let id = NoteID("0193f2a1-8b2c-7d3e-9f40-123456789abc")!

private func note(_ body: String, title: String = "Title", tags: [String] = [], updated: Int64 = 0) -> Note {
    Note(id: id, title: title, body: body, tags: tags, created: t0, updated: Timestamp(milliseconds: t0.milliseconds + updated))
}

private func live(_ body: String, title: String = "Title", tags: [String] = [], updated: Int64 = 0) -> NoteState {
    .live(note(body, title: title, tags: tags, updated: updated))
}

private let deleted = NoteState.deleted(at: Timestamp(milliseconds: t0.milliseconds + 50))

/// No merge result ever carries a conflict marker.
private func expectNoMarkers(_ result: NoteMergeResult) {
    for note in [result.copy, { if case let .live(n) = result.state { n } else { nil } }()].compactMap({ $0 }) {
        for text in [note.title, note.body] + note.tags {
            #expect(!text.contains("<<<<<<<") && !text.contains(">>>>>>>") && !text.contains("======="))
        }
    }
}

struct TrivialMergeTable {
    let x = live("x"), y = live("y", updated: 10), z = live("z", updated: 20)

    @Test(arguments: [
        // (base, ours, theirs) -> expected state, as in git's read-tree trivial merge table.
        ("added on their side only", NoteState.absent, NoteState.absent, live("x"), live("x")),
        ("added on our side only", .absent, live("x"), .absent, live("x")),
        ("added identically on both", .absent, live("x"), live("x"), live("x")),
        ("unchanged everywhere", live("x"), live("x"), live("x"), live("x")),
        ("deleted on both", live("x"), deleted, deleted, deleted),
        ("deleted by us, unchanged by them", live("x"), deleted, live("x"), deleted),
        ("unchanged by us, deleted by them", live("x"), live("x"), deleted, deleted),
        ("changed by us only", live("x"), live("y", updated: 10), live("x"), live("y", updated: 10)),
        ("changed by them only", live("x"), live("x"), live("y", updated: 10), live("y", updated: 10)),
        ("changed identically on both", live("x"), live("y", updated: 10), live("y", updated: 10), live("y", updated: 10)),
        ("missing on our side is no deletion", live("x"), .absent, live("x"), live("x")),
        ("missing on their side is no deletion", live("x"), live("y", updated: 10), .absent, live("y", updated: 10)),
    ])
    func trivialCase(_ name: String, _ base: NoteState, _ ours: NoteState, _ theirs: NoteState, _ expected: NoteState) {
        let result = NoteMerger.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.state == expected, "\(name)")
        #expect(result.conflict == nil, "\(name)")
        #expect(result.copy == nil, "\(name)")
    }

    @Test func addedDifferentlyOnBothKeepsBothVersions() {
        let result = NoteMerger.merge(base: .absent, ours: y, theirs: z)
        #expect(result.state == z)
        #expect(result.copy?.body == "y")
        guard case let .editedOnBoth(copyID)? = result.conflict else { Issue.record("not flagged"); return }
        #expect(copyID == result.copy?.id)
        expectNoMarkers(result)
    }
}

struct EditAgainstDelete {
    @Test func ourEditBeatsTheirDelete() {
        let result = NoteMerger.merge(base: live("a\nb"), ours: live("a\nB", updated: 5), theirs: deleted)
        #expect(result.state == live("a\nB", updated: 5))
        #expect(result.conflict == .editBeatDelete)
    }

    @Test func theirEditBeatsOurDelete() {
        let result = NoteMerger.merge(base: live("a\nb"), ours: deleted, theirs: live("A\nb", updated: 5))
        #expect(result.state == live("A\nb", updated: 5))
        #expect(result.conflict == .editBeatDelete)
    }

    @Test func laterDeletionTimeWinsWhenBothDelete() {
        let early = NoteState.deleted(at: Timestamp(milliseconds: 1)), late = NoteState.deleted(at: Timestamp(milliseconds: 9))
        #expect(NoteMerger.merge(base: live("a"), ours: early, theirs: late).state == late)
        #expect(NoteMerger.merge(base: live("a"), ours: late, theirs: early).state == late)
    }
}

struct FieldMerges {
    @Test func separateLinesMerge() {
        let result = NoteMerger.merge(base: live("one\ntwo\nthree\nfour"), ours: live("ONE\ntwo\nthree\nfour", updated: 5),
                                      theirs: live("one\ntwo\nthree\nFOUR", updated: 6))
        #expect(result.state == live("ONE\ntwo\nthree\nFOUR", updated: 6))
        #expect(result.conflict == nil)
    }

    @Test func sameLinesChangedKeepBothVersionsAndFlag() {
        let result = NoteMerger.merge(base: live("a\nb\nc"), ours: live("a\nours\nc", updated: 5), theirs: live("a\ntheirs\nc", updated: 9))
        // The later edit keeps the note; the other survives whole in a copy.
        #expect(result.state == live("a\ntheirs\nc", updated: 9))
        #expect(result.copy?.body == "a\nours\nc")
        #expect(result.copy?.title == "Title" + NoteMerger.copyTitleSuffix)
        #expect(result.copy?.id != id)
        #expect(result.conflict == .editedOnBoth(copy: result.copy!.id))
        expectNoMarkers(result)
    }

    @Test func bothSidesPickTheSameWinnerAndCopy() {
        let base = live("a\nb\nc"), ours = live("a\nours\nc", updated: 5), theirs = live("a\ntheirs\nc", updated: 5)
        let one = NoteMerger.merge(base: base, ours: ours, theirs: theirs)
        let other = NoteMerger.merge(base: base, ours: theirs, theirs: ours)
        #expect(one == other)
        #expect(one.copy != nil)
    }

    @Test func titleThreeWay() {
        let clean = NoteMerger.merge(base: live("a\nb", title: "T"), ours: live("a\nb", title: "New", updated: 1),
                                     theirs: live("a\nB", title: "T", updated: 2))
        #expect(clean.state == live("a\nB", title: "New", updated: 2))
        let conflicting = NoteMerger.merge(base: live("b", title: "T"), ours: live("b", title: "Ours", updated: 1),
                                           theirs: live("b", title: "Theirs", updated: 2))
        #expect(conflicting.state == live("b", title: "Theirs", updated: 2))
        #expect(conflicting.copy?.title == "Ours" + NoteMerger.copyTitleSuffix)
        expectNoMarkers(conflicting)
    }

    @Test func tagsAsThreeWaySet() {
        let result = NoteMerger.merge(base: live("b", tags: ["keep", "drop-ours", "drop-theirs"]),
                                      ours: live("b", tags: ["keep", "drop-theirs", "add-ours"], updated: 1),
                                      theirs: live("b", tags: ["keep", "drop-ours", "add-theirs"], updated: 2))
        #expect(result.state == live("b", tags: ["add-ours", "add-theirs", "keep"], updated: 2))
        #expect(result.conflict == nil)
    }

    @Test func bodyWithoutTrailingNewline() {
        let result = NoteMerger.merge(base: live("first\nlast"), ours: live("first\nlast\nappended", updated: 1),
                                      theirs: live("FIRST\nlast", updated: 2))
        #expect(result.state == live("FIRST\nlast\nappended", updated: 2))
    }

    @Test func crlfLinesMergeAsWritten() {
        let result = NoteMerger.merge(base: live("a\r\nb\r\nc\r\nd"), ours: live("A\r\nb\r\nc\r\nd", updated: 1),
                                      theirs: live("a\r\nb\r\nc\r\nD", updated: 2))
        #expect(result.state == live("A\r\nb\r\nc\r\nD", updated: 2))
        #expect(result.conflict == nil)
    }

    @Test func editsNextToRepeatedLines() {
        let base = "x\nx\nx\nx\nx\nx"
        let result = NoteMerger.merge(base: live(base), ours: live("x\nours\nx\nx\nx\nx\nx", updated: 1),
                                      theirs: live("x\nx\nx\nx\nx\ntheirs\nx", updated: 2))
        #expect(result.state == live("x\nours\nx\nx\nx\nx\ntheirs\nx", updated: 2))
        #expect(result.conflict == nil)
        // Both inserting at the same place among identical lines is a conflict, never a guess.
        let same = NoteMerger.merge(base: live("x\nx"), ours: live("x\nA\nx", updated: 1), theirs: live("x\nB\nx", updated: 2))
        #expect(same.copy?.body == "x\nA\nx")
        expectNoMarkers(same)
    }

    @Test func lineMergeKeepsTextExactly() {
        #expect(LineMerge.merge(base: "a\n", ours: "a\nb\n", theirs: "a\n") == .merged("a\nb\n"))
        #expect(LineMerge.merge(base: "", ours: "new", theirs: "") == .merged("new"))
        #expect(LineMerge.merge(base: "a\nb\nc\nd\ne", ours: "a\nc\nd\ne", theirs: "a\nb\nc\nd\nE") == .merged("a\nc\nd\nE"))
        #expect(LineMerge.merge(base: "a", ours: "b", theirs: "c") == .conflict)
    }
}
