// The NotebookPort contract in memory, without SQL (Storage implements it over SQLite), and
// deterministic notes: shared by the Sync tests and the sync benchmark.
import Notes

/// Not thread-safe: one test drives it.
public final class InMemoryNotebook: NotebookPort, @unchecked Sendable {
    public private(set) var notes: [NoteID: Note] = [:]
    public private(set) var tombstones: [NoteID: Timestamp] = [:]
    public private(set) var analyses: [NoteID: Analysis] = [:]
    private var changedAt: [NoteID: Int64] = [:]
    public private(set) var version: Int64 = 0
    private var stored: SyncCheckpoint?
    /// Runs inside `apply` before the version check: a user writing during a sync.
    public var duringApply: (() -> Void)?
    public private(set) var applyCount = 0

    public init() {}

    public func put(_ note: Note, analysis: Analysis? = nil) {
        version += 1
        notes[note.id] = note
        tombstones[note.id] = nil
        if let analysis { analyses[note.id] = analysis }
        changedAt[note.id] = version
    }

    public func delete(_ id: NoteID, at time: Timestamp) {
        version += 1
        notes[id] = nil
        analyses[id] = nil
        tombstones[id] = time
        changedAt[id] = version
    }

    public func snapshot(changedSince since: NotebookVersion?) throws -> NotebookSnapshot {
        var records: [NoteRecord] = []
        for (id, changed) in changedAt where since.map({ changed > $0.rawValue }) ?? true {
            if let note = notes[id] {
                // As the real notebook does: an analysis of earlier content is not the note's.
                records.append(NoteRecord(note, analysis: analyses[id].flatMap { $0.contentHash == note.contentHash ? $0 : nil }))
            } else if let time = tombstones[id] {
                records.append(NoteRecord(id: id, state: .deleted(at: time)))
            }
        }
        return NotebookSnapshot(records: records.sorted { $0.id < $1.id }, version: NotebookVersion(version))
    }

    public func apply(_ records: [NoteRecord], expected: NotebookVersion, syncedCommit: String) throws -> NotebookVersion {
        if let hook = duringApply {
            duringApply = nil
            hook()
        }
        guard expected.rawValue == version else { throw NotebookPortError.changedSinceSnapshot }
        applyCount += 1
        if !records.isEmpty { version += 1 }
        for record in records {
            switch record.state {
            case let .live(note):
                notes[note.id] = note
                tombstones[note.id] = nil
                if let analysis = record.analysis, analysis.contentHash == note.contentHash { analyses[note.id] = analysis }
            case let .deleted(time):
                notes[record.id] = nil
                analyses[record.id] = nil
                tombstones[record.id] = time
            }
            changedAt[record.id] = version
        }
        stored = SyncCheckpoint(commit: syncedCommit, version: NotebookVersion(version))
        return NotebookVersion(version)
    }

    public func checkpoint() throws -> SyncCheckpoint? { stored }
}

/// Deterministic ids and times for tests.
public struct NoteFactory {
    public var generator: SeededGenerator
    public var clock: Int64 = 1_800_000_000_000

    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    public mutating func now() -> Timestamp {
        clock += 1000
        return Timestamp(milliseconds: clock)
    }

    public mutating func note(_ body: String, title: String? = nil, tags: [String] = []) -> Note {
        let time = now()
        return Note(id: NoteID(milliseconds: time.milliseconds, using: &generator), title: title ?? NoteText.title(from: body),
                    body: body, tags: tags, created: time, updated: time)
    }
}
