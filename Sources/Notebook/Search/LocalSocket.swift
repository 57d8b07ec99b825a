// A Unix-domain stream socket named by a path in the notebook's home: how `notes search` asks
// the running daemon for a query's vector. Only what that needs: listen, accept, connect with
// timeouts, whole reads and writes. Nothing here is reachable from another machine.
import Notes
#if canImport(Glibc)
import Glibc
#endif

struct SocketError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    var description: String { "\(operation) \(path): \(FileSystem.message(errno: code))" }
}

final class LocalSocket: @unchecked Sendable {
    let descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Binds `path` (replacing a socket a killed process left behind: the caller holds the
    /// daemon's lock, so no live one owns it) for the owner only, and listens.
    static func listen(at path: String) throws(SocketError) -> LocalSocket {
        var address = try self.address(path)
        let socket = try make(path)
        if let existing = statMode(path), existing & S_IFMT == S_IFSOCK { unlink(path) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw SocketError("cannot bind", path: path) }
        // The owner's only before anyone can connect: a connection is refused until listen.
        // Not by narrowing the umask around bind: the umask is the whole process's, and every
        // thread's directory made meanwhile would lose its owner's x bit (and every child's).
        guard chmod(path, 0o600) == 0 else { throw SocketError("cannot make private", path: path) }
        guard Glibc.listen(socket.descriptor, 16) == 0 else { throw SocketError("cannot listen on", path: path) }
        return socket
    }

    /// Connects to the socket at `path`; fails at once when nothing listens there.
    static func connect(to path: String, timeoutMilliseconds: Int) throws(SocketError) -> LocalSocket {
        var address = try self.address(path)
        let socket = try make(path)
        socket.setTimeout(milliseconds: timeoutMilliseconds)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw SocketError("cannot connect to", path: path) }
        return socket
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) for a connection; nil on timeout.
    func accept(timeoutMilliseconds: Int32) throws(SocketError) -> LocalSocket? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, timeoutMilliseconds)
        if ready == 0 || (ready < 0 && errno == EINTR) { return nil }
        guard ready > 0 else { throw SocketError("cannot wait on", path: path) }
        let client = Glibc.accept(descriptor, nil, nil)
        guard client >= 0 else {
            // The client gave up between poll and accept: not the listener's failure.
            if [EAGAIN, ECONNABORTED, EINTR, EPROTO].contains(errno) { return nil }
            throw SocketError("cannot accept on", path: path)
        }
        // Not inherited by a process the daemon starts (ssh for a sync).
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return LocalSocket(descriptor: client, path: path)
    }

    /// Reads and writes give up after this long: a stuck peer never hangs the other side.
    func setTimeout(milliseconds: Int) {
        var time = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    func write(_ bytes: [UInt8]) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a peer that went away is an error here, not SIGPIPE for the process.
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw SocketError("cannot write to", path: path) }
            offset += sent
        }
    }

    /// Exactly `count` bytes.
    func read(count: Int) throws(SocketError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let received = bytes[offset...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received < 0, errno == EINTR { continue }
            guard received > 0 else { throw SocketError(received == 0 ? "connection closed by" : "cannot read from", path: path, code: received == 0 ? ECONNRESET : errno) }
            offset += received
        }
        return bytes
    }

    /// One line without its newline, at most `limit` bytes.
    func readLine(limit: Int = 4096) throws(SocketError) -> String {
        var line: [UInt8] = []
        while true {
            let byte = try read(count: 1)[0]
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
            guard line.count <= limit else { throw SocketError("line too long from", path: path, code: EMSGSIZE) }
        }
    }

    private static func make(_ path: String) throws(SocketError) -> LocalSocket {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("cannot make a socket for", path: path) }
        return LocalSocket(descriptor: descriptor, path: path)
    }

    private static func address(_ path: String) throws(SocketError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        // sun_path holds 108 bytes with its terminating zero: a deeper home has no socket.
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw SocketError("path too long for a socket:", path: path, code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    private static func statMode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }
}
