// An ssh remote whose connection drops mid-transfer: a CuttingProxy on 127.0.0.1 in front of
// the test sshd ends it after a seeded number of bytes. Every sync completes or stops with the
// lost connection in the user's words, loses nothing on either side, and the next one completes.
import Foundation
import Notes
import TestSupport
import Testing
@testable import Sync

@Suite(.serialized)
struct DroppedConnections {
    /// Two machines, a server, a proxy in front of it, and credentials that trust the server
    /// reached through the proxy's port.
    struct Setup {
        let directory = TemporaryDirectory()
        let server: TestSSHServer
        let proxy: CuttingProxy
        let remote: String
        let options: SyncOptions
        let a: Replica, b: Replica

        init() throws {
            server = try TestSSHServer(in: directory)
            proxy = try CuttingProxy(to: server.port)
            remote = try makeBareRemote(in: directory)
            let knownHosts = directory.path + "/known_hosts"
            try server.knownHostsLine(through: proxy.port).write(toFile: knownHosts, atomically: true, encoding: .utf8)
            options = SyncOptions(credentials: RemoteCredentials(privateKey: server.userKey, publicKey: server.userKey + ".pub",
                                                                 knownHosts: knownHosts))
            let url = server.url(for: remote, through: proxy.port)
            a = try Replica("a", in: directory, remote: url)
            b = try Replica("b", in: directory, remote: url)
        }

        var host: String { "127.0.0.1:\(proxy.port)" }

        func stop() {
            proxy.stop()
            server.stop()
        }

        /// The remote is a sound repository (git-receive-pack of a cut push left no half-written ref).
        func checkRemote() throws {
            _ = try run(["git", "--git-dir", remote, "fsck", "--strict", "--no-progress"])
        }
    }

    /// The connection dropped at the start of each transfer of a sync (its fetch, its push, the
    /// fetch that checks the push), as the user reads it; the next sync completes.
    @Test func aDroppedConnectionSaysWhichSideAndThatNothingWasLost() throws {
        let setup = try Setup()
        defer { setup.stop() }
        let (a, b, host) = (setup.a, setup.b, setup.host)
        var factory = NoteFactory(seed: 3400)
        a.notebook.put(factory.note("first"))
        try a.sync(setup.options)
        let expected: [(SyncStep, RemoteUse, String)] = [
            (.fetch, .reading, """
                the connection to \(host) was lost while fetching from 'origin'. Nothing was changed here, and nothing \
                was lost. Run 'notes sync' again (if it keeps failing, check the network to \(host)). libgit2 said: 
                """),
            (.push, .writing, """
                the connection to \(host) was lost while sending notes to 'origin'. Nothing was lost: this machine has \
                every note, merged with what 'origin' had, and 'origin' has either all of this push or none of it. Run \
                'notes sync' again to send what it lacks (if it keeps failing, check the network to \(host)). libgit2 said: 
                """),
            (.verify, .checking, """
                the connection to \(host) was lost while checking that 'origin' got the notes. Nothing was lost: this \
                machine has every note, merged. Run 'notes sync' again to check that 'origin' has them (if it keeps \
                failing, check the network to \(host)). libgit2 said: 
                """),
        ]
        for (step, use, words) in expected {
            a.notebook.put(factory.note("written on a while the network fails during the \(step)"))
            let before = a.notebook.notes
            a.engine.interruption = { current in
                if current == step { setup.proxy.arm(CuttingProxy.Cut(.toClient, afterBytes: 0, reset: false)) }
            }
            #expect {
                try a.sync(setup.options)
            } throws: { error in
                guard case let SyncError.connectionLost("origin", lostHost, lostUse, _) = error else { return false }
                return lostHost == host && lostUse == use && "\(error)".hasPrefix(words)
            }
            #expect(setup.proxy.didCut)
            #expect(a.notebook.notes == before)
            try setup.checkRemote()
            a.engine.interruption = nil
            setup.proxy.arm(nil)
            try a.sync(setup.options)
        }
        try b.sync(setup.options)
        #expect(b.notebook.notes == a.notebook.notes)
    }

    /// A server that is down (nothing listens on its port): the sync says it cannot reach it.
    @Test func aServerThatIsDownCannotBeReachedAndNothingChanges() throws {
        let setup = try Setup()
        defer { setup.stop() }
        setup.server.stop()
        let direct = try Replica("direct", in: setup.directory, remote: setup.server.url(for: setup.remote))
        var factory = NoteFactory(seed: 3405)
        let note = factory.note("written while the server is down")
        direct.notebook.put(note)
        let host = "127.0.0.1:\(setup.server.port)"
        #expect {
            try direct.sync(setup.options)
        } throws: { error in
            guard case SyncError.unreachable("origin", host, .reading, _) = error else { return false }
            return "\(error)".hasPrefix("""
                cannot reach \(host) to fetch from 'origin'. Nothing was changed here, and nothing was lost. Run \
                'notes sync' again (is it on, and can this machine reach it?). libgit2 said: failed to connect to 127.0.0.1
                """)
        }
        #expect(direct.notebook.notes == [note.id: note])
    }

    /// Thirty-two seeded cuts (either direction, end of stream or reset, anywhere in the bytes
    /// of a whole sync: the ssh handshakes and packs of its fetch, push and verifying fetch) over
    /// one history of two machines that add, edit and delete notes. Each machine changes only its
    /// own notes, so what it had before a failed sync must be exactly what it has after.
    @Test func seededCutsAcrossOneSyncHistoryLoseNothing() throws {
        let setup = try Setup()
        defer { setup.stop() }
        let machines = [setup.a, setup.b]
        var random = SeededGenerator(seed: 3410)
        var factory = NoteFactory(seed: 3411)
        var own: [[NoteID]] = [[], []]
        // Bytes of the last whole sync in each direction; a cut falls anywhere in them.
        var length: [CuttingProxy.Direction: Int] = [.toServer: 6_000, .toClient: 6_000]
        var stopped: [RemoteUse: Int] = [:]
        var completedThroughCut = 0
        for round in 0..<32 {
            let index = Int.random(in: 0...1, using: &random)
            let machine = machines[index]
            let live = own[index].filter { machine.notebook.notes[$0] != nil }
            switch live.isEmpty ? 5 : Int.random(in: 0..<6, using: &random) {
            case 0:
                machine.notebook.delete(live.randomElement(using: &random)!, at: factory.now())
            case 1, 2:
                var note = machine.notebook.notes[live.randomElement(using: &random)!]!
                note.body += "\nedit \(round) on \(machine.name)"
                note.updated = factory.now()
                machine.notebook.put(note)
            default:
                // Random text does not compress: the packs, not only the ssh handshakes, are cut.
                let text = (0..<Int.random(in: 1_000...8_000, using: &random)).map { _ in String(UInt8.random(in: 16...255, using: &random), radix: 16) }
                let note = factory.note("note \(round) from \(machine.name)\n" + text.joined())
                machine.notebook.put(note)
                own[index].append(note.id)
            }
            let notes = machine.notebook.notes, tombstones = machine.notebook.tombstones
            let direction: CuttingProxy.Direction = Bool.random(using: &random) ? .toServer : .toClient
            let cut = CuttingProxy.Cut(direction, afterBytes: Int.random(in: 0..<length[direction]!, using: &random),
                                       reset: Bool.random(using: &random))
            setup.proxy.arm(cut)
            do {
                try machine.sync(setup.options)
                if setup.proxy.didCut { completedThroughCut += 1 }
            } catch let SyncError.connectionLost(_, _, use, detail) {
                #expect(setup.proxy.didCut, "round \(round): \(detail) without a cut")
                stopped[use, default: 0] += 1
            } catch {
                Issue.record("round \(round), \(cut): \(error)")
            }
            // A failed sync keeps every note as it was: the other machine changes none of these.
            #expect(machine.notebook.notes.filter { own[index].contains($0.key) } == notes.filter { own[index].contains($0.key) },
                    "round \(round), \(cut)")
            #expect(tombstones.allSatisfy { machine.notebook.tombstones[$0.key] != nil }, "round \(round), \(cut)")
            try setup.checkRemote()

            setup.proxy.arm(nil)
            try machine.sync(setup.options)
            for direction in [CuttingProxy.Direction.toServer, .toClient] { length[direction] = max(setup.proxy.relayed(direction), 1) }
        }
        try setup.a.sync(setup.options)
        try setup.b.sync(setup.options)
        try setup.a.sync(setup.options)
        #expect(setup.a.notebook.notes == setup.b.notebook.notes)
        #expect(Set(setup.a.notebook.tombstones.keys) == Set(setup.b.notebook.tombstones.keys))
        #expect(own[0].allSatisfy { setup.a.notebook.notes[$0] != nil || setup.a.notebook.tombstones[$0] != nil })
        #expect(own[1].allSatisfy { setup.b.notebook.notes[$0] != nil || setup.b.notebook.tombstones[$0] != nil })
        // The cuts stopped fetches and pushes alike (a seed that missed a kind would test less).
        #expect(stopped[.reading, default: 0] > 0 && stopped[.writing, default: 0] > 0, "\(stopped), \(completedThroughCut) completed through a cut")
    }
}
