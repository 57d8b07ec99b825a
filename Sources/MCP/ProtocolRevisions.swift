// The MCP revisions this server speaks, and how a request says which one it speaks: the ones
// the official Python SDK (mcp 2.3.0) negotiates, through the `initialize` handshake or per
// request (the stateless 2026-07-28 revision, which opens with `server/discover`).
import Notes

public enum ProtocolRevisions {
    /// Reached by `initialize`, oldest first.
    public static let handshake = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    /// Stateless: each request carries its revision, client info and capabilities in `_meta`.
    public static let stateless = ["2026-07-28"]

    public static let protocolVersionKey = "io.modelcontextprotocol/protocolVersion"
    public static let clientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    public static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
    public static let subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

    /// Whether a request carries the stateless revision's envelope (legacy requests never
    /// carry this key: its prefix is reserved).
    public static func hasStatelessEnvelope(_ params: JSON?) -> Bool {
        params?["_meta"]?[protocolVersionKey] != nil
    }

    /// The revision a stateless request names, or the error to answer it with.
    public static func statelessRevision(of params: JSON?) throws(RPCError) -> String {
        guard let meta = params?["_meta"], meta.object != nil else {
            throw RPCError(RPCError.invalidParams, "params._meta must be an object carrying '\(protocolVersionKey)' and '\(clientCapabilitiesKey)'")
        }
        let missing = [protocolVersionKey, clientCapabilitiesKey].filter { meta[$0] == nil }
        guard missing.isEmpty else { throw RPCError(RPCError.invalidParams, "params._meta is missing \(missing.joined(separator: ", "))") }
        guard let revision = meta[protocolVersionKey]?.string else {
            throw RPCError(RPCError.invalidParams, "'\(protocolVersionKey)' must be a string")
        }
        guard stateless.contains(revision) else { throw unsupported(revision) }
        return revision
    }

    public static func unsupported(_ requested: String?) -> RPCError {
        RPCError(RPCError.unsupportedProtocolVersion, "Unsupported protocol version" + (requested.map { " '\($0)'" } ?? ""),
                 data: .object([("supported", .array(stateless.map(JSON.string)))] + (requested.map { [("requested", JSON.string($0))] } ?? [])))
    }
}
