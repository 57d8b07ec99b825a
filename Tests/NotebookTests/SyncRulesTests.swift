// The sync rules the command and the daemon share, as values: the default remote, a conflict
// found by what the user typed, and a hand-merged resolution.
import Notes
import Testing
@testable import Notebook
@testable import Sync

struct SyncRulesTests {
    @Test func theDefaultRemoteIsTheOnlyOneOrOrigin() throws {
        #expect(try SyncRules.defaultRemote(among: ["nas"]) == "nas")
        #expect(try SyncRules.defaultRemote(among: ["nas", "origin", "vps"]) == "origin")
        #expect(throws: SyncChoiceError(description: "no remote to sync with; add one with: notes remote add origin /path/to/notes.git")) {
            try SyncRules.defaultRemote(among: [])
        }
        #expect(throws: SyncChoiceError(description: "several remotes (nas, vps): name the one to sync with")) {
            try SyncRules.defaultRemote(among: ["nas", "vps"])
        }
    }

    static func note(_ id: String, _ body: String, tags: [String] = []) -> Note {
        Note(id: NoteID(id)!, title: body.split(separator: "\n").first.map(String.init) ?? "", body: body, tags: tags,
             created: Timestamp(milliseconds: 0), updated: Timestamp(milliseconds: 0))
    }

    static let first = NoteConflict(id: NoteID("01a242eb-cd3f-713d-9881-ecf3ffd8c9a1")!, kind: .editBeatDelete,
                                    note: note("01a242eb-cd3f-713d-9881-ecf3ffd8c9a1", "Dentist on Tuesday"), copy: nil)
    static let second = NoteConflict(id: NoteID("01a242eb-cdaf-7d90-9332-61c7279106d9")!, kind: .editedOnBoth(copy: NoteID("01a242eb-ce27-78e0-8dd5-a9a690d0323e")!),
                                     note: note("01a242eb-cdaf-7d90-9332-61c7279106d9", "Groceries\nmilk", tags: ["home"]),
                                     copy: note("01a242eb-ce27-78e0-8dd5-a9a690d0323e", "Groceries\nmilk, eggs", tags: ["shop"]))

    @Test func aConflictIsFoundByItsHandleOrNotAtAll() throws {
        #expect(try SyncRules.conflict("d8c9a1", among: [Self.first, Self.second]) == Self.first)
        #expect(try SyncRules.conflict("01a242eb-cdaf", among: [Self.first, Self.second]) == Self.second)
        #expect(throws: SyncChoiceError(description: "no conflict for 'ffffff'; see 'notes conflicts'")) {
            try SyncRules.conflict("ffffff", among: [Self.first, Self.second])
        }
        #expect(throws: SyncChoiceError(description: "'01a242eb' matches several conflicts; type more of the id")) {
            try SyncRules.conflict("01a242eb", among: [Self.first, Self.second])
        }
        #expect(throws: SyncChoiceError.self) { try SyncRules.conflict("not hex", among: [Self.first]) }
    }

    @Test func aHandMergedResolutionTakesBothVersionsTags() throws {
        #expect(SyncRules.mergeDraft(Self.second) == "Groceries\nmilk\n\nGroceries\nmilk, eggs\n")
        #expect(SyncRules.hasCopy(Self.second.kind) && !SyncRules.hasCopy(Self.first.kind))
        let resolution = try SyncRules.resolution(of: Self.second, mergedText: "Groceries\nmilk, eggs, bread", at: Timestamp(milliseconds: 1))
        guard case let .edited(title, body, tags) = resolution else { Issue.record("not an edit: \(resolution)"); return }
        #expect(title == "Groceries" && body == "Groceries\nmilk, eggs, bread")
        #expect(Set(tags) == ["home", "shop"])
        #expect(throws: SyncChoiceError(description: "the merged note is empty; nothing was resolved")) {
            try SyncRules.resolution(of: Self.second, mergedText: "  \n\n", at: Timestamp(milliseconds: 1))
        }
    }
}
