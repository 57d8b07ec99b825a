// Links kept in SQLite: resolved by name, kept through renames, broken by deletions, and current
// after every kind of write.
import Notes
import Testing
@testable import Storage

struct LinkStoreTests {
    func targets(_ store: NoteStore, _ id: NoteID) throws -> [NoteID?] { try store.links(from: id).map(\.resolved) }

    @Test func aLinkWrittenBeforeItsNoteResolvesOnceTheNoteExists() throws {
        let store = try inMemoryStore()
        let source = try makeNote("Plan\nSee [[Café Menu#Drinks]] and ![[cafe   menu]] and [[Nowhere]]", at: 1_000)
        try store.insert(source)
        #expect(try targets(store, source.id) == [nil, nil, nil])
        #expect(try store.brokenLinks().count == 3)
        let menu = try makeNote("Café Menu\nespresso", at: 2_000)
        try store.insert(menu)
        #expect(try targets(store, source.id) == [menu.id, menu.id, nil])
        let links = try store.links(from: source.id)
        #expect(links[0].heading == "Drinks" && !links[0].embed && links[1].embed)
        #expect(links[0].resolvedTitle == "Café Menu")
        #expect(try store.backlinks(to: menu.id).map(\.source) == [source.id, source.id])
        #expect(try store.brokenLinks().map(\.target) == ["Nowhere"])
    }

    @Test func aliasesAndFilePathsAreNamesToo() throws {
        let store = try inMemoryStore()
        let target = try makeNote("Troubleshooting\ntext", at: 1_000)
        _ = try store.importNotes([ImportedNote(note: target, aliases: ["Sync problems"], path: "Help/Sync/Troubleshoot Obsidian Sync")])
        let source = try makeNote("Links\n[[sync problems]] [[Troubleshoot Obsidian Sync]] [[Sync/Troubleshoot Obsidian Sync]] [x](Help/Sync/Troubleshoot%20Obsidian%20Sync.md)", at: 2_000)
        try store.insert(source)
        #expect(try targets(store, source.id) == Array(repeating: target.id, count: 4))
        #expect(try store.aliases(of: target.id) == ["Sync problems"])
        #expect(try store.sourcePaths() == [target.id: "Help/Sync/Troubleshoot Obsidian Sync"])
    }

    @Test func renamingATitleKeepsItsLinksUntilAnotherNoteTakesTheName() throws {
        let store = try inMemoryStore()
        var target = try makeNote("Old name\nbody", at: 1_000)
        try store.insert(target)
        var source = try makeNote("Source\n[[Old name]]", at: 2_000)
        try store.insert(source)
        target.title = "New name"
        try store.update(target)
        #expect(try targets(store, source.id) == [target.id])
        // Editing the linking note keeps the link where it pointed.
        source.body += "\nmore text"
        try store.update(source)
        #expect(try targets(store, source.id) == [target.id])
        let newcomer = try makeNote("Old name\nanother note", at: 3_000)
        try store.insert(newcomer)
        #expect(try targets(store, source.id) == [newcomer.id])
    }

    @Test func aDeletedTargetLeavesABrokenLinkAndItsLinksGo() throws {
        let store = try inMemoryStore()
        let target = try makeNote("Target\nsee [[Source]]", at: 1_000)
        try store.insert(target)
        let source = try makeNote("Source\n[[Target]]", at: 2_000)
        try store.insert(source)
        #expect(try targets(store, source.id) == [target.id])
        try store.delete(target.id, at: Timestamp(milliseconds: 3_000))
        #expect(try targets(store, source.id) == [nil])
        #expect(try store.backlinks(to: source.id).isEmpty)
        #expect(try store.brokenLinks().map(\.source) == [source.id])
    }

    @Test func aNameUsedInTwoFoldersResolvesToTheNearest() throws {
        let store = try inMemoryStore()
        let work = try makeNote("Meeting\nwork", at: 1_000)
        let home = try makeNote("Meeting\nhome", at: 2_000)
        let fromHome = try makeNote("Plan\n[[Meeting]]", at: 3_000)
        let fromTop = try makeNote("Top\n[[Meeting]] [[Home/Meeting]]", at: 4_000)
        // The linking notes come first: resolution does not depend on the order of a batch.
        _ = try store.importNotes([
            ImportedNote(note: fromHome, aliases: [], path: "Home/Plans/Plan"), ImportedNote(note: fromTop, aliases: [], path: "Top"),
            ImportedNote(note: work, aliases: [], path: "Work/Meeting"), ImportedNote(note: home, aliases: [], path: "Home/Meeting"),
        ])
        #expect(try targets(store, fromHome.id) == [home.id])
        #expect(try targets(store, fromTop.id) == [work.id, home.id])
    }

    @Test func syncedNotesGetTheirLinksAndASyncedDeletionBreaksLinksWithoutAnError() throws {
        let store = try inMemoryStore()
        let target = try makeNote("Target\nbody", at: 1_000)
        try store.insert(target)
        let synced = try makeNote("From another machine\n[[Target]]", at: 2_000)
        let version = try store.snapshot(changedSince: nil).version
        let after = try store.apply([NoteRecord(synced)], expected: version, syncedCommit: String(repeating: "a", count: 40))
        #expect(try targets(store, synced.id) == [target.id])
        _ = try store.apply([NoteRecord(id: target.id, state: .deleted(at: Timestamp(milliseconds: 3_000)))],
                            expected: after, syncedCommit: String(repeating: "b", count: 40))
        #expect(try targets(store, synced.id) == [nil])
        #expect(try store.brokenLinks().map(\.target) == ["Target"])
    }

    @Test func openingRebuildsLinksMadeByOtherRulesAndKeepsWhereTheyPointed() throws {
        let store = try inMemoryStore()
        var target = try makeNote("Old\nbody", at: 1_000)
        try store.insert(target)
        let source = try makeNote("Source\n[[Old]] [[Missing]]", at: 2_000)
        try store.insert(source)
        target.title = "Renamed"
        try store.update(target)
        // As a notebook written before links existed: no names, no links, an old index version.
        try store.database.execute("UPDATE link_index SET version = 0")
        try store.database.execute("DELETE FROM note_names")
        try store.rebuildLinksIfNeeded()
        #expect(try store.database.scalarInt("SELECT version FROM link_index") == NoteStore.linkIndexVersion)
        #expect(try store.database.statement("SELECT target_key FROM links ORDER BY position").rows { $0.string(0) } == ["old", "missing"])
        #expect(try targets(store, source.id) == [target.id, nil])
        let later = try makeNote("Later\n[[renamed]]", at: 3_000)
        try store.insert(later)
        #expect(try targets(store, later.id) == [target.id])
    }

    @Test func searchFiltersByWhatLinksToANote() throws {
        let store = try inMemoryStore()
        let target = try makeNote("Target\nbody", at: 1_000)
        try store.insert(target)
        let linking = try makeNote("Linking meeting\n[[Target]]", at: 2_000)
        let other = try makeNote("Other meeting\nno links", at: 3_000)
        try store.insert(linking)
        try store.insert(other)
        let prefix = String(target.id.rawValue.prefix(13))
        #expect(try store.search("links:\(prefix)").map(\.id) == [linking.id])
        #expect(try store.search("meeting links:\(prefix)").map(\.id) == [linking.id])
        #expect(try store.search("meeting -links:\(prefix)").map(\.id) == [other.id])
        #expect(try store.search("\"see links:\(prefix)\"").isEmpty)
        #expect(throws: NoteStoreError.notFound("ffffffff")) { try store.search("links:ffffffff") }
        #expect(SearchQuery("a links:0193 -LINKS:0194 b").linksTo == [
            SearchQuery.LinkFilter(reference: "0193", negated: false), SearchQuery.LinkFilter(reference: "0194", negated: true),
        ])
        #expect(SearchQuery("a links:0193 b").matchExpression == "\"a\" AND \"b\"")
    }
}
