// Encrypted remotes: what the server holds (nothing readable), what an unchanged note costs
// (nothing), and each refusal (wrong or missing passphrase, a tampered object, a remote that
// is not what it was added as), which changes nothing on this machine.
import Foundation
import Notes
import TestSupport
import Testing
@testable import Sync

@Suite struct EncryptedRemoteTests {
    let secret = "correct horse battery staple"

    /// Every object the remote's git holds, as text: blobs, trees (their entry names), commits
    /// (their messages), plus its refs and its files' paths.
    func everythingIn(_ remote: String) throws -> String {
        let objects = try run(["git", "-C", remote, "cat-file", "--batch-all-objects", "--batch"])
        let refs = try run(["git", "-C", remote, "for-each-ref"])
        let log = try run(["git", "-C", remote, "log", "--all", "--format=%B"])
        let paths = try run(["git", "-C", remote, "ls-tree", "-r", "--name-only", "main"])
        let files = try run(["find", remote])
        return [objects, refs, log, paths, files].joined(separator: "\n")
    }

    @Test func theRemoteHoldsNoWordOfTheNotes() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 1)
        let canaries = ["quokkaviolin", "marzipanzeppelin", "tangerinebasilisk", "wombatcathedral", "okapiharmonica"]
        let kept = factory.note("Plans with \(canaries[0])\nand \(canaries[1]) #\(canaries[2])", title: "About \(canaries[3])")
        let clash = factory.note("shared line\n\(canaries[4]) first")
        let doomed = factory.note("soon gone")
        let analysis = Analysis(category: .work, urgency: 3, tasks: [TaskItem(text: "feed the \(canaries[0])", done: false)],
                                summary: "A note about \(canaries[1])", model: "test", analyzedAt: factory.now(),
                                analyzerVersion: "1", contentHash: kept.contentHash)
        a.notebook.put(kept, analysis: analysis)
        a.notebook.put(clash)
        a.notebook.put(doomed)
        try a.sync()
        let b = try Replica("b", in: directory, remote: remote, passphrase: secret)
        try b.sync()
        #expect(b.notebook.notes == a.notebook.notes)
        #expect(b.notebook.analyses[kept.id]?.summary == analysis.summary)

        // A tombstone and a conflict flag travel too.
        a.notebook.delete(doomed.id, at: factory.now())
        var onA = clash; onA.body = "shared line\n\(canaries[4]) from A"; onA.updated = factory.now()
        var onB = clash; onB.body = "shared line\n\(canaries[4]) from B"; onB.updated = factory.now()
        a.notebook.put(onA)
        b.notebook.put(onB)
        try a.sync()
        try b.sync()
        try a.sync()
        #expect(b.notebook.notes == a.notebook.notes)
        #expect(try a.engine.conflicts().count == 1)

        let everything = try everythingIn(remote).lowercased()
        for word in canaries + ["shared line", "soon gone", "notes/", "deleted", "conflicts", "analysis"] {
            #expect(!everything.contains(word), "the remote holds '\(word)'")
        }
        for id in a.notebook.notes.keys + [doomed.id] {
            #expect(!everything.contains(id.rawValue.lowercased()), "the remote holds the id \(id)")
        }
        // The one plain file: the salt, the cost and the key check.
        #expect(try run(["git", "-C", remote, "ls-tree", "--name-only", "main"]).contains("notes-encrypted"))
    }

    @Test func anUnchangedNoteCostsNoObject() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 2)
        var notes = (0..<50).map { factory.note("note \($0)\nwith a second line") }
        for note in notes { a.notebook.put(note) }
        try a.sync()
        let count = { () throws -> Int in
            try run(["git", "-C", remote, "cat-file", "--batch-all-objects", "--batch-check"]).split(separator: "\n").count
        }
        let before = try count()
        notes[7].body += "\nedited"
        notes[7].updated = factory.now()
        a.notebook.put(notes[7])
        try a.sync()
        // The note's sealed file, its bucket, its folder, the root and the commit: nothing for
        // the 49 others.
        #expect(try count() - before == 5)
        // Sealing is a function of the commit: the same plaintext commit seals to the same one.
        let tip = try #require(try a.engine.repository.reference(SyncEngine.branch))
        let sealer = try #require(a.engine.sealers["origin"])
        let fresh = Sealer(key: sealer.key, repository: try Repository.open(at: directory.path + "/a"), remote: "scratch")
        #expect(try fresh.seal(tip) == (try a.engine.repository.reference(SyncEngine.sealedTrackingRef("origin"))))
    }

    @Test func aWrongPassphraseIsToldApartAndAddsNothing() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 3)
        a.notebook.put(factory.note("a note"))
        try a.sync()

        let notebook = InMemoryNotebook()
        let b = try SyncEngine(repositoryPath: directory.path + "/b", notebook: notebook)
        #expect {
            try b.addEncryptedRemote(name: "origin", url: remote, cost: .minimum, passphrase: { _ in Array("wrong".utf8) })
        } throws: { error in
            guard case SyncError.wrongPassphrase("origin") = error else { return false }
            return true
        }
        #expect(try b.remotes().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/b/notes-keys/origin"))
        #expect(try b.repository.reference(SyncEngine.sealedTrackingRef("origin")) == nil)
        #expect(notebook.notes.isEmpty)

        // The right one joins, and its key is cached, readable by this user alone.
        #expect(try b.addEncryptedRemote(name: "origin", url: remote, cost: .minimum, passphrase: { _ in Array(self.secret.utf8) }))
        _ = try b.sync(remote: "origin")
        #expect(notebook.notes.count == 1)
        let keyFile = try FileManager.default.attributesOfItem(atPath: directory.path + "/b/notes-keys/origin")
        #expect((keyFile[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path + "/b/notes-keys")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func withoutTheKeyASyncAsksForThePassphrase() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 4)
        a.notebook.put(factory.note("a note"))
        try a.sync()
        // The cache is gone (a user removed it): no passphrase to give stops the sync.
        try FileManager.default.removeItem(atPath: directory.path + "/a/notes-keys/origin")
        let engine = try SyncEngine(repositoryPath: directory.path + "/a", notebook: a.notebook)
        a.notebook.put(factory.note("another"))
        #expect {
            _ = try engine.sync(remote: "origin")
        } throws: { error in
            guard case SyncError.passphraseNeeded("origin") = error else { return false }
            return "\(error)".contains("NOTES_PASSPHRASE_FILE")
        }
        #expect(throws: SyncError.self) {
            _ = try engine.sync(remote: "origin", options: SyncOptions(passphrase: { _ in Array("wrong".utf8) }))
        }
        _ = try engine.sync(remote: "origin", options: SyncOptions(passphrase: { _ in Array(self.secret.utf8) }))
        let b = try Replica("b", in: directory, remote: remote, passphrase: secret)
        try b.sync()
        #expect(b.notebook.notes.count == 2)
    }

    @Test func aPlainMachineIsRefusedByAnEncryptedRemote() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 5)
        a.notebook.put(factory.note("a note"))
        try a.sync()
        let plain = try Replica("plain", in: directory, remote: remote)
        plain.notebook.put(factory.note("mine"))
        let before = plain.notebook.notes
        #expect {
            try plain.sync()
        } throws: { error in
            guard case SyncError.remoteIsEncrypted = error else { return false }
            return "\(error)".contains("--encrypt")
        }
        #expect(plain.notebook.notes == before)
        #expect(plain.notebook.applyCount == 0)
        #expect(try plain.engine.repository.reference(SyncEngine.trackingRef("origin")) == nil)
    }

    @Test func aPlainRemoteIsNotEncryptedOverItsHistory() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let plain = try Replica("plain", in: directory, remote: remote)
        var factory = NoteFactory(seed: 6)
        plain.notebook.put(factory.note("plain note"))
        try plain.sync()
        let engine = try SyncEngine(repositoryPath: directory.path + "/e", notebook: InMemoryNotebook())
        #expect {
            try engine.addEncryptedRemote(name: "origin", url: remote, cost: .minimum, passphrase: { _ in Array(self.secret.utf8) })
        } throws: { error in
            guard case SyncError.remoteIsPlain = error else { return false }
            return true
        }
        #expect(try engine.remotes().isEmpty)

        // Someone replaces the plain remote's branch with an encrypted notebook: the plain
        // machine is refused before anything is merged.
        let sealedRemote = try makeBareRemote(in: directory, name: "sealed.git")
        let e = try Replica("e", in: directory, remote: sealedRemote, passphrase: secret)
        e.notebook.put(factory.note("sealed note"))
        try e.sync()
        _ = try run(["git", "-C", remote, "fetch", "--quiet", sealedRemote, "+main:main"])
        let before = plain.notebook.notes
        plain.notebook.put(factory.note("written meanwhile"))
        #expect(throws: SyncError.self) { try plain.sync() }
        #expect(plain.notebook.notes.count == before.count + 1)
    }

    @Test(arguments: ["file", "message"])
    func aTamperedObjectIsRefused(_ part: String) throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 9)
        var note = factory.note("the original")
        a.notebook.put(note)
        try a.sync()
        let b = try Replica("b", in: directory, remote: remote, passphrase: secret)
        try b.sync()
        note.body = "edited"
        note.updated = factory.now()
        a.notebook.put(note)
        try a.sync()

        // The server's owner changes one byte of the newest commit's note, or its message.
        let server = try Repository.open(at: remote)
        let tip = try #require(try server.reference(SyncEngine.branch))
        let commit = try server.commit(tip)
        var tree = commit.tree
        var message = commit.message
        if part == "file" {
            // Down the first folder to a file: a folder's sealed entries sit in buckets.
            func flipping(_ tree: ObjectID) throws -> ObjectID {
                var entries = try server.treeEntries(tree)
                let (name, entry) = try #require(entries.sorted { $0.key < $1.key }.first { $0.value.isTree || $0.key != "notes-encrypted" })
                if entry.isTree {
                    entries[name] = TreeEntry(id: try flipping(entry.id), isTree: true)
                } else {
                    var bytes = try server.blob(entry.id)
                    bytes[bytes.count / 2] ^= 1
                    entries[name] = TreeEntry(id: try server.writeBlob(bytes), isTree: false)
                }
                return try server.writeTree(entries)
            }
            tree = try flipping(commit.tree)
        } else {
            // One character of the sealed payload (the message's last line) changed.
            var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let index = try #require(lines.lastIndex { !$0.isEmpty })
            var characters = Array(lines[index])
            characters[characters.count / 2] = characters[characters.count / 2] == "A" ? "B" : "A"
            lines[index] = String(characters)
            message = lines.joined(separator: "\n")
        }
        let forged = try server.createCommit(tree: tree, parents: commit.parents, message: message)
        try server.writeObjects()
        try server.setReference(SyncEngine.branch, to: forged, message: "forged")

        let before = b.notebook.notes
        #expect {
            try b.sync()
        } throws: { error in
            guard case SyncError.tampered = error else { return false }
            return "\(error)".contains("failed authentication")
        }
        #expect(b.notebook.notes == before)
        #expect(b.notebook.applyCount == 1)
    }

    @Test func twoMachinesThatEncryptTheSameEmptyRemoteConverge() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        // Both add it before either syncs: each made its own salt; the first push wins and the
        // other derives its key again, with the winner's salt and the same passphrase.
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        let b = try Replica("b", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 10)
        a.notebook.put(factory.note("from a"))
        b.notebook.put(factory.note("from b"))
        try a.sync()
        try b.sync()
        try a.sync()
        #expect(a.notebook.notes.count == 2)
        #expect(a.notebook.notes == b.notebook.notes)
    }

    @Test func aRemoteEncryptedAgainAfterASyncIsRefused() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: secret)
        var factory = NoteFactory(seed: 12)
        a.notebook.put(factory.note("synced once"))
        try a.sync()
        // Someone replaces the remote's branch with a notebook under another passphrase.
        let other = try makeBareRemote(in: directory, name: "other.git")
        let e = try Replica("e", in: directory, remote: other, passphrase: "another passphrase")
        e.notebook.put(factory.note("theirs"))
        try e.sync()
        _ = try run(["git", "-C", remote, "fetch", "--quiet", other, "+main:main"])
        a.notebook.put(factory.note("written meanwhile"))
        let before = a.notebook.notes
        #expect {
            try a.sync()
        } throws: { error in
            guard case SyncError.encryptionChanged("origin") = error else { return false }
            return true
        }
        #expect(a.notebook.notes == before)
    }

    @Test func aRemoteAskingForAHugeCostIsRefused() throws {
        let parameters = KeyParameters(salt: Array(repeating: 1, count: 16), operations: 3, memory: 1 << 40,
                                       check: Array(repeating: 2, count: 32))
        guard case let .failure(problem) = KeyParameters.parse(parameters.file) else {
            Issue.record("a cost of 1 TiB was accepted")
            return
        }
        #expect(problem.reason.contains("out of bounds"))
        let sane = KeyParameters(salt: parameters.salt, operations: 3, memory: 256 << 20, check: parameters.check)
        #expect(try KeyParameters.parse(sane.file).get() == sane)
    }

    @Test func aPlainRemoteMadeByGitShowsItsNotesToGitClone() throws {
        let directory = TemporaryDirectory()
        let remote = directory.path + "/made-by-git.git"
        try run(["git", "init", "--quiet", "--bare", "--initial-branch=master", remote])
        let a = try Replica("a", in: directory, remote: remote)
        var factory = NoteFactory(seed: 11)
        let note = factory.note("clone me")
        a.notebook.put(note)
        try a.sync()
        try run(["git", "clone", "--quiet", remote, directory.path + "/clone"])
        #expect(FileManager.default.fileExists(atPath: directory.path + "/clone/notes/\(note.id.rawValue).md"))

        // A remote with a branch of its own keeps its HEAD.
        let other = directory.path + "/other.git"
        try run(["git", "init", "--quiet", "--bare", "--initial-branch=master", other])
        try run(["git", "-C", other, "fetch", "--quiet", remote, "main:master"])
        let b = try Replica("b", in: directory, remote: other)
        b.notebook.put(factory.note("another"))
        try b.sync()
        #expect(try run(["git", "-C", other, "symbolic-ref", "HEAD"]).contains("refs/heads/master"))
    }
}
