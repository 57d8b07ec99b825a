// Convergence under random concurrent use, a push race on one path remote, and a crash at
// every step of a sync; each against a plain remote and an encrypted one, with the same results.
import Foundation
import Notes
import TestSupport
import Testing
@testable import Sync

struct ConvergenceFuzz {
    /// Three replicas make seeded random creates, edits, tag changes and deletes on
    /// overlapping notes and sync in random order. Once settled every replica holds the same
    /// notes, and every edit survives (in its note or a conflict copy) unless the note was
    /// deleted by a replica that had seen that edit.
    @Test(arguments: [UInt64(42), 7], [false, true])
    func threeReplicasConverge(seed: UInt64, encrypted: Bool) throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let replicas = try ["a", "b", "c"].map { try Replica($0, in: directory, remote: remote, passphrase: passphrase(encrypted: encrypted)) }
        var random = SeededGenerator(seed: seed)
        var factory = NoteFactory(seed: seed &+ 1)
        var marker = 0
        var edits: [String] = []
        var excused = Set<String>()
        let options = SyncOptions(allowDeletes: true)

        for round in 0..<200 {
            let replica = replicas[Int.random(in: 0..<3, using: &random)]
            let notes = replica.notebook.notes.values.sorted { $0.id < $1.id }
            let roll = Int.random(in: 0..<100, using: &random)
            if notes.count < 3 || roll < 15 {
                marker += 1
                let text = "m\(marker)-create"
                edits.append(text)
                replica.notebook.put(factory.note("note \(round)\n\(text)", tags: ["t\(marker % 4)"]))
            } else {
                var note = notes[Int.random(in: 0..<notes.count, using: &random)]
                if roll < 65 {
                    marker += 1
                    let text = "m\(marker)-edit"
                    edits.append(text)
                    var lines = note.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    lines.insert(text, at: Int.random(in: 0...lines.count, using: &random))
                    note.body = lines.joined(separator: "\n")
                    note.updated = factory.now()
                    replica.notebook.put(note)
                } else if roll < 85 {
                    var tags = note.tags
                    if let existing = tags.first, Bool.random(using: &random) { tags.removeAll { $0 == existing } } else {
                        tags.append("t\(Int.random(in: 0..<6, using: &random))")
                    }
                    note.tags = Tags.normalized(tags)
                    note.updated = factory.now()
                    replica.notebook.put(note)
                } else {
                    // This replica has seen every marker in the note: deleting them is its choice.
                    excused.formUnion(note.body.split(separator: "\n").map(String.init).filter { $0.hasPrefix("m") })
                    replica.notebook.delete(note.id, at: factory.now())
                }
            }
            if Int.random(in: 0..<100, using: &random) < 60 {
                try replicas[Int.random(in: 0..<3, using: &random)].sync(options)
            }
        }
        for _ in 0..<2 { for replica in replicas { try replica.sync(options) } }

        let reference = replicas[0].notebook.notes
        for replica in replicas.dropFirst() {
            #expect(replica.notebook.notes == reference, "replica \(replica.name) differs")
        }
        #expect(replicas.map { try! $0.engine.repository.reference(SyncEngine.branch) }.allSatisfy { $0 != nil })
        let surviving = Set(reference.values.flatMap { $0.body.split(separator: "\n").map(String.init) })
        let lost = edits.filter { !surviving.contains($0) && !excused.contains($0) }
        #expect(lost.isEmpty, "edits lost: \(lost)")
        #expect(edits.count > 100)
    }
}

struct PushRace {
    /// Two machines (two engines with their own repositories, on two threads of this process)
    /// sync to one path remote at the same moment, again and again. libgit2 1.5's path push
    /// is not compare-and-swap; the post-push verification must keep every commit.
    @Test(arguments: [false, true])
    func concurrentPushesLoseNoCommit(encrypted: Bool) throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        nonisolated(unsafe) let replicas = try ["a", "b"].map { try Replica($0, in: directory, remote: remote, passphrase: passphrase(encrypted: encrypted)) }
        nonisolated(unsafe) var created: [[NoteID]] = [[], []]
        nonisolated(unsafe) var failures: [String] = []
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            var factory = NoteFactory(seed: UInt64(100 + index))
            for round in 0..<15 {
                let note = factory.note("machine \(index) round \(round)")
                replicas[index].notebook.put(note)
                created[index].append(note.id)
                do {
                    try replicas[index].sync(SyncOptions(maximumAttempts: 10))
                } catch SyncError.pushNotConfirmed {
                    // Still committed locally; the next sync pushes it.
                } catch {
                    lock.withLock { failures.append("\(error)") }
                }
            }
        }
        #expect(failures.isEmpty)
        for replica in replicas + replicas { try replica.sync() }
        let fresh = try Replica("fresh", in: directory, remote: remote, passphrase: passphrase(encrypted: encrypted))
        try fresh.sync()
        let all = Set(created.joined())
        #expect(all.count == 30)
        for replica in replicas + [fresh] {
            #expect(Set(replica.notebook.notes.keys) == all, "\(replica.name) is missing notes")
        }
    }
}

struct CrashInjection {
    /// A sync stops at the start of each step (as if the process died there); the next sync,
    /// by a fresh engine on the same repository and notebook, loses and duplicates nothing.
    @Test(arguments: SyncStep.allCases, [false, true])
    func nextSyncRecovers(at step: SyncStep, encrypted: Bool) throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: remote, passphrase: passphrase(encrypted: encrypted))
        var factory = NoteFactory(seed: 200)
        let shared = (0..<6).map { factory.note("shared \($0)\nline two\nline three") }
        for note in shared { a.notebook.put(note) }
        try a.sync()
        // b joins the remote a set up (for an encrypted one: with its salt and key check).
        let b = try Replica("b", in: directory, remote: remote, passphrase: passphrase(encrypted: encrypted))
        try b.sync()

        // Both sides change things: a clean merge, a conflict, a creation and a deletion each.
        var onA = shared[0]; onA.body = "shared 0 edited on A\nline two\nline three"; onA.updated = factory.now()
        var onB = shared[0]; onB.body = "shared 0\nline two\nline three edited on B"; onB.updated = factory.now()
        var clashA = shared[1]; clashA.body = "clash A\nline two\nline three"; clashA.updated = factory.now()
        var clashB = shared[1]; clashB.body = "clash B\nline two\nline three"; clashB.updated = factory.now()
        let newA = factory.note("new on A"), newB = factory.note("new on B")
        a.notebook.put(onA); a.notebook.put(clashA); a.notebook.put(newA); a.notebook.delete(shared[2].id, at: factory.now())
        b.notebook.put(onB); b.notebook.put(clashB); b.notebook.put(newB); b.notebook.delete(shared[3].id, at: factory.now())
        try a.sync()

        b.engine.interruption = { current in if current == step { throw SimulatedCrash(step: current) } }
        #expect(throws: SimulatedCrash(step: step)) { try b.sync() }
        b.engine.interruption = nil
        let restarted = try SyncEngine(repositoryPath: directory.path + "/b", notebook: b.notebook)
        _ = try restarted.sync(remote: "origin")
        try a.sync()
        _ = try restarted.sync(remote: "origin")

        #expect(a.notebook.notes == b.notebook.notes)
        let notes = b.notebook.notes
        // 6 shared - 2 deleted + 2 new + 1 conflict copy: nothing lost, nothing twice.
        #expect(notes.count == 7)
        #expect(notes[shared[0].id]?.body == "shared 0 edited on A\nline two\nline three edited on B")
        #expect(Set(notes.values.map(\.body)).isSuperset(of: ["clash A\nline two\nline three", "clash B\nline two\nline three",
                                                               "new on A", "new on B"]))
        #expect(notes[shared[2].id] == nil && notes[shared[3].id] == nil)
        #expect(try restarted.conflicts().count == 1)
    }
}

/// What `SyncEngine.interruption` throws to stop a sync as a crash would.
struct SimulatedCrash: Error, Equatable {
    let step: SyncStep
}
