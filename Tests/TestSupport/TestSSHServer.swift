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
            LogLevel INFO
            """
        try config.write(toFile: self.directory + "/sshd_config", atomically: true, encoding: .utf8)
        let arguments = [sshd, "-D", "-e", "-f", self.directory + "/sshd_config"]
        // Its log (stderr, -e) comes through a pipe, copied to sshd.log as it comes: the line
        // "Server listening on 127.0.0.1 port …" says it is ready, an end of the pipe before it
        // that it died. Close-on-exec, so that other tests' children do not keep the pipe open
        // (Glibc's module has no pipe2: the flag follows at once).
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else { throw CommandError(command: "pipe", status: errno, stderr: String(cString: strerror(errno))) }
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let rc = posix_spawn(&pid, sshd, &actions, nil, &argv, environ)
        close(pipe[1])
        guard rc == 0 else {
            close(pipe[0])
            throw CommandError(command: sshd, status: rc, stderr: "posix_spawn failed")
        }
        let log = SSHDLog(reading: pipe[0], into: self.directory + "/sshd.log", readyLine: "Server listening on 127.0.0.1 port \(port).")
        guard log.waitUntilReady() else {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            pid = 0
            throw CommandError(command: "sshd", status: status, stderr: "sshd exited: \(log.text)")
        }
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
}

/// sshd's log as it writes it: copied to a file, and watched for the line that says it listens.
final class SSHDLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines = ""
    private var ready = false
    private let decided = DispatchSemaphore(value: 0)

    init(reading descriptor: Int32, into path: String, readyLine: String) {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var told = false
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                if file >= 0 { _ = buffer.withUnsafeBytes { write(file, $0.baseAddress, count) } }
                let isReady = lock.withLock {
                    lines += String(decoding: buffer[..<count], as: UTF8.self)
                    ready = ready || lines.contains(readyLine)
                    return ready
                }
                if isReady && !told {
                    told = true
                    decided.signal()
                }
            }
            // The end of the pipe: sshd exited (before it was ready, or when it was stopped).
            if !told { decided.signal() }
            close(descriptor)
            if file >= 0 { close(file) }
        }
    }

    /// Blocks until sshd says it listens (true) or exits first (false).
    func waitUntilReady() -> Bool {
        decided.wait()
        return lock.withLock { ready }
    }

    var text: String { lock.withLock { lines } }
}
