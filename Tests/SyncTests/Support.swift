// Test support for Sync: an in-memory notebook (the NotebookPort contract without SQL), note
// builders and replicas.
import Foundation
import Notes
import TestSupport
@testable import Sync

final class InMemoryNotebook: NotebookPort, @unchecked Sendable {
    private(set) var notes: [NoteID: Note] = [:]
    private(set) var tombstones: [NoteID: Timestamp] = [:]
    private(set) var analyses: [NoteID: Analysis] = [:]
    private var changedAt: [NoteID: Int64] = [:]
    private(set) var version: Int64 = 0
    private var stored: SyncCheckpoint?
    /// Runs inside `apply` before the version check: a user writing during a sync.
    var duringApply: (() -> Void)?
    private(set) var applyCount = 0

    func put(_ note: Note, analysis: Analysis? = nil) {
        version += 1
        notes[note.id] = note
        tombstones[note.id] = nil
        if let analysis { analyses[note.id] = analysis }
        changedAt[note.id] = version
    }

    func delete(_ id: NoteID, at time: Timestamp) {
        version += 1
        notes[id] = nil
        analyses[id] = nil
        tombstones[id] = time
        changedAt[id] = version
    }

    func snapshot(changedSince since: NotebookVersion?) throws -> NotebookSnapshot {
        var records: [NoteRecord] = []
        for (id, changed) in changedAt where since.map({ changed > $0.rawValue }) ?? true {
            if let note = notes[id] {
                records.append(NoteRecord(note, analysis: analyses[id]))
            } else if let time = tombstones[id] {
                records.append(NoteRecord(id: id, state: .deleted(at: time)))
            }
        }
        return NotebookSnapshot(records: records.sorted { $0.id < $1.id }, version: NotebookVersion(version))
    }

    func apply(_ records: [NoteRecord], expected: NotebookVersion, syncedCommit: String) throws -> NotebookVersion {
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
                if let analysis = record.analysis { analyses[note.id] = analysis }
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

    func checkpoint() throws -> SyncCheckpoint? { stored }
}

/// Deterministic ids and times for tests.
struct NoteFactory {
    var generator: SeededGenerator
    var clock: Int64 = 1_800_000_000_000

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func now() -> Timestamp {
        clock += 1000
        return Timestamp(milliseconds: clock)
    }

    mutating func note(_ body: String, title: String? = nil, tags: [String] = []) -> Note {
        let time = now()
        return Note(id: NoteID(milliseconds: time.milliseconds, using: &generator), title: title ?? NoteText.title(from: body),
                    body: body, tags: tags, created: time, updated: time)
    }
}

/// SplitMix64: small, fast and the same on every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One machine: a notebook, its sync repository and an engine, syncing with `remote`.
final class Replica {
    let notebook = InMemoryNotebook()
    let engine: SyncEngine
    let name: String

    /// Gives the passphrase of an encrypted remote when a sync asks (another machine set the
    /// remote up first), unless a test passes its own.
    let passphrase: PassphraseSource?

    /// `passphrase`: add the remote with `--encrypt` (at the least Argon2id cost, as tests may).
    init(_ name: String, in directory: TemporaryDirectory, remote: String, passphrase: String? = nil,
         credentials: RemoteCredentials? = nil) throws {
        self.name = name
        engine = try SyncEngine(repositoryPath: directory.path + "/" + name, notebook: notebook)
        if let passphrase {
            let source: PassphraseSource = { _ in Array(passphrase.utf8) }
            self.passphrase = source
            try engine.addEncryptedRemote(name: "origin", url: remote, cost: .minimum, credentials: credentials, passphrase: source)
        } else {
            self.passphrase = nil
            try engine.addRemote(name: "origin", url: remote)
        }
    }

    @discardableResult
    func sync(_ options: SyncOptions = SyncOptions()) throws -> SyncSummary {
        var options = options
        if options.passphrase == nil { options.passphrase = passphrase }
        return try engine.sync(remote: "origin", options: options)
    }
}

/// The passphrase of the encrypted remotes in tests, or nil for a plain remote.
func passphrase(encrypted: Bool) -> String? { encrypted ? "correct horse battery staple" : nil }

/// Creates an empty bare repository to serve as the remote and returns its path.
func makeBareRemote(in directory: TemporaryDirectory, name: String = "remote.git") throws -> String {
    let path = directory.path + "/" + name
    _ = try Repository.openOrCreate(at: path)
    return path
}
