// The NotebookPort contract (Notes/NotebookPort.swift), checked on every notebook behind the
// port: the real one over SQLite and the tests' InMemoryNotebook, which the Sync tests and the
// sync benchmark trust to behave as the real one does.
import Notes
import TestSupport
import Testing
@testable import Storage

/// A notebook behind the port, and the writes a user makes outside it.
protocol PortNotebook: AnyObject {
    var port: NotebookPort { get }
    /// Adds the note, or replaces the live one with its id (an edit).
    func write(_ note: Note) throws
    func delete(_ id: NoteID, at time: Timestamp) throws
    /// Stores an analysis of the note's current content.
    func analyse(_ id: NoteID, _ analysis: Analysis) throws
}

final class SQLiteNotebook: PortNotebook {
    let store: NoteStore
    init() throws { store = try inMemoryStore() }
    var port: NotebookPort { store }
    func write(_ note: Note) throws { try store.note(note.id) == nil ? try store.insert(note) : try store.update(note) }
    func delete(_ id: NoteID, at time: Timestamp) throws { try store.delete(id, at: time) }
    func analyse(_ id: NoteID, _ analysis: Analysis) throws { #expect(try store.saveAnalysis(analysis, for: id)) }
}

extension InMemoryNotebook: PortNotebook {
    var port: NotebookPort { self }
    func write(_ note: Note) throws { put(note) }
    func analyse(_ id: NoteID, _ analysis: Analysis) throws { put(try #require(notes[id]), analysis: analysis) }
}

enum PortKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, inMemory
    var testDescription: String { rawValue }

    func make() throws -> PortNotebook {
        switch self {
        case .sqlite: try SQLiteNotebook()
        case .inMemory: InMemoryNotebook()
        }
    }
}

struct NotebookPortContractTests {
    static let commit = String(repeating: "a", count: 40)

    func analysis(of note: Note, urgency: Int = 3) -> Analysis {
        Analysis(category: .health, urgency: urgency, tasks: [TaskItem(text: "call")], summary: "s", model: "m",
                 analyzedAt: Timestamp(milliseconds: 1), analyzerVersion: "v", contentHash: note.contentHash)
    }

    func records(_ notebook: PortNotebook, since version: NotebookVersion? = nil) throws -> [NoteID: NoteRecord] {
        let records = try notebook.port.snapshot(changedSince: version).records
        #expect(Set(records.map(\.id)).count == records.count, "one record a note")
        return Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
    }

    @Test(arguments: PortKind.allCases)
    func everyWriteAdvancesTheVersionAndASnapshotHoldsWhatWasWrittenAfterIt(_ kind: PortKind) throws {
        let notebook = try kind.make()
        #expect(try notebook.port.checkpoint() == nil, "no checkpoint before the first sync")
        let empty = try notebook.port.snapshot(changedSince: nil)
        #expect(empty.records.isEmpty)
        var first = try makeNote("first", at: 1_000)
        try notebook.write(first)
        let afterAdd = try notebook.port.snapshot(changedSince: nil)
        #expect(afterAdd.version > empty.version)
        #expect(afterAdd.records == [NoteRecord(first)])

        let second = try makeNote("second", at: 2_000)
        try notebook.write(second)
        let afterSecond = try notebook.port.snapshot(changedSince: afterAdd.version)
        #expect(afterSecond.version > afterAdd.version)
        #expect(afterSecond.records == [NoteRecord(second)], "only what was written after the version")

        try notebook.analyse(second.id, analysis(of: second))
        let afterAnalysis = try notebook.port.snapshot(changedSince: afterSecond.version)
        #expect(afterAnalysis.version > afterSecond.version, "an analysis is a write")
        #expect(afterAnalysis.records == [NoteRecord(second, analysis: analysis(of: second))])

        first.body = "first, edited"
        first.updated = Timestamp(milliseconds: 3_000)
        try notebook.write(first)
        try notebook.delete(second.id, at: Timestamp(milliseconds: 4_000))
        let later = try notebook.port.snapshot(changedSince: afterAnalysis.version)
        #expect(later.version > afterAnalysis.version)
        let byID = Dictionary(uniqueKeysWithValues: later.records.map { ($0.id, $0) })
        #expect(byID[first.id] == NoteRecord(first))
        #expect(byID[second.id] == NoteRecord(id: second.id, state: .deleted(at: Timestamp(milliseconds: 4_000))),
                "a tombstone with its time, and no analysis")
        #expect(byID.count == 2)
        #expect(try notebook.port.snapshot(changedSince: later.version).records.isEmpty)
        #expect(try notebook.port.snapshot(changedSince: later.version).version == later.version, "a read writes nothing")
        // Tombstones are kept: the whole notebook still has both.
        #expect(try records(notebook).count == 2)
    }

    @Test(arguments: PortKind.allCases)
    func aSnapshotCarriesTheAnalysisOfTheCurrentContentOnly(_ kind: PortKind) throws {
        let notebook = try kind.make()
        var note = try makeNote("call the dentist")
        try notebook.write(note)
        try notebook.analyse(note.id, analysis(of: note))
        #expect(try records(notebook)[note.id]?.analysis == analysis(of: note))
        // Edited: the analysis describes the text before, so the record has none.
        note.body = "call the dentist and the vet"
        try notebook.write(note)
        #expect(try records(notebook)[note.id] == NoteRecord(note))
    }

    @Test(arguments: PortKind.allCases)
    func applyWritesRecordsExactlyAndStoresTheCheckpoint(_ kind: PortKind) throws {
        let notebook = try kind.make()
        let local = try makeNote("local", at: 1_000)
        let gone = try makeNote("to be deleted", at: 1_500)
        let untouched = try makeNote("not in the records", at: 1_600)
        for note in [local, gone, untouched] { try notebook.write(note) }
        try notebook.analyse(untouched.id, analysis(of: untouched))
        let before = try notebook.port.snapshot(changedSince: nil).version

        var edited = local
        edited.body = "merged body"
        edited.updated = Timestamp(milliseconds: 1_200)
        let remote = try makeNote("from another machine #remote", at: 2_000)
        let neverSeen = try makeNote("never seen here", at: 500).id
        let after = try notebook.port.apply([
            NoteRecord(edited), NoteRecord(remote, analysis: analysis(of: remote, urgency: 2)),
            NoteRecord(id: gone.id, state: .deleted(at: Timestamp(milliseconds: 3_000))),
            NoteRecord(id: neverSeen, state: .deleted(at: Timestamp(milliseconds: 600))),
        ], expected: before, syncedCommit: Self.commit)
        #expect(after > before)
        #expect(try notebook.port.checkpoint() == SyncCheckpoint(commit: Self.commit, version: after))

        let all = try records(notebook)
        #expect(all[edited.id] == NoteRecord(edited), "as given: the timestamps are not bumped")
        #expect(all[remote.id] == NoteRecord(remote, analysis: analysis(of: remote, urgency: 2)))
        #expect(all[gone.id] == NoteRecord(id: gone.id, state: .deleted(at: Timestamp(milliseconds: 3_000))))
        #expect(all[neverSeen] == NoteRecord(id: neverSeen, state: .deleted(at: Timestamp(milliseconds: 600))))
        #expect(all[untouched.id] == NoteRecord(untouched, analysis: analysis(of: untouched)), "a note not in the records is untouched")
        #expect(Set(try records(notebook, since: before).keys) == [edited.id, remote.id, gone.id, neverSeen])
        #expect(try notebook.port.snapshot(changedSince: after).records.isEmpty)
        #expect(try notebook.port.snapshot(changedSince: nil).version == after)

        // Nothing to write: the checkpoint moves to the new commit at the same version.
        let other = String(repeating: "b", count: 40)
        #expect(try notebook.port.apply([], expected: after, syncedCommit: other) == after)
        #expect(try notebook.port.checkpoint() == SyncCheckpoint(commit: other, version: after))
    }

    @Test(arguments: PortKind.allCases)
    func applyRefusesWhenTheNotebookChangedAndWritesNothing(_ kind: PortKind) throws {
        let notebook = try kind.make()
        let note = try makeNote("original")
        try notebook.write(note)
        let seen = try notebook.port.snapshot(changedSince: nil).version
        let meanwhile = try makeNote("written meanwhile", at: 9_000)
        try notebook.write(meanwhile)
        let current = try notebook.port.snapshot(changedSince: nil)
        var merged = note
        merged.body = "merged"
        #expect(throws: NotebookPortError.changedSinceSnapshot) {
            _ = try notebook.port.apply([NoteRecord(merged), NoteRecord(id: meanwhile.id, state: .deleted(at: Timestamp(milliseconds: 9_500)))],
                                        expected: seen, syncedCommit: Self.commit)
        }
        let now = try notebook.port.snapshot(changedSince: nil)
        #expect(now.version == current.version)
        #expect(Set(now.records.map(\.id)) == Set(current.records.map(\.id)))
        #expect(try records(notebook) == [note.id: NoteRecord(note), meanwhile.id: NoteRecord(meanwhile)])
        #expect(try notebook.port.checkpoint() == nil)
    }

    @Test(arguments: PortKind.allCases)
    func applyRevivesATombstoneWhenTheMergeKeptAnEdit(_ kind: PortKind) throws {
        let notebook = try kind.make()
        var note = try makeNote("edited elsewhere")
        try notebook.write(note)
        try notebook.analyse(note.id, analysis(of: note))
        try notebook.delete(note.id, at: Timestamp(milliseconds: 2_000))
        let version = try notebook.port.snapshot(changedSince: nil).version
        note.body = "the edit wins"
        let after = try notebook.port.apply([NoteRecord(note)], expected: version, syncedCommit: Self.commit)
        #expect(try records(notebook, since: version) == [note.id: NoteRecord(note)], "live again, without the analysis it had")
        #expect(try notebook.port.checkpoint() == SyncCheckpoint(commit: Self.commit, version: after))
    }

    /// An analysis goes with the content it describes: given beside other content, it is not
    /// the note's; no analysis given keeps the one of the same content.
    @Test(arguments: PortKind.allCases)
    func applyKeepsAnAnalysisOnlyWithTheContentItDescribes(_ kind: PortKind) throws {
        let notebook = try kind.make()
        let kept = try makeNote("kept as it is", at: 1_000)
        try notebook.write(kept)
        try notebook.analyse(kept.id, analysis(of: kept))
        let changed = try makeNote("changed by the merge", at: 1_100)
        try notebook.write(changed)
        let version = try notebook.port.snapshot(changedSince: nil).version
        var merged = changed
        merged.body = "changed by the merge, on both machines"
        _ = try notebook.port.apply([NoteRecord(kept), NoteRecord(merged, analysis: analysis(of: changed))],
                                    expected: version, syncedCommit: Self.commit)
        let all = try records(notebook)
        #expect(all[kept.id] == NoteRecord(kept, analysis: analysis(of: kept)))
        #expect(all[merged.id] == NoteRecord(merged), "an analysis of the text before the merge is not this text's")
    }
}
