// ssh:// remotes against a real OpenSSH server that the test starts on 127.0.0.1 with its own
// host key, user key, known_hosts and authorized_keys.
import Foundation
import Notes
import TestSupport
import Testing
@testable import Sync

@Suite(.serialized)
struct SSHRemote {
    @Test(arguments: [false, true])
    func syncsOverSSHWithAKeyFileAndAKnownHost(encrypted: Bool) throws {
        let directory = TemporaryDirectory()
        let server = try TestSSHServer(in: directory)
        defer { server.stop() }
        let remote = try makeBareRemote(in: directory)
        let knownHosts = directory.path + "/known_hosts"
        try server.knownHostsLine.write(toFile: knownHosts, atomically: true, encoding: .utf8)
        let credentials = RemoteCredentials(privateKey: server.userKey, publicKey: server.userKey + ".pub", knownHosts: knownHosts)
        let options = SyncOptions(credentials: credentials)

        let a = try Replica("a", in: directory, remote: server.url(for: remote), passphrase: passphrase(encrypted: encrypted), credentials: credentials)
        let b = try Replica("b", in: directory, remote: server.url(for: remote), passphrase: passphrase(encrypted: encrypted), credentials: credentials)
        var factory = NoteFactory(seed: 300)
        let note = factory.note("sent over ssh")
        a.notebook.put(note)
        #expect(try a.sync(options).sent == 1)
        #expect(try b.sync(options).received == 1)
        #expect(b.notebook.notes[note.id] == note)
        var edited = note
        edited.body = "edited on b, over ssh"
        edited.updated = factory.now()
        b.notebook.put(edited)
        try b.sync(options)
        try a.sync(options)
        #expect(a.notebook.notes[note.id] == edited)
        let pushed = encrypted ? SyncEngine.sealedTrackingRef("origin") : SyncEngine.branch
        #expect(try run(["git", "--git-dir", remote, "rev-parse", "main"]).hasPrefix(try a.engine.repository.reference(pushed)!.hex))
    }

    @Test func unknownOrChangedHostKeyStopsTheSync() throws {
        let directory = TemporaryDirectory()
        let server = try TestSSHServer(in: directory)
        defer { server.stop() }
        let remote = try makeBareRemote(in: directory)
        let a = try Replica("a", in: directory, remote: server.url(for: remote))
        var factory = NoteFactory(seed: 301)
        a.notebook.put(factory.note("never sent"))

        let knownHosts = directory.path + "/known_hosts"
        try "".write(toFile: knownHosts, atomically: true, encoding: .utf8)
        let credentials = RemoteCredentials(privateKey: server.userKey, publicKey: server.userKey + ".pub", knownHosts: knownHosts)
        #expect {
            try a.sync(SyncOptions(credentials: credentials))
        } throws: { error in
            guard case SyncError.unknownHostKey = error else { return false }
            return "\(error)".contains("ssh-keyscan -p \(server.port) 127.0.0.1 >> \(knownHosts)")
        }

        // Another key recorded for this host: a changed key, refused.
        try run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", directory.path + "/impostor"])
        let impostor = try String(contentsOfFile: directory.path + "/impostor.pub", encoding: .utf8).split(separator: " ")
        try "[127.0.0.1]:\(server.port) \(impostor[0]) \(impostor[1])\n".write(toFile: knownHosts, atomically: true, encoding: .utf8)
        #expect {
            try a.sync(SyncOptions(credentials: credentials))
        } throws: { error in
            guard case SyncError.hostKeyChanged = error else { return false }
            return true
        }
        #expect(try run(["git", "--git-dir", remote, "for-each-ref"]).isEmpty)
    }

    @Test func refusedKeyEndsAfterBoundedAttempts() throws {
        let directory = TemporaryDirectory()
        let server = try TestSSHServer(in: directory)
        defer { server.stop() }
        let remote = try makeBareRemote(in: directory)
        let knownHosts = directory.path + "/known_hosts"
        try server.knownHostsLine.write(toFile: knownHosts, atomically: true, encoding: .utf8)
        try run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", directory.path + "/stranger"])
        let credentials = RemoteCredentials(privateKey: directory.path + "/stranger", publicKey: directory.path + "/stranger.pub",
                                            knownHosts: knownHosts)
        let a = try Replica("a", in: directory, remote: server.url(for: remote))
        var factory = NoteFactory(seed: 302)
        a.notebook.put(factory.note("never sent"))
        #expect {
            try a.sync(SyncOptions(credentials: credentials))
        } throws: { error in
            guard case SyncError.authenticationFailed = error else { return false }
            return true
        }
    }

    @Test func hashedKnownHostsEntriesMatch() {
        // A line as `ssh-keygen -H` writes it for "[127.0.0.1]:2222" (salt and HMAC-SHA1).
        let salt: [UInt8] = Array(0..<20)
        let hash = SHA1.hmac(key: salt, message: Array("[127.0.0.1]:2222".utf8))
        let pattern = "|1|" + Base64.encode(salt) + "|" + Base64.encode(hash)
        #expect(KnownHosts.matches(pattern, "[127.0.0.1]:2222"))
        #expect(!KnownHosts.matches(pattern, "[127.0.0.1]:2223"))
        // SHA-1 of "abc", from FIPS 180-2.
        #expect(Base64.encode(SHA1.hash(Array("abc".utf8))) == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
    }
}
