// A TCP proxy on 127.0.0.1 in front of a local server (the test sshd) that drops the connection
// after a chosen number of bytes in one direction: a network that fails mid-transfer, on loopback.
import Foundation

/// Relays every connection to `127.0.0.1:targetPort`, one thread per connection (poll on both
/// sockets). An armed `Cut` counts the bytes that pass in its direction, over all connections,
/// and once `afterBytes` have passed closes both sockets of the connection it happened in; it
/// then disarms, so the sync after it goes through. Stopped by `stop()` or on deinit.
public final class CuttingProxy: @unchecked Sendable {
    public enum Direction: Sendable { case toServer, toClient }

    public struct Cut: Sendable, CustomStringConvertible {
        public var direction: Direction
        public var afterBytes: Int
        /// Close with a TCP reset (SO_LINGER 0) rather than an orderly end of stream.
        public var reset: Bool

        public init(_ direction: Direction, afterBytes: Int, reset: Bool) {
            self.direction = direction
            self.afterBytes = afterBytes
            self.reset = reset
        }

        public var description: String { "\(reset ? "reset" : "EOF") after \(afterBytes) bytes \(direction == .toServer ? "to" : "from") the server" }
    }

    public let port: Int
    private let targetPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var cut: Cut?
    private var passed = 0
    private var relayed: [Direction: Int] = [:]
    private var fired = false
    private var stopped = false
    /// The accept loop's and every relay's thread, entered as each starts: `stop()` joins them.
    private let threads = DispatchGroup()

    public init(to targetPort: Int) throws {
        self.targetPort = targetPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listening else {
            close(listener)
            throw CommandError(command: "proxy", status: errno, stderr: "cannot listen on 127.0.0.1")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        started()
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Drops the connection at `cut` from now on (nil: relays everything).
    public func arm(_ cut: Cut?) {
        lock.withLock {
            self.cut = cut
            passed = 0
            relayed = [:]
            fired = false
        }
    }

    /// The bytes relayed `direction` since the last `arm`: how long a sync's transfer is.
    public func relayed(_ direction: Direction) -> Int { lock.withLock { relayed[direction, default: 0] } }

    /// Whether the armed cut happened (false: the transfer was shorter than its byte count).
    public var didCut: Bool { lock.withLock { fired } }

    /// Ends the accept loop and every relay, and waits for their threads.
    public func stop() {
        lock.withLock { stopped = true }
        threads.wait()
    }

    deinit {
        stop()
        close(listener)
    }

    private func started() { threads.enter() }
    private func ended() { threads.leave() }
    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { ended() }
        while !isStopped {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: targetPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(server)
                close(client)
                continue
            }
            started()
            Thread.detachNewThread { [self] in relay(client: client, server: server) }
        }
    }

    private func relay(client: Int32, server: Int32) {
        defer { ended() }
        var reset = false
        defer {
            if reset {
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                for socket in [client, server] { setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) }
            }
            close(client)
            close(server)
        }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var sockets = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        while !isStopped {
            guard poll(&sockets, 2, 20) > 0 else { continue }
            for (index, direction) in [(0, Direction.toServer), (1, Direction.toClient)] where sockets[index].revents != 0 {
                let from = sockets[index].fd, to = sockets[1 - index].fd
                let count = read(from, &buffer, buffer.count)
                guard count > 0 else { return }
                let (allowed, cutNow) = allowance(count, direction)
                if allowed > 0, !writeAll(to, buffer, allowed) { return }
                if let cutNow {
                    reset = cutNow.reset
                    return
                }
            }
        }
    }

    /// How many of `count` bytes going `direction` may pass, and the cut if it falls in them.
    private func allowance(_ count: Int, _ direction: Direction) -> (Int, Cut?) {
        lock.withLock {
            guard let cut, !fired, cut.direction == direction else {
                relayed[direction, default: 0] += count
                return (count, nil)
            }
            let left = cut.afterBytes - passed
            guard left <= count else {
                passed += count
                relayed[direction, default: 0] += count
                return (count, nil)
            }
            fired = true
            relayed[direction, default: 0] += max(0, left)
            return (max(0, left), cut)
        }
    }

    private func writeAll(_ socket: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var sent = 0
        while sent < count {
            let written = buffer.withUnsafeBytes { send(socket, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
