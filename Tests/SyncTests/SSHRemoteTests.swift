// ssh:// remotes against a real OpenSSH server that the test starts on 127.0.0.1 with its own
// host key, user key, known_hosts and authorized_keys.
import Foundation
import Notes
import Testing
@testable import Sync

/// Debian's sshd in the foreground (-D) with its own config (-f), killed by `stop()`.
final class TestSSHServer {
    let directory: String
    let port: Int
    let userKey: String
    let hostPublicKey: String
    /// Spawned with posix_spawn, not Foundation's Process: while a long-lived Process child
    /// runs, corelibs Foundation's reaper blocks in waitpid on it and later short commands'
    /// waitUntilExit never return.
    private var pid: pid_t = 0

    init(in directory: TemporaryDirectory) throws {
        let sshd = "/usr/sbin/sshd"
        guard FileManager.default.isExecutableFile(atPath: sshd) else {
            throw CommandError(command: sshd, status: -1,
                               stderr: "OpenSSH's sshd is not installed: run scripts/setup.sh (it installs openssh-server)")
        }
        self.directory = directory.path + "/sshd"
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
        // sshd's privilege separation needs this directory; Debian creates it only at boot.
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let hostKey = self.directory + "/host_ed25519", userKey = self.directory + "/user_ed25519"
        try run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostKey])
        try run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", userKey])
        self.userKey = userKey
        hostPublicKey = try String(contentsOfFile: hostKey + ".pub", encoding: .utf8)
        try FileManager.default.copyItem(atPath: userKey + ".pub", toPath: self.directory + "/authorized_keys")
        port = try TestSSHServer.freePort()
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(hostKey)
            PidFile \(self.directory)/sshd.pid
            AuthorizedKeysFile \(self.directory)/authorized_keys
            PermitRootLogin yes
            StrictModes no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            UsePAM no
            LogLevel ERROR
            """
        try config.write(toFile: self.directory + "/sshd_config", atomically: true, encoding: .utf8)
        let arguments = [sshd, "-D", "-e", "-f", self.directory + "/sshd_config"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, self.directory + "/sshd.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let rc = posix_spawn(&pid, sshd, &actions, nil, &argv, environ)
        guard rc == 0 else { throw CommandError(command: sshd, status: rc, stderr: "posix_spawn failed") }
        try waitUntilListening()
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    deinit { stop() }

    /// A known_hosts line for this server, in the `[host]:port` form ssh uses for other ports.
    var knownHostsLine: String {
        let fields = hostPublicKey.split(separator: " ")
        return "[127.0.0.1]:\(port) \(fields[0]) \(fields[1])\n"
    }

    func url(for repository: String) -> String { "ssh://\(NSUserName())@127.0.0.1:\(port)\(repository)" }

    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw CommandError(command: "bind", status: errno, stderr: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private func waitUntilListening() throws {
        for _ in 0..<100 {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(socket)
            if connected { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                let log = (try? String(contentsOfFile: directory + "/sshd.log", encoding: .utf8)) ?? ""
                throw CommandError(command: "sshd", status: status, stderr: "sshd exited: \(log)")
            }
            usleep(50_000)
        }
        throw CommandError(command: "sshd", status: -1, stderr: "sshd did not listen on port \(port)")
    }
}

@Suite(.serialized)
struct SSHRemote {
    @Test func syncsOverSSHWithAKeyFileAndAKnownHost() throws {
        let directory = TemporaryDirectory()
        let server = try TestSSHServer(in: directory)
        defer { server.stop() }
        let remote = try makeBareRemote(in: directory)
        let knownHosts = directory.path + "/known_hosts"
        try server.knownHostsLine.write(toFile: knownHosts, atomically: true, encoding: .utf8)
        let credentials = RemoteCredentials(privateKey: server.userKey, publicKey: server.userKey + ".pub", knownHosts: knownHosts)
        let options = SyncOptions(credentials: credentials)

        let a = try Replica("a", in: directory, remote: server.url(for: remote))
        let b = try Replica("b", in: directory, remote: server.url(for: remote))
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
        #expect(try run(["git", "--git-dir", remote, "rev-parse", "main"]).hasPrefix(try a.engine.repository.reference(SyncEngine.branch)!.hex))
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
