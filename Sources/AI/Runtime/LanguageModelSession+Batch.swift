// Several prompts answered together: one llama.cpp batch per step, one sequence per prompt, and a
// finished prompt's place taken by the next one at once.

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

    public typealias BatchResult = Result<Response<GeneratedContent>, GenerationError>

    /// Guided generation for several prompts at once (`respond(pulling:done:)`); one result per
    /// request, in order.
    public func respond(toEach requests: [BatchRequest], includeSchemaInPrompt: Bool = true,
                        options: GenerationOptions = GenerationOptions()) async throws(GenerationError) -> [BatchResult] {
        let queue = RequestQueue(requests)
        try await respond(pulling: { queue.next() }, includeSchemaInPrompt: includeSchemaInPrompt, options: options) { index, result in
            queue.deliver(index, result)
        }
        return queue.results
    }

    /// Guided generation for prompts as they come. Generation reads the model's weights once per
    /// step whatever the number of tokens (on a CPU it is bound by memory bandwidth), so up to
    /// `batchSize` prompts share each step: each is a sequence forked from the cached prefix
    /// they share (the instructions, kept in sequence 0; with several rows each has a cache of
    /// its own, `LlamaContext`), with its own guided-decoding state. When an answer is complete, `done` receives it (with the number of
    /// its request, counted from 0 in the order `next` gave them) and `next` is asked for the
    /// request that takes its place in the very next step, so the batch stays full and a request
    /// that arrives meanwhile joins it. Nil from `next`: no more for now; the running answers are
    /// finished. In one shared cache a request waits while it could not hold its longest answer
    /// beside the others'. With greedy decoding, in a session that reuses only its prewarmed
    /// prefix, each answer is the one `respond(to:schema:)` gives (bit for bit on K-quant
    /// weights; bench/ai/RESULTS.md, run G). A request that fails (too long, over its token budget) does not stop
    /// the others; cancellation and a failing decode do.
    public func respond(pulling next: @Sendable () async -> BatchRequest?, includeSchemaInPrompt: Bool = true,
                        options: GenerationOptions = GenerationOptions(),
                        done: @Sendable (Int, BatchResult) async -> Void) async throws(GenerationError) {
        guard !isResponding else { throw .concurrentRequests }
        isResponding = true
        defer { isResponding = false }
        let context = try makeContext()
        defer { context.dropForks() }
        let clock = ContinuousClock()
        let rows = max(1, context.sequenceCount - 1)
        let answerBound = options.maximumResponseTokens ?? 4096
        // A copy costs a batch slot; with several sequences the batch is already busy.
        let draftLength = rows == 1 ? options.promptLookup ?? 0 : min(options.promptLookup ?? 0, Self.batchedDraftLength)

        var slots = [Slot?](repeating: nil, count: rows)
        var pulled = 0
        var waiting: Prepared?
        var exhausted = false
        /// Sequence 0's tokens every request forks from, set by the first one.
        var prefix: [Int32]?
        var logits = [[UnsafeBufferPointer<Float>]](repeating: [], count: context.sequenceCount)

        func prepare(_ request: BatchRequest, index: Int) async throws(GenerationError) -> Prepared? {
            do throws(GenerationError) {
                let compiled: CompiledSchema
                do throws(SchemaError) { compiled = try CompiledSchema(request.schema) } catch { throw .invalidSchema(error.message) }
                let prompt = try promptTokens(system: systemText(schema: includeSchemaInPrompt ? request.schema : nil), user: request.prompt, context: context)
                guard prompt.tokens.count < context.contextSize else {
                    throw .exceededContextWindowSize(tokens: prompt.tokens.count, contextSize: context.contextSize)
                }
                return Prepared(index: index, request: request, schema: compiled, prompt: prompt)
            } catch {
                await done(index, .failure(error))
                return nil
            }
        }

        while true {
            if Task.isCancelled { throw .cancelled }
            var inputs: [LlamaContext.SequenceInput] = []
            // The running answers' next tokens; a finished one frees its place.
            for row in slots.indices {
                guard var slot = slots[row], slot.promptDone != nil else { continue }
                let sequence = row + 1
                do throws(GenerationError) {
                    if let evaluation = try slot.generation.next(logits[sequence]) {
                        if evaluation.dropping > 0 {
                            try context.truncate(sequence: sequence, to: context.tokens(inSequence: sequence).count - evaluation.dropping)
                        }
                        inputs.append(LlamaContext.SequenceInput(sequence: sequence, tokens: evaluation.tokens, everyPosition: evaluation.everyPosition))
                        slots[row] = slot
                        continue
                    }
                    await done(slot.prepared.index, Self.result(of: slot, end: clock.now))
                } catch {
                    await done(slot.prepared.index, .failure(error))
                }
                slots[row] = nil
                context.clear(sequence: sequence)
            }
            // Free places take the next requests, whose prompts are evaluated in this same step.
            while !exhausted, let row = slots.firstIndex(where: { $0 == nil }) {
                let candidate: Prepared
                if let held = waiting {
                    candidate = held
                } else {
                    guard let request = await next() else { exhausted = true; break }
                    pulled += 1
                    guard let prepared = try await prepare(request, index: pulled - 1) else { continue }
                    candidate = prepared
                }
                if prefix == nil {
                    if let limit = context.reuseLimit, context.evaluated.count >= limit {
                        // The prewarmed prefix, where a request alone would start too; nothing
                        // after it, so that in one cache a fork's cells follow it as they would.
                        context.truncate(to: limit)
                        prefix = context.evaluated
                    } else {
                        // The part before the user's text is the same for every request (the
                        // instructions): sequence 0 keeps it, evaluated once.
                        let shared = Array(candidate.prompt.tokens[..<min(candidate.prompt.userStart, candidate.prompt.tokens.count - 1)])
                        if shared.isEmpty { context.truncate(to: 0) } else { _ = try context.evaluate(shared) }
                        prefix = context.evaluated
                    }
                }
                let forked = min(Self.commonPrefix(prefix!, candidate.prompt.tokens), candidate.prompt.tokens.count - 1)
                // In one cache the rows share its cells; with caches of their own each has room.
                let held = context.separateCaches ? 0 : slots.compactMap { $0 }.reduce(0) { $0 + $1.cells(answerBound: answerBound) }
                let cells = candidate.prompt.tokens.count - forked + answerBound
                guard held == 0 || prefix!.count + held + cells <= context.contextSize else {
                    waiting = candidate
                    break
                }
                waiting = nil
                let sequence = row + 1
                var generation = GuidedGeneration(model: context, schema: candidate.schema, options: options,
                                                  draftSource: Self.draftSource(candidate.prompt, options: options), draftLength: draftLength)
                // The text the schema fixes at the start goes with the prompt, as with one request.
                let opening: [Int32]
                do throws(GenerationError) { opening = try generation.opening() } catch {
                    await done(candidate.index, .failure(error))
                    continue
                }
                try context.fork(sequence, prefix: forked)
                slots[row] = Slot(prepared: candidate, forked: forked, generation: generation, start: clock.now)
                inputs.append(LlamaContext.SequenceInput(sequence: sequence, tokens: Array(candidate.prompt.tokens[forked...]) + opening, everyPosition: false))
            }
            guard !inputs.isEmpty else { break }
            let outputs = try context.decode(inputs)
            let now = clock.now
            for (input, output) in zip(inputs, outputs) {
                logits[input.sequence] = output
                if slots[input.sequence - 1]?.promptDone == nil { slots[input.sequence - 1]?.promptDone = now }
            }
            await Task.yield()
        }
    }

    /// A request ready to be decoded.
    private struct Prepared {
        var index: Int
        var request: BatchRequest
        var schema: CompiledSchema
        var prompt: (tokens: [Int32], userStart: Int, userEnd: Int, textBeforeUser: String)
    }

    /// A request being answered in one sequence of the batch.
    private struct Slot {
        var prepared: Prepared
        /// Prompt tokens shared with sequence 0, not evaluated again.
        var forked: Int
        var generation: GuidedGeneration
        var start: ContinuousClock.Instant
        /// When its prompt was evaluated; nil until then.
        var promptDone: ContinuousClock.Instant?

        /// The cells it may come to hold: its own prompt tokens and its longest answer.
        func cells(answerBound: Int) -> Int { prepared.prompt.tokens.count - forked + answerBound }
    }

    private static func result(of slot: Slot, end: ContinuousClock.Instant) -> BatchResult {
        let output = slot.generation.result
        let promptDone = slot.promptDone ?? end
        let statistics = GenerationStatistics(promptTokens: slot.prepared.prompt.tokens.count, reusedPromptTokens: slot.forked,
                                              responseTokens: output.tokenCount, sampledTokens: output.sampledCount,
                                              fastForwardedTokens: output.fastForwardedCount, maskedSteps: output.maskedCount,
                                              promptDuration: promptDone - slot.start, generationDuration: end - promptDone,
                                              draftedTokens: output.draftedCount)
        return Result { () throws(GenerationError) in try content(output.bytes, schema: slot.prepared.request.schema, statistics: statistics) }
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

/// The requests of `respond(toEach:)`, handed out in order, and their results.
private final class RequestQueue: @unchecked Sendable {
    private let requests: [LanguageModelSession.BatchRequest]
    private var handed = 0
    private var collected: [LanguageModelSession.BatchResult?]

    init(_ requests: [LanguageModelSession.BatchRequest]) {
        self.requests = requests
        collected = Array(repeating: nil, count: requests.count)
    }

    // Called only from the session's own task, one call at a time.
    func next() -> LanguageModelSession.BatchRequest? {
        guard handed < requests.count else { return nil }
        handed += 1
        return requests[handed - 1]
    }

    func deliver(_ index: Int, _ result: LanguageModelSession.BatchResult) { collected[index] = result }

    var results: [LanguageModelSession.BatchResult] { collected.map { $0 ?? .failure(.decodingFailure("internal: a request got no answer")) } }
}
