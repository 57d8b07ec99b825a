// The sync engine against a path (and file://) bare remote: round trips, the repository
// format as plain git sees it, conflicts, and the safety rules.
import Foundation
import Notes
import TestSupport
import Testing
@testable import Sync

struct SyncRoundTrips {
    @Test func notesTravelBetweenTwoMachines() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: "file://" + remote)
        var factory = NoteFactory(seed: 1)
        let first = factory.note("Call the dentist\nabout the crown", tags: ["health"])
        let second = factory.note("Buy milk")
        a.notebook.put(first)
        a.notebook.put(second)
        // Enough notes that one deletion stays under the 25% mass-deletion guard.
        for index in 0..<3 { a.notebook.put(factory.note("filler \(index)")) }

        let sent = try a.sync()
        #expect(sent.sent == 5 && sent.received == 0)
        let received = try b.sync()
        #expect(received.received == 5 && received.sent == 0)
        #expect(b.notebook.notes == a.notebook.notes)

        var edited = first
        edited.body += "\nand the bill"
        edited.updated = factory.now()
        b.notebook.put(edited)
        b.notebook.delete(second.id, at: factory.now())
        try b.sync()
        let back = try a.sync()
        #expect(back.received == 2)
        #expect(a.notebook.notes[first.id] == edited && a.notebook.notes[second.id] == nil)
        #expect(a.notebook.notes == b.notebook.notes)
        #expect(a.notebook.tombstones[second.id] != nil)
        // `notes log`: newest first, from the edit back to the creation.
        let history = try a.engine.history(of: first.id)
        #expect(history.map(\.state) == [.live(edited), .live(first)])
        #expect(try a.engine.history(of: second.id).first?.state == b.notebook.tombstones[second.id].map { .deleted(at: $0) })
        // Nothing new: a second sync sends and receives nothing.
        let idle = try a.sync()
        #expect(idle.sent == 0 && idle.received == 0)
    }

    @Test func aCloneShowsTheNotesAsMarkdown() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        var factory = NoteFactory(seed: 2)
        let note = factory.note("# Groceries\n\n- eggs\n- flour", tags: ["home"])
        let analysis = Analysis(category: .personal, urgency: 2, tasks: [TaskItem(text: "buy eggs", done: true)],
                                summary: "A \"short\" list", model: "m", analyzedAt: factory.now(),
                                analyzerVersion: "v1", contentHash: note.contentHash)
        a.notebook.put(note, analysis: analysis)
        try a.sync()

        let clone = directory.path + "/clone"
        try run(["git", "clone", "-q", "-b", "main", remote, clone])
        let file = try String(contentsOfFile: clone + "/notes/\(note.id).md", encoding: .utf8)
        #expect(file == NoteDocument.render(note))
        #expect(file.hasSuffix("\n"))
        #expect(try String(contentsOfFile: clone + "/.notes-format", encoding: .utf8) == "notes-sync-format: 1\n")
        #expect(FileManager.default.fileExists(atPath: clone + "/analysis/\(note.id).yml"))
        try run(["git", "fsck", "--strict"], in: remote)

        // The analysis travels with the note and is not recomputed elsewhere.
        let b = try Replica("b", in: directory, remote: remote)
        try b.sync()
        #expect(b.notebook.analyses[note.id] == analysis)
    }

    @Test func twoNotebooksInUseBeforeTheirFirstSyncBecomeOne() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 14)
        let onA = (0..<3).map { factory.note("from A \($0)") }
        let onB = (0..<4).map { factory.note("from B \($0)") }
        for note in onA { a.notebook.put(note) }
        for note in onB { b.notebook.put(note) }
        try a.sync()
        let summary = try b.sync()
        #expect(summary.sent == 4 && summary.received == 3)
        try a.sync()
        #expect(a.notebook.notes.count == 7)
        #expect(a.notebook.notes == b.notebook.notes)
    }

    @Test func aNewerRepositoryFormatIsRefused() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        var factory = NoteFactory(seed: 15)
        a.notebook.put(factory.note("one"))
        try a.sync()
        let clone = directory.path + "/clone"
        try run(["git", "clone", "-q", "-b", "main", remote, clone])
        try "notes-sync-format: 2\n".write(toFile: clone + "/.notes-format", atomically: true, encoding: .utf8)
        try run(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "format 2"], in: clone)
        try run(["git", "push", "-q", "origin", "main"], in: clone)
        a.notebook.put(factory.note("two"))
        let before = a.notebook.notes
        #expect {
            try a.sync()
        } throws: { error in
            guard case SyncError.newerFormat(2, 1) = error else { return false }
            return true
        }
        #expect(a.notebook.notes == before)
    }

    @Test func anAnalysisAloneIsSynced() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 12)
        let note = factory.note("Pay the invoice by Friday")
        a.notebook.put(note)
        try a.sync()
        try b.sync()
        // The daemon on A analyses the note after it was synced; B must not recompute it.
        let analysis = Analysis(category: .finance, urgency: 4, tasks: [TaskItem(text: "pay the invoice")], summary: "Invoice due",
                                model: "m", analyzedAt: factory.now(), analyzerVersion: "v1", contentHash: note.contentHash)
        a.notebook.put(note, analysis: analysis)
        try a.sync()
        try b.sync()
        #expect(b.notebook.analyses[note.id] == analysis)
        // A stale analysis (for other content) is never imported.
        var edited = note
        edited.body = "Pay the invoice by Monday"
        edited.updated = factory.now()
        b.notebook.put(edited)
        try b.sync()
        let c = try Replica("c", in: directory, remote: remote)
        try c.sync()
        #expect(c.notebook.notes[note.id] == edited)
        #expect(c.notebook.analyses[note.id] == nil)
    }

    @Test func editsMadeWithPlainGitAreImported() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        var factory = NoteFactory(seed: 3)
        let note = factory.note("original line")
        a.notebook.put(note)
        try a.sync()

        let clone = directory.path + "/clone"
        try run(["git", "clone", "-q", "-b", "main", remote, clone])
        let path = clone + "/notes/\(note.id).md"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "original line", with: "edited in vim").write(toFile: path, atomically: true, encoding: .utf8)
        // A file removed without a tombstone must not delete anything.
        let other = factory.note("second")
        a.notebook.put(other)
        try a.sync()
        try run(["git", "pull", "-q", "--no-rebase"], in: clone)
        try run(["git", "rm", "-q", "notes/\(other.id).md"], in: clone)
        try run(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "by hand"], in: clone)
        try run(["git", "push", "-q", "origin", "main"], in: clone)

        try a.sync()
        #expect(a.notebook.notes[note.id]?.body == "edited in vim")
        #expect(a.notebook.notes[other.id] == other)
        #expect(a.notebook.tombstones.isEmpty)
    }
}

struct SyncConflicts {
    @Test func sameLineEditedOnTwoMachinesKeepsBothAndFlags() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 4)
        let note = factory.note("shared line\nsecond", tags: ["x"])
        a.notebook.put(note)
        for index in 0..<4 { a.notebook.put(factory.note("filler \(index)")) }
        try a.sync()
        try b.sync()

        var onA = note
        onA.body = "edited on A\nsecond"
        onA.tags = ["x", "from-a"]
        onA.updated = factory.now()
        a.notebook.put(onA)
        var onB = note
        onB.body = "edited on B\nsecond"
        onB.updated = factory.now()
        b.notebook.put(onB)
        try a.sync()
        let summary = try b.sync()
        #expect(summary.merged == 1 && summary.conflicted == 1)
        try a.sync()

        #expect(a.notebook.notes == b.notebook.notes)
        let bodies = Set(a.notebook.notes.values.map(\.body))
        #expect(bodies.isSuperset(of: ["edited on A\nsecond", "edited on B\nsecond"]))
        let conflicts = try a.engine.conflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.note?.body == "edited on B\nsecond")
        #expect(conflicts.first?.copy?.body == "edited on A\nsecond")
        #expect(conflicts.first?.note?.tags == ["from-a", "x"])

        // Resolving on A with an edited merge: the copy goes, the flag goes, everywhere.
        try a.engine.resolveConflict(note.id, .edited(title: "Merged", body: "edited on A and B\nsecond", tags: ["x"]),
                                     at: factory.now())
        #expect(try a.engine.conflicts().isEmpty)
        try a.sync()
        try b.sync()
        #expect(try b.engine.conflicts().isEmpty)
        #expect(b.notebook.notes.count == 5)
        #expect(b.notebook.notes[note.id]?.body == "edited on A and B\nsecond")
        #expect(b.notebook.notes == a.notebook.notes)
        #expect(try a.engine.history(of: note.id).count >= 3)
    }

    @Test func editBeatsDeleteAcrossMachines() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 5)
        let note = factory.note("keep me")
        a.notebook.put(note)
        try a.sync()
        try b.sync()
        a.notebook.delete(note.id, at: factory.now())
        var edited = note
        edited.body = "keep me, edited"
        edited.updated = factory.now()
        b.notebook.put(edited)
        try a.sync()
        try b.sync()
        try a.sync()
        #expect(a.notebook.notes[note.id] == edited)
        #expect(b.notebook.notes[note.id] == edited)
        #expect(try a.engine.conflicts().map(\.kind) == [.editBeatDelete])
        try a.engine.resolveConflict(note.id, .keepNote, at: factory.now())
        #expect(try a.engine.conflicts().isEmpty)
        #expect(a.notebook.notes[note.id] == edited)
    }

    @Test func keepingTheCopyReplacesTheNoteAndRemovesTheCopy() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 13)
        let note = factory.note("base", title: "Plan", tags: ["x"])
        a.notebook.put(note)
        try a.sync()
        try b.sync()
        var onA = note; onA.body = "from A"; onA.updated = factory.now()
        var onB = note; onB.body = "from B"; onB.tags = ["y"]; onB.updated = factory.now()
        a.notebook.put(onA)
        b.notebook.put(onB)
        try a.sync()
        try b.sync()
        let conflict = try #require(try b.engine.conflicts().first)
        #expect(conflict.note?.body == "from B" && conflict.copy?.body == "from A")
        let copyID = try #require(conflict.copy?.id)
        try b.engine.resolveConflict(note.id, .keepCopy, at: factory.now())
        #expect(b.notebook.notes[note.id]?.body == "from A")
        #expect(b.notebook.notes[note.id]?.title == "Plan")
        #expect(b.notebook.notes[copyID] == nil && b.notebook.tombstones[copyID] != nil)
        #expect(throws: SyncError.self) { try b.engine.resolveConflict(note.id, .keepNote, at: factory.now()) }
        try b.sync()
        try a.sync()
        #expect(a.notebook.notes == b.notebook.notes)
        #expect(try a.engine.conflicts().isEmpty)
    }

    /// One side deletes c and adds a similar d; the other edits c. With rename detection the
    /// edit could land in d: it must stay in c.
    @Test func renameTrapKeepsTheEditInItsNote() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 6)
        let lines = (1...20).map { "line \($0) of a long enough note" }.joined(separator: "\n")
        let c = factory.note(lines, title: "c")
        a.notebook.put(c)
        try a.sync()
        try b.sync()

        a.notebook.delete(c.id, at: factory.now())
        var d = factory.note(lines + "\nline 21", title: "c")
        d.title = "c"
        a.notebook.put(d)
        var edited = c
        edited.body = lines.replacingOccurrences(of: "line 3 of", with: "line THREE of")
        edited.updated = factory.now()
        b.notebook.put(edited)

        try a.sync()
        try b.sync()
        try a.sync()
        for replica in [a, b] {
            #expect(replica.notebook.notes[c.id] == edited)
            #expect(replica.notebook.notes[d.id] == d)
        }
    }
}

struct SyncSafety {
    @Test func massDeletionStopsUnlessAllowed() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 7)
        let notes = (0..<40).map { factory.note("note \($0)") }
        for note in notes { a.notebook.put(note) }
        try a.sync()
        try b.sync()
        for note in notes.prefix(12) { a.notebook.delete(note.id, at: factory.now()) }
        try a.sync()

        let before = b.notebook.notes
        #expect {
            try b.sync()
        } throws: { error in
            guard case SyncError.tooManyDeletions(12, 40) = error else { return false }
            return true
        }
        #expect(b.notebook.notes == before)
        try b.sync(SyncOptions(allowDeletes: true))
        #expect(b.notebook.notes.count == 28)
        // Below the share (1 of 28) passes without the flag.
        a.notebook.delete(notes[12].id, at: factory.now())
        try a.sync()
        try b.sync()
        #expect(b.notebook.notes.count == 27)
    }

    /// Fewer than 10 deletions pass whatever share of the notebook they are: a new user with
    /// two notes deletes one.
    @Test func fewDeletionsNeedNoFlag() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 8)
        let notes = (0..<12).map { factory.note("note \($0)") }
        for note in notes { a.notebook.put(note) }
        try a.sync()
        try b.sync()
        for note in notes.prefix(9) { a.notebook.delete(note.id, at: factory.now()) }
        try a.sync()
        try b.sync()
        #expect(b.notebook.notes.count == 3)
    }

    @Test func rewrittenRemoteStopsTheSync() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        var factory = NoteFactory(seed: 8)
        a.notebook.put(factory.note("one"))
        try a.sync()

        // Someone replaces the remote's history with an unrelated one.
        let other = TemporaryDirectory()
        let stranger = try Replica("s", in: other, remote: remote)
        stranger.notebook.put(factory.note("unrelated"))
        let strangerRepo = other.path + "/s"
        let tree = try run(["git", "--git-dir", strangerRepo, "mktree"], in: other.path).trimmingCharacters(in: .whitespacesAndNewlines)
        let commit = try run(["git", "--git-dir", strangerRepo, "-c", "user.name=x", "-c", "user.email=x@x.invalid",
                              "commit-tree", tree, "-m", "rewrite"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try run(["git", "--git-dir", strangerRepo, "push", "-q", "--force", remote, "\(commit):refs/heads/main"])

        a.notebook.put(factory.note("two"))
        let before = a.notebook.notes
        #expect {
            try a.sync()
        } throws: { error in
            guard case SyncError.remoteRewritten = error else { return false }
            return "\(error)".contains("notes remote remove")
        }
        #expect(a.notebook.notes == before)
    }

    @Test func corruptedRemoteObjectFailsClosed() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 9)
        let note = factory.note("intact")
        a.notebook.put(note)
        try a.sync()
        try b.sync()
        var edited = note
        edited.body = "this version gets corrupted on the remote"
        edited.updated = factory.now()
        a.notebook.put(edited)
        try a.sync()

        // Damage the new blob in the remote's object store, loose or packed.
        let blob = try run(["git", "--git-dir", remote, "rev-parse", "main:notes/\(note.id).md"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try corrupt(object: blob, in: remote)

        let before = b.notebook.notes
        let appliesBefore = b.notebook.applyCount
        #expect(throws: SyncError.self) { try b.sync() }
        #expect(b.notebook.notes == before)
        #expect(b.notebook.applyCount == appliesBefore)
    }

    @Test func staleGitLocksFromACrashAreRecovered() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        var factory = NoteFactory(seed: 10)
        a.notebook.put(factory.note("one"))
        try a.sync()
        let repo = directory.path + "/a"
        for lock in ["/index.lock", "/refs/heads/main.lock", "/HEAD.lock"] {
            _ = FileManager.default.createFile(atPath: repo + lock, contents: Data())
        }
        a.notebook.put(factory.note("two"))
        let summary = try a.sync()
        #expect(summary.sent == 1)
        #expect(!FileManager.default.fileExists(atPath: repo + "/index.lock"))
    }

    @Test func twoSyncsNeverRunAtOnce() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let held = try SyncLock.tryAcquire(repositoryPath: directory.path + "/a")
        #expect(held != nil)
        #expect(try SyncLock.tryAcquire(repositoryPath: directory.path + "/a") == nil)
        #expect {
            try a.sync()
        } throws: { error in
            guard case SyncError.alreadyRunning = error else { return false }
            return true
        }
        withExtendedLifetime(held) {}
    }

    @Test func aUserEditDuringTheSyncIsNeverOverwritten() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 11)
        let note = factory.note("first\nmiddle\nlast")
        a.notebook.put(note)
        try a.sync()
        try b.sync()
        var remoteEdit = note
        remoteEdit.body = "FIRST\nmiddle\nlast"
        remoteEdit.updated = factory.now()
        a.notebook.put(remoteEdit)
        try a.sync()

        var localEdit = note
        localEdit.body = "first\nmiddle\nLAST"
        localEdit.updated = factory.now()
        b.notebook.duringApply = { b.notebook.put(localEdit) }
        try b.sync()
        #expect(b.notebook.notes[note.id]?.body == "FIRST\nmiddle\nLAST")
        try a.sync()
        #expect(a.notebook.notes == b.notebook.notes)
    }

    @Test func remotesAreListedAddedAndRemoved() throws {
        let directory = TemporaryDirectory()
        let engine = try SyncEngine(repositoryPath: directory.path + "/repo", notebook: InMemoryNotebook())
        let path = try makeBareRemote(in: directory)
        try engine.addRemote(name: "origin", url: path)
        try engine.addRemote(name: "nas", url: "ssh://me@nas/srv/notes.git")
        #expect(try engine.remotes() == [RemoteInfo(name: "nas", url: "ssh://me@nas/srv/notes.git"),
                                         RemoteInfo(name: "origin", url: path)])
        try engine.removeRemote(name: "nas")
        #expect(try engine.remotes().map(\.name) == ["origin"])
        #expect(throws: SyncError.self) { try engine.removeRemote(name: "nas") }
        #expect(throws: SyncError.self) { try engine.sync(remote: "nas") }
    }
}

/// Overwrites an object's compressed bytes with garbage, wherever git stored it.
private func corrupt(object: String, in repository: String) throws {
    let loose = repository + "/objects/" + object.prefix(2) + "/" + object.dropFirst(2)
    if FileManager.default.fileExists(atPath: loose) {
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: loose)
        try Data("garbage, not zlib".utf8).write(to: URL(fileURLWithPath: loose))
        return
    }
    let packs = try FileManager.default.contentsOfDirectory(atPath: repository + "/objects/pack").filter { $0.hasSuffix(".idx") }
    for index in packs {
        let listing = try run(["git", "verify-pack", "-v", repository + "/objects/pack/" + index])
        guard let line = listing.split(separator: "\n").first(where: { $0.hasPrefix(object) }) else { continue }
        // "<sha> blob <size> <size-in-pack> <offset>"
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        let offset = UInt64(fields[4])!
        let pack = repository + "/objects/pack/" + index.dropLast(4) + ".pack"
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pack)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: pack))
        try handle.seek(toOffset: offset + 2)
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 8))
        try handle.close()
        return
    }
    Issue.record("object \(object) not found in \(repository)")
}
