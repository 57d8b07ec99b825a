// A real OpenSSH server for ssh:// remotes, started on 127.0.0.1 with its own host key, user
// key, known_hosts line and authorized_keys.
import Foundation

/// Debian's sshd in the foreground (-D) with its own config (-f), killed by `stop()`.
public final class TestSSHServer {
    public let directory: String
    public let port: Int
    public let userKey: String
    public let hostPublicKey: String
    /// Spawned with posix_spawn, not Foundation's Process: while a long-lived Process child
    /// runs, corelibs Foundation's reaper blocks in waitpid on it and later short commands'
    /// waitUntilExit never return.
    private var pid: pid_t = 0

    public init(in directory: TemporaryDirectory) throws {
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

    public func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    deinit { stop() }

    /// A known_hosts line for this server, in the `[host]:port` form ssh uses for other ports.
    public var knownHostsLine: String { knownHostsLine(through: port) }

    /// The line for this server reached through another port (a proxy in front of it).
    public func knownHostsLine(through port: Int) -> String {
        let fields = hostPublicKey.split(separator: " ")
        return "[127.0.0.1]:\(port) \(fields[0]) \(fields[1])\n"
    }

    /// `through`: the port of a proxy in front of this server, when the client goes through one.
    public func url(for repository: String, through port: Int? = nil) -> String {
        "ssh://\(NSUserName())@127.0.0.1:\(port ?? self.port)\(repository)"
    }

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
