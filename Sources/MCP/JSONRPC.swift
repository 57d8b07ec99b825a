// JSON-RPC 2.0 as MCP uses it over standard input and output: one message a line, requests,
// notifications and responses told apart, and errors with the standard codes.
import Notes

/// A request's id: a number or a string, echoed in its response.
public enum RequestID: Hashable, Sendable {
    case int(Int)
    case string(String)

    public var json: JSON {
        switch self {
        case let .int(value): .int(value)
        case let .string(value): .string(value)
        }
    }

    public init?(_ json: JSON) {
        switch json {
        case let .string(value): self = .string(value)
        case let .int(value): self = .int(value)
        default: return nil
        }
    }
}

/// A JSON-RPC error response's `error`: a code, a message a person can read, and data.
public struct RPCError: Error, Equatable, Sendable {
    public var code: Int
    public var message: String
    public var data: JSON?

    public init(_ code: Int, _ message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    /// The request's protocol version is one this server does not speak (MCP 2026-07-28).
    public static let unsupportedProtocolVersion = -32022

    public var json: JSON {
        .object([("code", .int(code)), ("message", .string(message))] + (data.map { [("data", $0)] } ?? []))
    }
}

/// One line from the client, read as JSON-RPC.
public enum IncomingMessage: Equatable {
    case request(id: RequestID, method: String, params: JSON?)
    case notification(method: String, params: JSON?)
    /// A response to a request of ours: we send none, so it is ignored.
    case response

    /// The message in `json`, or the error to answer with (and the id to answer to, when
    /// one can be read).
    public static func read(_ json: JSON) -> Result<IncomingMessage, RejectedMessage> {
        guard case .object = json else {
            let what = json.array != nil ? "a batch (an array); MCP sends one message a line" : "not a JSON-RPC message (not an object)"
            return .failure(RejectedMessage(id: nil, error: RPCError(RPCError.invalidRequest, "Invalid request: \(what)")))
        }
        let id = json["id"].flatMap(RequestID.init)
        func reject(_ message: String) -> Result<IncomingMessage, RejectedMessage> {
            .failure(RejectedMessage(id: id, error: RPCError(RPCError.invalidRequest, "Invalid request: " + message)))
        }
        guard json["jsonrpc"] == .string("2.0") else { return reject("\"jsonrpc\" must be \"2.0\"") }
        let params = json["params"]
        if let params, params.object == nil, params.array == nil { return reject("\"params\" must be an object") }
        guard let method = json["method"] else {
            return json["result"] != nil || json["error"] != nil ? .success(.response) : reject("no \"method\"")
        }
        guard let name = method.string else { return reject("\"method\" must be a string") }
        guard let raw = json["id"] else { return .success(.notification(method: name, params: params)) }
        guard let id = RequestID(raw) else { return reject("\"id\" must be a string or a whole number") }
        return .success(.request(id: id, method: name, params: params))
    }
}

/// A line that cannot be served, and what to answer.
public struct RejectedMessage: Error, Equatable {
    public var id: RequestID?
    public var error: RPCError
}

public enum Outgoing {
    public static func result(_ result: JSON, id: RequestID) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("id", id.json), ("result", result)])
    }

    public static func error(_ error: RPCError, id: RequestID?) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("id", id?.json ?? .null), ("error", error.json)])
    }

    public static func notification(_ method: String, params: JSON? = nil) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("method", .string(method))] + (params.map { [("params", $0)] } ?? []))
    }
}
