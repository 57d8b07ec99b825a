// Tools a session's model may call, in FoundationModels' shape: a name, a description, typed
// arguments the model generates (guided by their schema), and output fed back to the model.

/// A Swift function the model can call. The session shows the model every tool's name,
/// description and parameters; at each step of a request the model either calls one tool or
/// answers, and the choice is guided: a call always names a real tool and has arguments that
/// match its `parameters`, so `call(arguments:)` receives a value built from valid content.
public protocol Tool<Arguments, Output>: Sendable {
    associatedtype Arguments: ConvertibleFromGeneratedContent
    associatedtype Output: PromptRepresentable

    /// What the model writes to call it: letters, digits and underscores.
    var name: String { get }
    /// What it does and when to call it, in a sentence or two: the model reads it.
    var description: String { get }
    /// The arguments' schema (an object). Read before every step of a request, so a tool may
    /// narrow its arguments to what the conversation has seen so far (the instructions show the
    /// model the schema as it was when the session began).
    var parameters: GenerationSchema { get }
    /// Whether the model may call it at the next step (asked before every step): a tool with
    /// nothing left to do for this request (every note shown already read whole) is left out of
    /// the step's choices, so the model spends no step on it.
    var isOffered: Bool { get }

    /// Runs the tool. What it throws ends the request with `GenerationError.toolCallFailed`,
    /// naming this tool.
    func call(arguments: Arguments) async throws -> Output
}

extension Tool {
    public var isOffered: Bool { true }
}

extension Tool where Arguments: Generable {
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

/// What a tool returns, as the text the model reads.
public protocol PromptRepresentable {
    var promptRepresentation: String { get }
}

extension String: PromptRepresentable {
    public var promptRepresentation: String { self }
}

extension GeneratedContent: PromptRepresentable {
    public var promptRepresentation: String { jsonString }
}

/// A tool's call that threw: which tool, and what it threw.
public struct ToolCallError: Error, CustomStringConvertible, Sendable, Equatable {
    let toolName: String
    let underlyingError: any Error

    init(toolName: String, underlyingError: any Error) {
        self.toolName = toolName
        self.underlyingError = underlyingError
    }

    public var description: String { "the tool \(toolName) failed: \(underlyingError)" }

    public static func == (lhs: ToolCallError, rhs: ToolCallError) -> Bool {
        lhs.toolName == rhs.toolName && String(describing: lhs.underlyingError) == String(describing: rhs.underlyingError)
    }
}

extension Tool {
    /// The call with arguments as generated content: converted to `Arguments`, then run.
    func call(content: GeneratedContent) async throws(GenerationError) -> String {
        let arguments: Arguments
        do {
            arguments = try Arguments(content)
        } catch {
            throw .decodingFailure("the arguments of \(name): \(error.message)")
        }
        do {
            return try await call(arguments: arguments).promptRepresentation
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .toolCallFailed(ToolCallError(toolName: name, underlyingError: error))
        }
    }
}
