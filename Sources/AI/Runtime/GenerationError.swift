// The errors a session's requests throw.

public enum GenerationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The prompt and the response do not fit in the context.
    /// A conversation's transcript too long for the context is this error too: it is never cut.
    case exceededContextWindowSize(tokens: Int, contextSize: Int)
    /// The response hit `maximumResponseTokens` before the schema allowed it to end.
    case exceededMaximumResponseTokens(Int)
    /// llama.cpp failed, or the output could not become the requested type.
    case decodingFailure(String)
    /// A request was made while another one was running on the same session.
    case concurrentRequests
    case modelUnavailable(String)
    case cancelled
    case invalidSchema(String)
    /// A tool the model called threw: its name and what it threw.
    case toolCallFailed(ToolCallError)

    public var description: String {
        switch self {
        case .exceededContextWindowSize(let tokens, let size): "the request needs \(tokens) tokens, more than the context's \(size)"
        case .exceededMaximumResponseTokens(let limit): "the response did not finish within \(limit) tokens"
        case .decodingFailure(let message): "decoding failed: \(message)"
        case .concurrentRequests: "the session is already responding to a request"
        case .modelUnavailable(let reason): "the model is unavailable: \(reason)"
        case .cancelled: "the request was cancelled"
        case .invalidSchema(let message): "invalid schema: \(message)"
        case .toolCallFailed(let error): error.description
        }
    }

    /// Why a model is unavailable, without the prefix `description` puts before it.
    var unavailableReason: String {
        if case .modelUnavailable(let reason) = self { return reason }
        return description
    }
}
