// NoteRules, clause by clause (see its doc comment), for each origin.
@testable import Notes
import Testing

struct NoteRulesTests {
    let id = NoteID(milliseconds: 1_764_000_000_000)
    let time = Timestamp(milliseconds: 1_764_000_000_000)
    let later = Timestamp(milliseconds: 1_764_000_500_000)

    func typed(_ body: String, title: String? = nil, tags: [String] = []) throws -> Note {
        try NoteRules.note(id: id, body: body, title: title, tags: tags, created: time, updated: time, fallbackTime: time, origin: .typed)
    }

    func edited(_ previous: Note, body: String? = nil, title: String? = nil, tags: [String] = [], untagging: [String] = []) throws -> Note {
        try NoteRules.note(id: previous.id, body: body ?? previous.body, title: title, tags: tags, created: previous.created,
                           updated: later, fallbackTime: previous.created, origin: .edited(previous: previous, untagging: untagging))
    }

    func imported(_ body: String, title: String? = nil, tags: [String] = [], fileName: String = "file", inVault: Bool = false) throws -> Note {
        try NoteRules.note(id: id, body: body, title: title, tags: tags, created: nil, updated: nil, fallbackTime: time,
                           origin: .imported(fileName: fileName, inVault: inVault))
    }

    // Clause 1
    @Test func bodiesLoseTrailingBlankSpaceWhateverTheOrigin() throws {
        #expect(try typed("  one\r\ntwo \n\n\t").body == "  one\r\ntwo")
        #expect(try imported("  one\n\n").body == "  one")
        #expect(try edited(try typed("x"), body: "y  \n").body == "y")
    }

    // Clause 2
    @Test func anExplicitTitleWinsTrimmed() throws {
        #expect(try typed("body", title: "  Mine ").title == "Mine")
        #expect(try imported("# Heading", title: "Front matter").title == "Front matter")
        #expect(try edited(try typed("body"), title: " New ").title == "New")
    }

    @Test func otherwiseEachOriginDerivesItsTitle() throws {
        #expect(try typed("# Shopping #home\nmilk").title == "Shopping")
        #expect(try imported("intro\n# Heading\nbody", fileName: "notes").title == "Heading")
        #expect(try imported("intro\n# Heading", fileName: "notes", inVault: true).title == "notes")
        #expect(try imported("no heading", fileName: "notes").title == "notes")
        #expect(try typed("body", title: "  ").title == "body")
        #expect(try imported("# Heading", title: "").title == "Heading")
    }

    @Test func anEditedTitleFollowsTheBodyOnlyWhenItDidBefore() throws {
        let derived = try typed("Old first line\nrest")
        #expect(try edited(derived, body: "New first line").title == "New first line")
        let chosen = try typed("Old first line", title: "Chosen")
        #expect(try edited(chosen, body: "New first line").title == "Chosen")
        #expect(try edited(chosen, body: "New first line", title: "").title == "New first line")
    }

    // Clause 3
    @Test func tagsAreTheExplicitOnesPlusTheInlineOnes() throws {
        #expect(try typed("Call #Dentist", tags: ["home"]).tags == ["dentist", "home"])
        #expect(try imported("text #inline", tags: ["Front"]).tags == ["front", "inline"])
    }

    @Test func anEditDropsTheOldBodysTagsKeepsTheGivenOnesAndUntagsLast() throws {
        let note = try typed("Plan #old #both", tags: ["manual", "both"])
        let edited = try edited(note, body: "Plan #new", tags: ["added"])
        #expect(edited.tags == ["added", "manual", "new"])
        #expect(try self.edited(note, untagging: ["old", "#Manual"]).tags == ["both"])
    }

    // Clause 4
    @Test func timesComeFromTheFrontMatterThenTheFallback() {
        let early = Timestamp(milliseconds: 1_000), late = Timestamp(milliseconds: 2_000), file = Timestamp(milliseconds: 3_000)
        #expect(NoteRules.times(created: early, updated: late, fallback: file) == (early, late))
        #expect(NoteRules.times(created: nil, updated: late, fallback: file) == (late, late))
        #expect(NoteRules.times(created: early, updated: nil, fallback: file) == (early, file))
        #expect(NoteRules.times(created: file, updated: nil, fallback: early) == (file, file))
        #expect(NoteRules.times(created: nil, updated: nil, fallback: file) == (file, file))
    }

    /// A clock days behind still stamps an edit after the version it edits, so a merge that
    /// has to choose puts the edit first; a clock that is right keeps its own time.
    @Test func anEditIsStampedAfterTheVersionItWasMadeOn() throws {
        var previous = try typed("written on a machine whose clock is ahead")
        previous.updated = Timestamp(milliseconds: later.milliseconds + 3 * 86_400_000)
        let edit = try edited(previous, body: "edited on a machine whose clock is right")
        #expect(edit.updated == Timestamp(milliseconds: previous.updated.milliseconds + 1))
        #expect(try edited(try typed("x"), body: "y").updated == later)
        #expect(NoteRules.editTime(of: previous, now: time) > previous.updated)
    }

    // Clause 5
    @Test func aNoteWithNeitherBodyNorTitleIsRefused() throws {
        #expect(throws: NoteInputError.empty) { try typed(" \n\t ") }
        #expect(throws: NoteInputError.empty) { try typed("", title: "  ") }
        #expect(throws: NoteInputError.empty) { try imported("", fileName: "") }
        // An edit that empties a note whose title followed its body leaves nothing to keep.
        #expect(throws: NoteInputError.empty) { try edited(try typed("first line"), body: "\n") }
        #expect(try edited(try typed("first line", title: "Kept"), body: "").title == "Kept")
        #expect(try typed("", title: "Only a title").title == "Only a title")
    }

    // Clause 6
    @Test func aSyncedDocumentIsTakenAsWritten() throws {
        let document = try NoteDocument.parse("---\ntitle: \" Spaced \"\ntags: [kept]\nupdated: 2026-11-29T13:34:33.123Z\n---\nbody #inline \n\n")
        let note = NoteRules.note(synced: document, id: id)
        #expect(note.title == " Spaced ")
        #expect(note.body == "body #inline \n")
        #expect(note.tags == ["kept"])
        #expect(note.created == note.updated)
        let bare = NoteRules.note(synced: try NoteDocument.parse("# Heading #t\ntext"), id: id)
        #expect(bare.title == "Heading")
        #expect(bare.tags == [])
        #expect(bare.created == Timestamp(milliseconds: 0))
        #expect(NoteRules.note(synced: try NoteDocument.parse(""), id: id).body == "")
    }

    @Test func aSyncedNoteComesOutIdenticalToItsSourceEvenWithAnInlineTagRemoved() throws {
        let untagged = try edited(try typed("Plan #work", tags: ["home"]), untagging: ["work"])
        #expect(untagged.tags == ["home"])
        for note in [untagged, try typed("Shopping\nmilk #home", title: "Chosen"), try typed("", title: "t")] {
            let once = NoteRules.note(synced: try NoteDocument.parse(NoteDocument.render(note)), id: note.id)
            #expect(once == note)
            #expect(NoteRules.note(synced: try NoteDocument.parse(NoteDocument.render(once)), id: note.id) == once)
        }
    }
}
