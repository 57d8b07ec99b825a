// A conversation with a local model, shaped like FoundationModels' LanguageModelSession.

import Glibc

/// Owns one llama.cpp context; one request at a time, reusing whatever prompt prefix is already
/// in the context's cache (see `prewarm`). Two kinds, by initializer:
///
/// - a conversation (`init(model:tools:instructions:)`, as in FoundationModels): the transcript
///   keeps every prompt, tool call, tool output and response, and each request sees all of it;
///   the model may call the session's tools before it answers (`LanguageModelSession+Tools`);
/// - independent requests (`init(model:instructions:promptStyle:)`): each is answered from the
///   instructions and its prompt alone, for one note after another behind one prewarmed
///   prefix; the transcript holds the instructions and the last request.
public actor LanguageModelSession {
    nonisolated let model: LanguageModel
    nonisolated let instructions: String?
    nonisolated let promptStyle: PromptStyle
    /// Tokens this session's context holds; the model configuration's size unless given.
    nonisolated let contextSize: Int
    /// What the model may call before it answers (conversations only).
    nonisolated let tools: [any Tool]
    /// True when each request sees the transcript of the ones before.
    nonisolated let isConversation: Bool
    /// Tool calls allowed in one request; once they are made, the model must answer.
    nonisolated let maximumToolCalls: Int
    /// How many prompts `respond(toEach:)` decodes in one batch (sequences in the context).
    nonisolated let batchSize: Int
    /// See `init(model:instructions:promptStyle:contextSize:batchSize:reusingOnlyPrewarmedPrefix:)`.
    nonisolated let reusesOnlyPrewarmedPrefix: Bool
    var context: LlamaContext?
    /// Set by the tests: the token model a conversation runs on instead of llama.cpp.
    let backend: (any SessionBackend)?
    var isResponding = false
    /// Whether a response of this session has begun decoding (its prompt is evaluated), and
    /// who waits for that (`untilResponding`).
    private var hasStartedResponding = false
    private var waitingForResponse: [CheckedContinuation<Void, Never>] = []
    /// Everything said so far, in order; see the kinds above.
    public internal(set) var transcript: Transcript

    /// How the instructions and a prompt become the model's text.
    public enum PromptStyle: Sendable, Hashable {
        /// The model's chat template, or the plain format when it has none: for answers.
        case chat
        /// The instructions and then the prompt, verbatim, with nothing added: for few-shot
        /// completion, where the prompt ends where the model's continuation starts. A base
        /// model without a chat template follows examples best this way.
        case continuation
    }

    /// `contextSize` below the model configuration's saves memory for short requests (each
    /// session owns its context's keys and values).
    public init(model: LanguageModel = .default, instructions: String? = nil, promptStyle: PromptStyle = .chat, contextSize: Int? = nil,
                batchSize: Int = 1) {
        self.init(model: model, instructions: instructions, promptStyle: promptStyle, contextSize: contextSize, tools: [],
                  conversation: false, maximumToolCalls: 0, backend: nil, batchSize: batchSize)
    }

    /// Answers that depend only on their prompt: each prompt reuses no more of the cache than the
    /// prewarmed prefix (`LlamaContext.reuseLimit`), so that with greedy decoding a prompt gets
    /// the same answer, bit for bit, whatever was asked before it and whether it is asked alone
    /// or in a batch. It costs re-evaluating what a prompt shares with the one before beyond the
    /// prefix (for the reader, a note's date when the last note had the same).
    public init(model: LanguageModel, instructions: String, promptStyle: PromptStyle = .chat, contextSize: Int, batchSize: Int = 1,
                reusingOnlyPrewarmedPrefix: Bool) {
        self.init(model: model, instructions: instructions, promptStyle: promptStyle, contextSize: contextSize, tools: [],
                  conversation: false, maximumToolCalls: 0, backend: nil, batchSize: batchSize,
                  reusesOnlyPrewarmedPrefix: reusingOnlyPrewarmedPrefix)
    }

    /// A conversation, with tools the model may call (none is fine). The transcript begins with
    /// the instructions and every tool's definition.
    public init(model: LanguageModel = .default, tools: [any Tool], instructions: String? = nil, contextSize: Int? = nil,
                maximumToolCalls: Int = 6) {
        self.init(model: model, instructions: instructions, promptStyle: .chat, contextSize: contextSize, tools: tools,
                  conversation: true, maximumToolCalls: maximumToolCalls, backend: nil, batchSize: 1)
    }

    /// A conversation on a token model other than llama.cpp's (the tests' fake).
    init(backend: any SessionBackend, tools: [any Tool], instructions: String? = nil, maximumToolCalls: Int = 6) {
        self.init(model: LanguageModel(configuration: ModelConfiguration(modelPath: "/nonexistent")), instructions: instructions,
                  promptStyle: .chat, contextSize: backend.contextSize, tools: tools, conversation: true,
                  maximumToolCalls: maximumToolCalls, backend: backend, batchSize: 1)
    }

    private init(model: LanguageModel, instructions: String?, promptStyle: PromptStyle, contextSize: Int?, tools: [any Tool],
                 conversation: Bool, maximumToolCalls: Int, backend: (any SessionBackend)?, batchSize: Int,
                 reusesOnlyPrewarmedPrefix: Bool = false) {
        self.reusesOnlyPrewarmedPrefix = reusesOnlyPrewarmedPrefix
        self.model = model
        self.instructions = instructions
        self.promptStyle = promptStyle
        self.contextSize = contextSize ?? model.configuration.contextSize
        self.tools = tools
        isConversation = conversation
        self.maximumToolCalls = max(0, maximumToolCalls)
        self.batchSize = max(1, batchSize)
        self.backend = backend
        let definitions = tools.map { Transcript.ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters) }
        transcript = Transcript(entries: [.instructions(Transcript.Instructions(text: instructions, tools: definitions))])
    }

    var isRespondingNow: Bool { isResponding }

    /// Goes on from a conversation held elsewhere (another process): its entries follow the
    /// instructions as if said in this session (instructions among them are skipped). Only a
    /// conversation keeps entries, and only before its first request.
    public func restore(_ entries: [Transcript.Entry]) {
        guard isConversation, transcript.count == 1 else { return }
        for entry in entries {
            if case .instructions = entry { continue }
            transcript.append(entry)
        }
    }

    /// Returns once a response of this session (`respond`, `streamResponse`) has begun
    /// decoding, its prompt evaluated (at once if one has): for acting while a request runs
    /// (cancelling it, asking another) without guessing how long its prompt takes.
    public func untilResponding() async {
        if hasStartedResponding { return }
        await withCheckedContinuation { waitingForResponse.append($0) }
    }

    private func responseStarted() {
        guard !hasStartedResponding else { return }
        hasStartedResponding = true
        for waiting in waitingForResponse { waiting.resume() }
        waitingForResponse = []
    }

    // MARK: Requests

    public func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws(GenerationError) -> Response<String> {
        if isConversation {
            let turn = try await converse(prompt: prompt, next: nil, options: options, onPartial: nil)
            return Response(content: turn.text, rawContent: turn.raw, statistics: turn.statistics)
        }
        let (bytes, statistics) = try await run(prompt: prompt, schema: nil, includeSchemaInPrompt: false, options: options, onPartial: nil)
        let text = String(decoding: bytes, as: UTF8.self)
        return Response(content: text, rawContent: text, statistics: statistics)
    }

    public func respond<T: Generable & Sendable>(to prompt: String, generating type: T.Type = T.self, includeSchemaInPrompt: Bool = true,
                                                 options: GenerationOptions = GenerationOptions()) async throws(GenerationError) -> Response<T> {
        let response = try await respond(to: prompt, schema: T.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
        do {
            return Response(content: try T(response.content), rawContent: response.rawContent, statistics: response.statistics)
        } catch {
            throw .decodingFailure(error.message)
        }
    }

    /// Guided generation for a schema built at run time.
    public func respond(to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
                        options: GenerationOptions = GenerationOptions()) async throws(GenerationError) -> Response<GeneratedContent> {
        if isConversation { return try await respond(to: prompt, options: options, next: { _ in .answer(schema) }) }
        let (bytes, statistics) = try await run(prompt: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options, onPartial: nil)
        return try Self.content(bytes, schema: schema, statistics: statistics)
    }

    /// Yields snapshots as the response grows; the last one is complete. Cancelling the
    /// consuming task stops the generation at the next decode step.
    public nonisolated func streamResponse(to prompt: String, schema: GenerationSchema?, includeSchemaInPrompt: Bool = true,
                                           options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<ResponseSnapshot, Error> {
        if isConversation {
            let fixed: (@Sendable (Transcript) -> NextStep)? = if let schema { { @Sendable _ in .answer(schema) } } else { nil }
            return streamConversation(to: prompt, options: options, next: fixed)
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let (bytes, _) = try await self.run(prompt: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt,
                                                        options: options) { partial in
                        continuation.yield(Self.snapshot(partial, guided: schema != nil))
                    }
                    if let schema {
                        let response = try Self.content(bytes, schema: schema, statistics: nil)
                        continuation.yield(ResponseSnapshot(rawContent: response.rawContent, content: response.content, isComplete: true))
                    } else {
                        continuation.yield(ResponseSnapshot(rawContent: String(decoding: bytes, as: UTF8.self), content: nil, isComplete: true))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public nonisolated func streamResponse<T: Generable>(to prompt: String, generating type: T.Type = T.self, includeSchemaInPrompt: Bool = true,
                                                         options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<ResponseSnapshot, Error> {
        streamResponse(to: prompt, schema: T.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    // MARK: Scoring

    /// The natural-log probability of each choice as the model's continuation of `prompt`,
    /// summed over the choice's tokens: what the model believes, not what it would sample, for
    /// picking among a few known answers. Write the choices as they continue the text (with
    /// their leading space: " work"). One evaluation of the prompt, reusing the cached prefix,
    /// serves every choice; only a choice's tokens after its first are evaluated, then dropped.
    public func logProbabilities(of choices: [String], after prompt: String) async throws(GenerationError) -> [Double] {
        guard !isResponding else { throw .concurrentRequests }
        isResponding = true
        defer { isResponding = false }
        let context = try makeContext()
        var choiceTokens: [[Int32]] = []
        for choice in choices {
            guard let tokens = context.tokenize(Array(choice.utf8)), !tokens.isEmpty else {
                throw .decodingFailure("the choice \"\(choice)\" has no tokens")
            }
            choiceTokens.append(tokens)
        }
        let tokens = try promptTokens(system: systemText(schema: nil), user: prompt, context: context).tokens
        if Task.isCancelled { throw .cancelled }
        let (logits, _) = try context.evaluate(tokens)
        // Every first token is read before anything else is decoded: decoding reuses the buffer.
        var scores = choiceTokens.map { Double(logits[Int($0[0])]) }
        let normalizer = Self.logSumExp(logits)
        scores = scores.map { $0 - normalizer }
        let promptEnd = context.evaluated.count
        for (index, tokens) in choiceTokens.enumerated() where tokens.count > 1 {
            if Task.isCancelled { throw .cancelled }
            for position in 1..<tokens.count {
                let next = try context.append([tokens[position - 1]])
                scores[index] += Double(next[Int(tokens[position])]) - Self.logSumExp(next)
            }
            context.truncate(to: promptEnd)
        }
        return scores
    }

    static func logSumExp(_ logits: UnsafeBufferPointer<Float>) -> Double {
        guard let largest = logits.max() else { return 0 }
        var sum = 0.0
        for value in logits { sum += exp(Double(value - largest)) }
        return Double(largest) + log(sum)
    }

    // MARK: Prewarm

    public enum PrewarmOutcome: Sendable, Hashable {
        /// The prefix was evaluated (and saved, when a cache directory is configured).
        case evaluated(tokens: Int)
        /// The prefix's state came from the cache on disk.
        case restored(tokens: Int)
    }

    /// Evaluates the instructions and `promptPrefix` (the start of the next prompts) once, so that
    /// later requests whose prompt starts the same way skip them. Pass the schema later requests
    /// will use, because it is part of the instructions when included in the prompt. The state is
    /// saved to disk keyed by model file and prefix text, and a later process restores it.
    @discardableResult
    public func prewarm(promptPrefix: String? = nil, schema: GenerationSchema? = nil,
                        includeSchemaInPrompt: Bool = true) async throws(GenerationError) -> PrewarmOutcome {
        guard !isResponding else { throw .concurrentRequests }
        isResponding = true
        defer { isResponding = false }
        let context = try makeContext()
        let tokens: [Int32]
        let prefixText: String
        if isConversation {
            // The transcript so far (the instructions and tools, at first) and the next prompt's start.
            let prompt = try Self.conversationTokens(transcript.messages + [ChatMessage(role: .user, content: promptPrefix ?? "")], model: context.model)
            tokens = Array(prompt.tokens[..<prompt.lastContentEnd])
            prefixText = prompt.textBeforeLastContent + (promptPrefix ?? "")
        } else {
            let prompt = try promptTokens(system: systemText(schema: includeSchemaInPrompt ? schema : nil), user: promptPrefix ?? "", context: context)
            tokens = Array(prompt.tokens[..<prompt.userEnd])
            prefixText = prompt.textBeforeUser + (promptPrefix ?? "")
        }
        if reusesOnlyPrewarmedPrefix { context.reuseLimit = tokens.count }
        let cache = PrefixCache(directory: model.configuration.prefixCacheDirectory, modelPath: model.configuration.modelPath,
                                contextSize: context.contextSize, layout: context.layout, libraryIdentity: context.model.libraryIdentity,
                                prefix: prefixText)
        if let cache {
            switch cache.load() {
            case .hit(let saved, let state) where saved == tokens:
                if context.restore(state: state, tokens: tokens) { return .restored(tokens: tokens.count) }
                cache.remove()
            case .hit, .invalid:
                cache.remove()
            case .missing:
                break
            }
        }
        _ = try context.evaluate(tokens)
        if let cache, let state = context.stateData() { _ = cache.save(tokens: tokens, state: state) }
        return .evaluated(tokens: tokens.count)
    }

    // MARK: Internals

    func makeContext() throws(GenerationError) -> LlamaContext {
        if let context { return context }
        let loaded = try model.loaded()
        var configuration = model.configuration
        configuration.contextSize = contextSize
        // Sequence 0 keeps the instructions; a batch's rows are sequences 1 and up.
        let context = try LlamaContext(model: loaded, configuration: configuration, sequences: batchSize + 1)
        self.context = context
        return context
    }

    nonisolated func systemText(schema: GenerationSchema?) -> String? {
        guard let schema else { return instructions }
        let schemaText = "Respond with JSON that matches this JSON schema:\n\(schema.jsonSchema.jsonString)"
        guard let instructions, !instructions.isEmpty else { return schemaText }
        return "\(instructions)\n\n\(schemaText)"
    }

    /// The chat-formatted prompt as tokens. The template's own text may hold control tokens; the
    /// user's text is tokenized as plain text, so a note containing "<|im_end|>" stays text.
    func promptTokens(system: String?, user: String, context: LlamaContext) throws(GenerationError)
        -> (tokens: [Int32], userStart: Int, userEnd: Int, textBeforeUser: String) {
        let marker = "\u{1}notes-prompt\u{1}"
        let rendered = switch promptStyle {
        case .chat: PromptFormat.render(model: context.model, system: system, user: marker)
        case .continuation: (system ?? "") + marker
        }
        guard let cut = rendered.utf8.firstRange(of: marker.utf8) else { throw .decodingFailure("the chat template dropped the prompt") }
        let before = String(rendered[..<cut.lowerBound])
        let after = String(rendered[cut.upperBound...])
        let model = context.model
        guard let head = model.tokenize(Array(before.utf8), addBeginning: model.addsBeginningOfSequence, special: true),
              let body = model.tokenize(Array(user.utf8), addBeginning: false, special: false),
              let tail = model.tokenize(Array(after.utf8), addBeginning: false, special: true) else {
            throw .decodingFailure("the prompt could not be tokenized")
        }
        return (head + body + tail, head.count, head.count + body.count, before)
    }

    private func run(prompt: String, schema: GenerationSchema?, includeSchemaInPrompt: Bool, options: GenerationOptions,
                     onPartial: (@Sendable ([UInt8]) -> Void)?) async throws(GenerationError) -> ([UInt8], GenerationStatistics) {
        guard !isResponding else { throw .concurrentRequests }
        isResponding = true
        defer { isResponding = false }
        let compiled: CompiledSchema?
        do throws(SchemaError) {
            compiled = try schema.map { schema throws(SchemaError) in try CompiledSchema(schema) }
        } catch {
            throw .invalidSchema(error.message)
        }
        let context = try makeContext()
        let tokens = try promptTokens(system: systemText(schema: includeSchemaInPrompt ? schema : nil), user: prompt, context: context)
        let result = try await generate(tokens: tokens.tokens, on: context, schema: compiled, options: options,
                                        draftSource: Self.draftSource(tokens, options: options), onPartial: onPartial)
        let text = String(decoding: result.0, as: UTF8.self)
        transcript = Transcript(entries: [transcript[0], .prompt(Transcript.Prompt(text: prompt)), .response(Transcript.Response(text: text))])
        return result
    }

    /// One generation: the prompt's tokens evaluated (reusing the cached prefix), then the
    /// response decoded, guided by `schema` when there is one. `draftSource`: the tokens copies
    /// are drafted from (`GenerationOptions.promptLookup`), none by default.
    func generate(tokens: [Int32], on backend: any SessionBackend, schema compiled: CompiledSchema?, options: GenerationOptions,
                  draftSource: [Int32] = [], onPartial: (@Sendable ([UInt8]) -> Void)?) async throws(GenerationError) -> ([UInt8], GenerationStatistics) {
        let clock = ContinuousClock()
        let start = clock.now
        if Task.isCancelled { throw .cancelled }
        var decoder = GuidedDecoder(model: backend, options: options)
        var lastCount = 0
        let checkpoint: ([UInt8]) async throws(GenerationError) -> Void = { (bytes: [UInt8]) async throws(GenerationError) in
            self.responseStarted()
            if Task.isCancelled { throw GenerationError.cancelled }
            if let onPartial, bytes.count != lastCount {
                lastCount = bytes.count
                onPartial(bytes)
            }
            await Task.yield()
        }
        var reused = 0
        var promptDone = start
        // The prompt, reusing the cached prefix, with the text the schema fixes at the start.
        let evaluatePrompt = { (opening: [Int32]) throws(GenerationError) -> UnsafeBufferPointer<Float> in
            let (logits, count) = try backend.evaluate(tokens + opening)
            reused = count
            promptDone = clock.now
            return logits
        }
        let result = if let compiled {
            try await decoder.generate(schema: compiled, evaluatePrompt: evaluatePrompt, draftSource: draftSource,
                                       draftLength: options.promptLookup ?? 0, checkpoint: checkpoint)
        } else {
            try await decoder.generateText(logits: try evaluatePrompt([]), checkpoint: checkpoint)
        }
        let statistics = GenerationStatistics(promptTokens: tokens.count, reusedPromptTokens: reused, responseTokens: result.tokenCount,
                                              sampledTokens: result.sampledCount, fastForwardedTokens: result.fastForwardedCount, maskedSteps: result.maskedCount,
                                              promptDuration: promptDone - start, generationDuration: clock.now - promptDone, draftedTokens: result.draftedCount)
        return (result.bytes, statistics)
    }

    static func content(_ bytes: [UInt8], schema: GenerationSchema, statistics: GenerationStatistics?) throws(GenerationError) -> Response<GeneratedContent> {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .decodingFailure("the output is not valid UTF-8") }
        do {
            let content = try GeneratedContent(json: text)
            try schema.validate(content)
            let zero = GenerationStatistics(promptTokens: 0, reusedPromptTokens: 0, responseTokens: 0, sampledTokens: 0,
                                            fastForwardedTokens: 0, maskedSteps: 0, promptDuration: .zero, generationDuration: .zero)
            return Response(content: content, rawContent: text, statistics: statistics ?? zero)
        } catch {
            throw .decodingFailure(error.message)
        }
    }

    /// The user's text, where copies are drafted from (`GenerationOptions.promptLookup`).
    static func draftSource(_ prompt: (tokens: [Int32], userStart: Int, userEnd: Int, textBeforeUser: String), options: GenerationOptions) -> [Int32] {
        (options.promptLookup ?? 0) > 0 ? Array(prompt.tokens[prompt.userStart..<prompt.userEnd]) : []
    }

    static func snapshot(_ bytes: [UInt8], guided: Bool) -> ResponseSnapshot {
        let text = String(decoding: completeUTF8Prefix(bytes), as: UTF8.self)
        let content = guided ? try? GeneratedContent(json: text, partial: true) : nil
        return ResponseSnapshot(rawContent: text, content: content, isComplete: false)
    }
}
