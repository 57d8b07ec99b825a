// The page's HTTP server: libmicrohttpd (through CMicroHTTPD, opened on first use) on the
// loopback addresses only, one request at a time, each answered by a Swift function.
import CMicroHTTPD
import Foundation

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

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

public struct HTTPServerError: Error, CustomStringConvertible {
    public let description: String
}

/// Listening on 127.0.0.1 and ::1 (when the machine has it) on one port, until `stop()`.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// What the C callback is given: the handler, kept alive as long as the server.
    private final class Box {
        let handler: Handler
        init(_ handler: @escaping Handler) { self.handler = handler }
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
            let handler = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().handler
            let response = handler(HTTPServer.request(request.pointee))
            HTTPServer.send(response, respond: respond, responder: responder)
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

    private static func send(_ response: HTTPResponse, respond: @convention(c) (UnsafeMutableRawPointer, UnsafePointer<notes_http_response>) -> Void,
                             responder: UnsafeMutableRawPointer) {
        // C strings that live until `respond` has copied them.
        let names = response.headers.map { strdup($0.name)! }, values = response.headers.map { strdup($0.value)! }
        defer { for pointer in names + values { free(pointer) } }
        let headers = zip(names, values).map { notes_http_pair(key: UnsafePointer($0), value: UnsafePointer($1)) }
        headers.withUnsafeBufferPointer { list in
            response.body.withUnsafeBytes { body in
                var raw = notes_http_response(status: UInt32(response.status), headers: list.baseAddress, header_count: list.count,
                                              body: body.baseAddress, body_size: body.count)
                respond(responder, &raw)
            }
        }
    }
}
