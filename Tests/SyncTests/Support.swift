// Test support for Sync: replicas (an in-memory notebook from TestSupport, its repository and
// an engine) and bare remotes.
import Foundation
import Notes
import TestSupport
@testable import Sync

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

/// Two machines that have synced once through `remote`, and a note on `a` waiting to be sent.
func twoSyncedMachines(in directory: TemporaryDirectory, remote: String, seed: UInt64) throws -> (a: Replica, b: Replica, waiting: Note) {
    let a = try Replica("a", in: directory, remote: remote)
    let b = try Replica("b", in: directory, remote: remote)
    var factory = NoteFactory(seed: seed)
    a.notebook.put(factory.note("first"))
    try a.sync()
    try b.sync()
    let note = factory.note("written on a, not sent yet")
    a.notebook.put(note)
    return (a, b, note)
}

/// The passphrase of the encrypted remotes in tests, or nil for a plain remote.
func passphrase(encrypted: Bool) -> String? { encrypted ? "correct horse battery staple" : nil }

/// Creates an empty bare repository to serve as the remote and returns its path.
func makeBareRemote(in directory: TemporaryDirectory, name: String = "remote.git") throws -> String {
    let path = directory.path + "/" + name
    _ = try Repository.openOrCreate(at: path)
    return path
}
