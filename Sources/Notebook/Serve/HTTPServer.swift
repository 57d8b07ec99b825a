// The page's HTTP server: libmicrohttpd (through CMicroHTTPD, opened on first use) on the
// loopback addresses only, a thread per connection, each request answered by a Swift function
// with a whole body or a stream of one (an answer as the model writes it).
import CMicroHTTPD
import Foundation
import Synchronization

/// A whole request as the server received it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path, without the query (decoded by libmicrohttpd).
    public var path: String
    /// Header names in lower case.
    public var headers: [String: String]
    /// The query's arguments, decoded.
    public var arguments: [String: String]
    public var body: [UInt8]
    /// More than the server's limit was sent; `body` is empty then.
    public var bodyTooLarge: Bool

    public init(method: String, path: String, headers: [String: String] = [:], arguments: [String: String] = [:],
                body: [UInt8] = [], bodyTooLarge: Bool = false) {
        self.method = method
        self.path = path
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.arguments = arguments
        self.body = body
        self.bodyTooLarge = bodyTooLarge
    }

    /// A form's fields (application/x-www-form-urlencoded), decoded; invalid UTF-8 is repaired.
    public var form: [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            fields[decoded(parts[0])] = parts.count > 1 ? decoded(parts[1]) : ""
        }
        return fields
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The body as it is made, sent chunked (`body` is then not sent); nil: `body` is all.
    public var stream: HTTPBodyStream?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], stream: HTTPBodyStream? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A response body written while it is sent: `write` the pieces as they come, then `finish`.
/// The connection's thread waits in `read` for them. When the client goes away or the server
/// stops, the stream is closed: what is written is dropped, and `onClose` tells the writer to stop.
public final class HTTPBodyStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var finished = false
    private var closed = false
    private var closing: [@Sendable () -> Void] = []

    public init() {}

    /// Runs `action` once the stream is closed (at once if it is): what writes it can stop.
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        condition.lock()
        if !closed { closing.append(action) }
        let now = closed
        condition.unlock()
        if now { action() }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    public func write(_ bytes: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        guard !finished, !closed, !bytes.isEmpty else { return }
        pending += bytes
        condition.broadcast()
    }

    /// The body is complete once what was written has been read.
    public func finish() {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
    }

    /// Nobody reads any more: `read` gives nil, writes are dropped.
    public func close() {
        condition.lock()
        let actions = closed ? [] : closing
        closed = true
        closing = []
        pending = []
        condition.broadcast()
        condition.unlock()
        for action in actions { action() }
    }

    /// The next bytes written, at most `maximum`, waiting for some; nil once the body is
    /// complete or the stream closed.
    public func read(maximum: Int) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty, !finished, !closed { condition.wait() }
        guard !pending.isEmpty else { return nil }
        let piece = Array(pending.prefix(maximum))
        pending.removeFirst(piece.count)
        return piece
    }

    /// Everything until the end (what a test reads).
    public func readToEnd() -> [UInt8] {
        var body: [UInt8] = []
        while let piece = read(maximum: 65_536) { body += piece }
        return body
    }
}

public struct HTTPServerError: Error, CustomStringConvertible {
    public let description: String
}

/// Listening on 127.0.0.1 and ::1 (when the machine has it) on one port, until `stop()`.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// What the C callback is given: the handler, kept alive as long as the server, and the
    /// streams being sent (closed when the server stops, so that no connection waits on one).
    private final class Box: @unchecked Sendable {
        let handler: Handler
        let streams = Mutex<[ObjectIdentifier: HTTPBodyStream]>([:])
        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    /// What a streamed response's C callbacks are given.
    private final class Sending {
        let stream: HTTPBodyStream
        let box: Box
        init(_ stream: HTTPBodyStream, _ box: Box) {
            self.stream = stream
            self.box = box
        }
    }

    private var servers: [OpaquePointer]
    private let box: Unmanaged<Box>
    public let port: Int

    /// Starts serving on `port` (0: a free one). `maximumBody` bytes at most are read of a request's body.
    public init(port: Int, maximumBody: Int, handler: @escaping Handler) throws {
        var error = [CChar](repeating: 0, count: 512)
        func message() -> String { String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        guard notes_http_open(&error, error.count) == 0 else {
            throw HTTPServerError(description: "cannot load libmicrohttpd (install libmicrohttpd12): " + message())
        }
        guard (0...65_535).contains(port) else { throw HTTPServerError(description: "port \(port) is not between 0 and 65535") }
        let box = Unmanaged.passRetained(Box(handler))
        let callback: notes_http_handler = { context, request, respond, responder in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            let response = box.handler(HTTPServer.request(request.pointee))
            HTTPServer.send(response, box: box, respond: respond, responder: responder)
        }
        guard let v4 = notes_http_start(0, UInt16(port), maximumBody, callback, box.toOpaque(), &error, error.count) else {
            box.release()
            throw HTTPServerError(description: message())
        }
        let chosen = notes_http_port(v4)
        servers = [v4]
        // The same port on ::1 when the machine has IPv6; without it, 127.0.0.1 alone.
        if let v6 = notes_http_start(1, chosen, maximumBody, callback, box.toOpaque(), &error, error.count) { servers.append(v6) }
        self.port = Int(chosen)
        self.box = box
    }

    /// Stops listening; a request being answered is finished first.
    public func stop() {
        if !servers.isEmpty {
            for stream in box.takeUnretainedValue().streams.withLock({ Array($0.values) }) { stream.close() }
        }
        for server in servers { notes_http_stop(server) }
        if !servers.isEmpty { box.release() }
        servers = []
    }

    deinit { stop() }

    private static func string(_ pointer: UnsafePointer<CChar>) -> String { String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self) }

    private static func pairs(_ start: UnsafePointer<notes_http_pair>?, _ count: Int) -> [(String, String)] {
        guard let start else { return [] }
        return (0..<count).map { (string(start[$0].key), string(start[$0].value)) }
    }

    private static func request(_ raw: notes_http_request) -> HTTPRequest {
        let body = raw.body.map { Array(UnsafeRawBufferPointer(start: $0, count: raw.body_size)) } ?? []
        return HTTPRequest(method: string(raw.method), path: string(raw.path),
                           headers: Dictionary(pairs(raw.headers, raw.header_count), uniquingKeysWith: { first, _ in first }),
                           arguments: Dictionary(pairs(raw.arguments, raw.argument_count), uniquingKeysWith: { first, _ in first }),
                           body: raw.body_too_large != 0 ? [] : body, bodyTooLarge: raw.body_too_large != 0)
    }

    private static func send(_ response: HTTPResponse, box: Box, respond: @convention(c) (UnsafeMutableRawPointer, UnsafePointer<notes_http_response>) -> Void,
                             responder: UnsafeMutableRawPointer) {
        // C strings that live until `respond` has copied them.
        let names = response.headers.map { strdup($0.name)! }, values = response.headers.map { strdup($0.value)! }
        defer { for pointer in names + values { free(pointer) } }
        let headers = zip(names, values).map { notes_http_pair(key: UnsafePointer($0), value: UnsafePointer($1)) }
        headers.withUnsafeBufferPointer { list in
            response.body.withUnsafeBytes { body in
                var raw = notes_http_response(status: UInt32(response.status), headers: list.baseAddress, header_count: list.count,
                                              body: body.baseAddress, body_size: body.count, reader: nil, stream: nil, release: nil)
                if let stream = response.stream {
                    box.streams.withLock { $0[ObjectIdentifier(stream)] = stream }
                    raw.stream = Unmanaged.passRetained(Sending(stream, box)).toOpaque()
                    raw.reader = { context, _, buffer, size in
                        let sending = Unmanaged<Sending>.fromOpaque(context!).takeUnretainedValue()
                        guard let piece = sending.stream.read(maximum: size) else { return NOTES_HTTP_END }
                        piece.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: piece.count) }
                        return piece.count
                    }
                    raw.release = { context in
                        let sending = Unmanaged<Sending>.fromOpaque(context!).takeRetainedValue()
                        sending.stream.close()
                        _ = sending.box.streams.withLock { $0.removeValue(forKey: ObjectIdentifier(sending.stream)) }
                    }
                }
                respond(responder, &raw)
            }
        }
    }
}
