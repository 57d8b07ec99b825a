// A conversation's requests: the whole transcript is the prompt, and at each step the model
// either calls one of the session's tools or answers, guided by the union of every tool's call
// and the answer, so a call always names a real tool with valid arguments.

/// What a conversation runs on: llama.cpp's context in the product, a fake token model in tests.
protocol SessionBackend: TokenModel {
    var contextSize: Int { get }
    /// Makes the cache hold exactly `tokens`; the logits after the last one.
    func evaluate(_ tokens: [Int32]) throws(GenerationError) -> (logits: UnsafeBufferPointer<Float>, reused: Int)
    /// The conversation as tokens, ending where the assistant's next message begins; every
    /// message's content is tokenized as plain text (a note holding "<|im_end|>" stays text).
    func conversationTokens(_ messages: [ChatMessage]) throws(GenerationError) -> [Int32]
}

extension LlamaContext: SessionBackend {
    func conversationTokens(_ messages: [ChatMessage]) throws(GenerationError) -> [Int32] {
        try LanguageModelSession.conversationTokens(messages, model: model).tokens
    }
}

/// What the model may do at the next step of a request with tools.
public enum NextStep: Sendable {
    /// Answer with this schema, or first call a tool while calls are left.
    case answer(GenerationSchema)
    /// Call a tool, one of these when named (as "tool choice: required" elsewhere); it cannot
    /// answer yet.
    case callTool(only: [String]? = nil)
}

extension LanguageModelSession {
    /// A step's answer when the request gives no schema but the model has tools: the text is
    /// the "answer" property.
    static let textAnswer = GenerationSchema.object("Answer", properties: [.init("answer", .string())])

    /// A guided answer where what the model may do is decided again before every step, from the
    /// transcript so far: the answer's schema can then be held to what the tools returned in this
    /// request (its sources among the notes they found, say), and a step can require a call.
    func respond(to prompt: String, options: GenerationOptions = GenerationOptions(),
                        next: @escaping @Sendable (Transcript) -> NextStep) async throws(GenerationError) -> Response<GeneratedContent> {
        guard isConversation else {
            guard case .answer(let fixed) = next(transcript) else { throw .invalidSchema("a request without tools cannot call one") }
            return try await respond(to: prompt, schema: fixed, options: options)
        }
        let turn = try await converse(prompt: prompt, next: next, options: options, onPartial: nil)
        return Response(content: turn.content ?? GeneratedContent(kind: .string(turn.text)), rawContent: turn.raw, statistics: turn.statistics)
    }

    /// Streams the answer of a conversation's request (tool calls run first, unstreamed); the
    /// last snapshot is complete.
    public nonisolated func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions(),
                                           next: @escaping @Sendable (Transcript) -> NextStep) -> AsyncThrowingStream<ResponseSnapshot, Error> {
        streamConversation(to: prompt, options: options, next: next)
    }

    nonisolated func streamConversation(to prompt: String, options: GenerationOptions,
                                        next: (@Sendable (Transcript) -> NextStep)?) -> AsyncThrowingStream<ResponseSnapshot, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let turn = try await self.converse(prompt: prompt, next: next, options: options) { continuation.yield($0) }
                    continuation.yield(ResponseSnapshot(rawContent: turn.raw, content: turn.content, isComplete: true))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    struct Turn {
        /// The response as generated (JSON for a guided one).
        var raw: String
        /// The answer's text: the whole response unguided, the "answer" property with tools.
        var text: String
        /// The guided answer, or nil for text.
        var content: GeneratedContent?
        /// Summed over the request's steps.
        var statistics: GenerationStatistics
    }

    /// One request of a conversation; `next` nil for a text answer. A failure (a tool's error,
    /// a transcript too long for the context, cancellation) leaves the transcript as it was
    /// before the request.
    func converse(prompt: String, next: (@Sendable (Transcript) -> NextStep)?, options: GenerationOptions,
                  onPartial: (@Sendable (ResponseSnapshot) -> Void)?) async throws(GenerationError) -> Turn {
        guard !isResponding else { throw .concurrentRequests }
        isResponding = true
        defer { isResponding = false }
        let backend: any SessionBackend = if let backend { backend } else { try makeContext() }
        let before = transcript.count
        transcript.append(.prompt(Transcript.Prompt(text: prompt)))
        do throws(GenerationError) {
            var total = GenerationStatistics.zero
            var calls = 0
            while true {
                var offered = calls < maximumToolCalls ? tools.filter(\.isOffered) : []
                let answerSchema: GenerationSchema??
                switch next?(transcript) {
                case nil:
                    answerSchema = nil
                case .answer(let schema):
                    answerSchema = .some(schema)
                case .callTool(let only):
                    if let only { offered = offered.filter { only.contains($0.name) } }
                    guard !offered.isEmpty else { throw .invalidSchema("a step must call a tool, and none can be called") }
                    answerSchema = .some(nil)
                }
                let step = Self.stepSchema(tools: offered, answer: answerSchema)
                let compiled: CompiledSchema?
                do throws(SchemaError) {
                    compiled = try step.map { schema throws(SchemaError) in try CompiledSchema(schema) }
                } catch {
                    throw .invalidSchema(error.message)
                }
                let tokens = try backend.conversationTokens(transcript.messages)
                let forward = onPartial.map { Self.answerFilter(step: step, toolsOffered: !offered.isEmpty, answerGiven: next != nil, yield: $0) }
                let (bytes, statistics) = try await generate(tokens: tokens, on: backend, schema: compiled, options: options, onPartial: forward)
                total.add(statistics)
                guard let step else {
                    let text = String(decoding: bytes, as: UTF8.self)
                    transcript.append(.response(Transcript.Response(text: text)))
                    return Turn(raw: text, text: text, content: nil, statistics: total)
                }
                let response = try Self.content(bytes, schema: step, statistics: nil)
                if let (tool, arguments) = Self.toolCall(in: response.content, offered: offered) {
                    transcript.append(.toolCall(Transcript.ToolCall(toolName: tool.name, arguments: arguments)))
                    let output = try await tool.call(content: arguments)
                    transcript.append(.toolOutput(Transcript.ToolOutput(toolName: tool.name, text: output)))
                    calls += 1
                    continue
                }
                transcript.append(.response(Transcript.Response(text: response.rawContent)))
                if next == nil {
                    let text = (try? response.content.value(String.self, forProperty: "answer")) ?? response.rawContent
                    return Turn(raw: response.rawContent, text: text, content: nil, statistics: total)
                }
                return Turn(raw: response.rawContent, text: response.rawContent, content: response.content, statistics: total)
            }
        } catch {
            transcript.removeLast(transcript.count - before)
            throw error
        }
    }

    /// What one step may generate, given the answer's schema (nil: a text answer; `.some(nil)`:
    /// no answer yet). Without tools: free text, or the answer's schema alone. Otherwise the
    /// union of `{"name": TOOL, "arguments": {...}}` for each tool and the answer (an object
    /// that begins unlike a call), or of the calls alone.
    static func stepSchema(tools: [any Tool], answer: GenerationSchema??) -> GenerationSchema? {
        guard !tools.isEmpty else { return answer ?? nil }
        let calls = tools.map(callSchema)
        switch answer {
        case .none: return .anyOf(calls + [textAnswer])
        case .some(.none): return .anyOf(calls)
        case .some(.some(let schema)): return .anyOf(calls + [schema])
        }
    }

    static func callSchema(_ tool: any Tool) -> GenerationSchema {
        .object(tool.name, description: tool.description, properties: [
            .init("name", .string(anyOf: [tool.name])),
            .init("arguments", tool.parameters),
        ])
    }

    static func toolCall(in content: GeneratedContent, offered: [any Tool]) -> (any Tool, GeneratedContent)? {
        guard case .structure(let properties, let keys) = content.kind, keys.first == "name",
              case .string(let name)? = properties["name"]?.kind, let tool = offered.first(where: { $0.name == name }),
              let arguments = properties["arguments"] else { return nil }
        return (tool, arguments)
    }

    /// Passes on the snapshots of an answer, not of a tool call: with tools, a step is the
    /// answer once its text begins as the answer's alternative does.
    static func answerFilter(step: GenerationSchema?, toolsOffered: Bool, answerGiven: Bool,
                             yield: @escaping @Sendable (ResponseSnapshot) -> Void) -> @Sendable ([UInt8]) -> Void {
        // With tools, the answer is the union's last alternative, unless the step allows calls only.
        var answerOpening: [UInt8] = []
        if toolsOffered, case .anyOf(let union)? = step, let last = union.alternatives.last {
            answerOpening = Array((last.unionOpening?.text ?? "").utf8)
            if answerOpening.starts(with: Array("{\"name\": ".utf8)) { return { _ in } }
        }
        let opening = answerOpening
        return { bytes in
            guard bytes.count >= opening.count, bytes.starts(with: opening) else { return }
            var snapshot = snapshot(bytes, guided: step != nil)
            if toolsOffered, !answerGiven {
                // A text answer with tools: pass on the text so far, not its JSON wrapper.
                snapshot = ResponseSnapshot(rawContent: (try? snapshot.content?.value(String.self, forProperty: "answer")) ?? "",
                                            content: nil, isComplete: false)
            }
            yield(snapshot)
        }
    }

    /// The conversation's tokens, where its last message's content ends, and the text before
    /// that content (for the prefix cache's key).
    static func conversationTokens(_ messages: [ChatMessage], model: LoadedModel) throws(GenerationError)
        -> (tokens: [Int32], lastContentEnd: Int, textBeforeLastContent: String) {
        guard let pieces = PromptFormat.conversation(model: model, messages: messages) else {
            throw .decodingFailure("the chat template dropped a message")
        }
        var tokens: [Int32] = []
        var lastContentEnd = 0
        var textBefore = ""
        var text = ""
        for (index, piece) in pieces.enumerated() {
            guard let part = model.tokenize(Array(piece.text.utf8), addBeginning: index == 0 && model.addsBeginningOfSequence,
                                            special: !piece.isContent) else {
                throw .decodingFailure("the prompt could not be tokenized")
            }
            if piece.isContent { textBefore = text }
            tokens += part
            text += piece.text
            if piece.isContent { lastContentEnd = tokens.count }
        }
        return (tokens, lastContentEnd, textBefore)
    }
}

extension GenerationStatistics {
    static let zero = GenerationStatistics(promptTokens: 0, reusedPromptTokens: 0, responseTokens: 0, sampledTokens: 0,
                                           fastForwardedTokens: 0, maskedSteps: 0, promptDuration: .zero, generationDuration: .zero)

    mutating func add(_ other: GenerationStatistics) {
        promptTokens += other.promptTokens
        reusedPromptTokens += other.reusedPromptTokens
        responseTokens += other.responseTokens
        sampledTokens += other.sampledTokens
        fastForwardedTokens += other.fastForwardedTokens
        maskedSteps += other.maskedSteps
        promptDuration += other.promptDuration
        generationDuration += other.generationDuration
    }
}
