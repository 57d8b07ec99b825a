// Several prompts answered together: one llama.cpp batch per step, one sequence per prompt.

extension LanguageModelSession {
    /// One prompt of a batch, with the schema its answer follows.
    public struct BatchRequest: Sendable {
        public var prompt: String
        public var schema: GenerationSchema

        public init(prompt: String, schema: GenerationSchema) {
            self.prompt = prompt
            self.schema = schema
        }
    }

    /// Guided generation for several prompts at once. Generation reads the model's weights once
    /// per step whatever the number of tokens (on a CPU it is bound by memory bandwidth), so up
    /// to `batchSize` prompts share each step: each one is a sequence of the one KV cache,
    /// forked from the cached prefix they share (the instructions), with its own guided-decoding
    /// state. Prompts are grouped in order so that every group's longest possible answers fit
    /// the context. With greedy decoding each answer is the one `respond(to:schema:)` gives,
    /// but for float near-ties. One result per request, in order: a request that fails (too
    /// long, over its token budget) does not stop the others.
    public func respond(toEach requests: [BatchRequest], includeSchemaInPrompt: Bool = true,
                        options: GenerationOptions = GenerationOptions()) async throws(GenerationError)
        -> [Result<Response<GeneratedContent>, GenerationError>] {
        guard !isResponding else { throw .concurrentRequests }
        isResponding = true
        defer { isResponding = false }
        let context = try makeContext()
        var results = [Result<Response<GeneratedContent>, GenerationError>?](repeating: nil, count: requests.count)
        var prepared: [(index: Int, schema: CompiledSchema, prompt: (tokens: [Int32], userStart: Int, userEnd: Int, textBeforeUser: String))] = []
        for (index, request) in requests.enumerated() {
            do throws(GenerationError) {
                let compiled: CompiledSchema
                do throws(SchemaError) { compiled = try CompiledSchema(request.schema) } catch { throw .invalidSchema(error.message) }
                let prompt = try promptTokens(system: systemText(schema: includeSchemaInPrompt ? request.schema : nil), user: request.prompt, context: context)
                guard prompt.tokens.count < context.contextSize else {
                    throw .exceededContextWindowSize(tokens: prompt.tokens.count, contextSize: context.contextSize)
                }
                prepared.append((index, compiled, prompt))
            } catch {
                results[index] = .failure(error)
            }
        }
        let answerBound = options.maximumResponseTokens ?? 4096
        var start = 0
        while start < prepared.count {
            // The group: as many as the context holds at their longest answers.
            // Cells: the shared prefix once, then each prompt's own tokens and longest answer.
            var end = start + 1
            var shared = prepared[start].prompt.tokens.count - 1
            var promptTokens = prepared[start].prompt.tokens.count
            while end < prepared.count, end - start < context.sequenceCount {
                let tokens = prepared[end].prompt.tokens
                let common = min(Self.commonPrefix(prepared[start].prompt.tokens, tokens), shared, tokens.count - 1)
                let members = end - start + 1
                guard promptTokens + tokens.count - common * (members - 1) + members * answerBound <= context.contextSize else { break }
                shared = common
                promptTokens += tokens.count
                end += 1
            }
            let group = Array(prepared[start..<end])
            let answers = try await generate(group.map { ($0.schema, $0.prompt) }, shared: shared, options: options, context: context)
            for (item, answer) in zip(group, answers) {
                results[item.index] = answer.flatMap { output in
                    Result { () throws(GenerationError) in try Self.content(output.0, schema: requests[item.index].schema, statistics: output.1) }
                }
            }
            start = end
        }
        return results.map { $0! }
    }

    /// Decodes one group: sequence 0 holds the shared prefix, the others are forked from it.
    private func generate(_ group: [(schema: CompiledSchema, prompt: (tokens: [Int32], userStart: Int, userEnd: Int, textBeforeUser: String))],
                          shared: Int, options: GenerationOptions, context: LlamaContext) async throws(GenerationError)
        -> [Result<([UInt8], GenerationStatistics), GenerationError>] {
        let clock = ContinuousClock()
        let begin = clock.now
        defer { context.dropForks() }
        if Task.isCancelled { throw .cancelled }
        var reused = context.evaluated.count
        if shared > 0 {
            reused = min(reused, try context.evaluate(Array(group[0].prompt.tokens[..<shared])).reused)
        } else {
            context.truncate(to: 0)
            reused = 0
        }
        context.dropForks()
        for sequence in 1..<group.count { context.fork(sequence, prefix: shared) }
        var logits = try context.decode(group.enumerated().map { sequence, item in
            LlamaContext.SequenceInput(sequence: sequence, tokens: Array(item.prompt.tokens[shared...]), everyPosition: false)
        })
        let promptDone = clock.now
        // A copy costs a batch slot; with several sequences the batch is already busy.
        let draftLength = group.count == 1 ? options.promptLookup ?? 0 : min(options.promptLookup ?? 0, Self.batchedDraftLength)
        var generations = group.map { item in
            GuidedGeneration(model: context, schema: item.schema, options: options, draftSource: Self.draftSource(item.prompt, options: options),
                             draftLength: draftLength)
        }
        var failures = [GenerationError?](repeating: nil, count: group.count)
        var finished = [Bool](repeating: false, count: group.count)
        while finished.contains(false) {
            if Task.isCancelled { throw .cancelled }
            var inputs: [LlamaContext.SequenceInput] = []
            for sequence in group.indices where !finished[sequence] {
                do throws(GenerationError) {
                    guard let evaluation = try generations[sequence].next(logits[sequence]) else {
                        finished[sequence] = true
                        continue
                    }
                    if evaluation.dropping > 0 {
                        try context.truncate(sequence: sequence, to: context.tokens(inSequence: sequence).count - evaluation.dropping)
                    }
                    inputs.append(LlamaContext.SequenceInput(sequence: sequence, tokens: evaluation.tokens, everyPosition: evaluation.everyPosition))
                } catch {
                    failures[sequence] = error
                    finished[sequence] = true
                }
            }
            guard !inputs.isEmpty else { break }
            let outputs = try context.decode(inputs)
            for (input, output) in zip(inputs, outputs) { logits[input.sequence] = output }
            await Task.yield()
        }
        let end = clock.now
        return group.indices.map { sequence in
            if let failure = failures[sequence] { return .failure(failure) }
            let result = generations[sequence].result
            let statistics = GenerationStatistics(promptTokens: group[sequence].prompt.tokens.count, reusedPromptTokens: sequence == 0 ? reused : shared,
                                                  responseTokens: result.tokenCount, sampledTokens: result.sampledCount,
                                                  fastForwardedTokens: result.fastForwardedCount, maskedSteps: result.maskedCount,
                                                  promptDuration: promptDone - begin, generationDuration: end - promptDone,
                                                  draftedTokens: result.draftedCount)
            return .success((result.bytes, statistics))
        }
    }

    /// Drafts in a batch of several sequences are shorter: each drafted token takes arithmetic
    /// from the others, where one sequence alone leaves the cores waiting on memory.
    static let batchedDraftLength = 4

    static func commonPrefix(_ a: [Int32], _ b: [Int32]) -> Int {
        var count = 0
        while count < a.count, count < b.count, a[count] == b[count] { count += 1 }
        return count
    }
}
