// The SQLite notebook as the sync engine's port: versions, snapshots and all-or-nothing applies.
import Notes
import Testing
@testable import Storage

struct NotebookPortTests {
    @Test func everyWriteAdvancesTheVersionAndSnapshotsSeeOnlyNewerRecords() throws {
        let store = try inMemoryStore()
        let first = try makeNote("first", at: 1_000)
        try store.insert(first)
        let start = try store.snapshot(changedSince: nil)
        #expect(start.records.map(\.id) == [first.id])
        let second = try makeNote("second", at: 2_000)
        try store.insert(second)
        try store.delete(first.id, at: Timestamp(milliseconds: 3_000))
        let later = try store.snapshot(changedSince: start.version)
        #expect(later.version > start.version)
        #expect(Set(later.records.map(\.id)) == [first.id, second.id])
        #expect(later.records.first { $0.id == first.id }?.state == .deleted(at: Timestamp(milliseconds: 3_000)))
        #expect(try store.snapshot(changedSince: later.version).records.isEmpty)
    }

    @Test func snapshotsCarryTheAnalysisOfTheCurrentContentOnly() throws {
        let store = try inMemoryStore()
        var note = try makeNote("call the dentist")
        try store.insert(note)
        let analysis = Analysis(category: .health, urgency: 3, tasks: [TaskItem(text: "call")], summary: "s", model: "m",
                                analyzedAt: Timestamp(milliseconds: 1), analyzerVersion: "v", contentHash: note.contentHash)
        try store.saveAnalysis(analysis, for: note.id)
        #expect(try store.snapshot(changedSince: nil).records.first?.analysis == analysis)
        note.body = "changed"
        try store.update(note)
        #expect(try store.snapshot(changedSince: nil).records.first?.analysis == nil)
    }

    @Test func applyWritesRecordsExactlyAndStoresTheCheckpoint() throws {
        let store = try inMemoryStore()
        let local = try makeNote("local", at: 1_000)
        try store.insert(local)
        let gone = try makeNote("to be deleted", at: 1_500)
        try store.insert(gone)
        let version = try store.snapshot(changedSince: nil).version
        var edited = local
        edited.body = "merged body"
        edited.updated = Timestamp(milliseconds: 1_200)
        let remote = try makeNote("from another machine #remote", at: 2_000)
        let remoteAnalysis = Analysis(category: .work, urgency: 2, tasks: [TaskItem(text: "t", done: true)], summary: "s", model: "m",
                                      analyzedAt: Timestamp(milliseconds: 5), analyzerVersion: "v", contentHash: remote.contentHash)
        let neverSeen = try makeNote("never seen here", at: 500).id
        let after = try store.apply([
            NoteRecord(edited), NoteRecord(remote, analysis: remoteAnalysis),
            NoteRecord(id: gone.id, state: .deleted(at: Timestamp(milliseconds: 3_000))),
            NoteRecord(id: neverSeen, state: .deleted(at: Timestamp(milliseconds: 600))),
        ], expected: version, syncedCommit: String(repeating: "a", count: 40))
        #expect(try store.note(local.id) == edited)
        #expect(try store.note(remote.id) == remote)
        #expect(try store.analysis(for: remote.id) == remoteAnalysis)
        #expect(try store.isDeleted(gone.id))
        #expect(try store.isDeleted(neverSeen))
        #expect(try store.checkpoint() == SyncCheckpoint(commit: String(repeating: "a", count: 40), version: after))
        #expect(try store.snapshot(changedSince: after).records.isEmpty)
    }

    @Test func applyRefusesWhenTheNotebookChangedAndWritesNothing() throws {
        let store = try inMemoryStore()
        let note = try makeNote("original")
        try store.insert(note)
        let version = try store.snapshot(changedSince: nil).version
        try store.insert(try makeNote("written meanwhile", at: 9_000))
        var merged = note
        merged.body = "merged"
        #expect(throws: NotebookPortError.changedSinceSnapshot) {
            _ = try store.apply([NoteRecord(merged)], expected: version, syncedCommit: String(repeating: "b", count: 40))
        }
        #expect(try store.note(note.id)?.body == "original")
        #expect(try store.checkpoint() == nil)
    }

    @Test func applyRevivesATombstoneWhenTheMergeKeptAnEdit() throws {
        let store = try inMemoryStore()
        var note = try makeNote("edited elsewhere")
        try store.insert(note)
        try store.delete(note.id, at: Timestamp(milliseconds: 2_000))
        let version = try store.snapshot(changedSince: nil).version
        note.body = "the edit wins"
        _ = try store.apply([NoteRecord(note)], expected: version, syncedCommit: String(repeating: "c", count: 40))
        #expect(try store.note(note.id)?.body == "the edit wins")
        #expect(try store.search("edit").count == 1)
    }
}
