// The generation loop: samples tokens the schema automaton allows, and fast-forwards the text
// the schema fully determines.

struct DecodeResult {
    var bytes: [UInt8]
    /// Tokens that entered the output, sampled and fast-forwarded.
    var tokenCount: Int
    var sampledCount: Int
    var fastForwardedCount: Int
    /// Steps where the most likely tokens were all refused and the whole vocabulary was masked.
    var maskedCount = 0
}

struct GuidedDecoder {
    let model: TokenModel
    var sampler: Sampler
    let maximumTokens: Int
    private var masked = 0

    init(model: TokenModel, options: GenerationOptions) {
        self.model = model
        sampler = Sampler(options: options)
        maximumTokens = options.maximumResponseTokens ?? 4096
    }

    /// Generates a value matching `schema`, starting from `logits` (those after the prompt).
    /// `checkpoint` runs between decode steps: it throws to cancel, and receives the output so far.
    mutating func generate(isolation: isolated (any Actor)? = #isolation, schema: CompiledSchema, logits initial: UnsafeBufferPointer<Float>,
                           checkpoint: ([UInt8]) async throws(GenerationError) -> Void) async throws(GenerationError) -> DecodeResult {
        let vocabulary = model.vocabulary
        var automaton = SchemaAutomaton(schema: schema)
        var result = DecodeResult(bytes: [], tokenCount: 0, sampledCount: 0, fastForwardedCount: 0)
        var logits = initial
        var allowed: [Int32] = []
        allowed.reserveCapacity(vocabulary.count)
        while !automaton.isDone {
            try await checkpoint(result.bytes)
            var ahead = automaton
            let forced = ahead.takeForcedBytes()
            if !forced.isEmpty {
                if ahead.isDone {
                    result.bytes += forced
                    automaton = ahead
                    break
                }
                // Fast-forward: the text is fixed, so evaluate its tokens in one batch. The split
                // must spell exactly these bytes, or the model would see something else; when it
                // does not, the bytes are generated token by token under the mask instead.
                if let tokens = model.tokenize(forced), !tokens.isEmpty,
                   tokens.flatMap({ vocabulary.pieces[Int($0)] }) == forced {
                    try checkBudget(result.tokenCount + tokens.count)
                    logits = try model.append(tokens)
                    automaton = ahead
                    result.bytes += forced
                    result.tokenCount += tokens.count
                    result.fastForwardedCount += tokens.count
                    continue
                }
            }
            let token = try pick(logits, automaton: automaton, allowed: &allowed)
            if vocabulary.endOfGeneration.contains(token) && vocabulary.pieces[Int(token)].isEmpty { break }
            guard automaton.feed(bytes: vocabulary.pieces[Int(token)]) else {
                throw .decodingFailure("internal: an allowed token was rejected")
            }
            result.bytes += vocabulary.pieces[Int(token)]
            try checkBudget(result.tokenCount + 1)
            result.tokenCount += 1
            result.sampledCount += 1
            if automaton.isDone { break }
            logits = try model.append([token])
        }
        result.maskedCount = masked
        return result
    }

    private func checkBudget(_ tokens: Int) throws(GenerationError) {
        if tokens > maximumTokens { throw .exceededMaximumResponseTokens(maximumTokens) }
    }

    /// The next token. Greedy and top-k only need the best allowed tokens, so the most likely
    /// tokens are tried in order against the automaton (usually the first one passes); the whole
    /// vocabulary is masked through the trie only when they all fail, and for top-p.
    mutating func pick(_ logits: UnsafeBufferPointer<Float>, automaton: SchemaAutomaton,
                               allowed: inout [Int32]) throws(GenerationError) -> Int32 {
        let vocabulary = model.vocabulary
        let wanted: Int? = switch sampler.mode {
        case .greedy: 1
        case .topK(let k, _): k
        case .topP: nil
        }
        if let wanted {
            let best = Sampler.argmax(logits)
            if wanted == 1 && isAllowed(best, automaton: automaton) { return best }
            allowed.removeAll(keepingCapacity: true)
            for token in Sampler.ranked(logits, count: max(64, wanted * 4)) where isAllowed(token, automaton: automaton) {
                allowed.append(token)
                if allowed.count == wanted { return sampler.sample(logits, allowed: allowed) }
            }
        }
        masked += 1
        allowed.removeAll(keepingCapacity: true)
        vocabulary.trie.forEachAllowed(from: automaton) { allowed.append($0) }
        if automaton.canStop {
            allowed += vocabulary.endOfGeneration.sorted().filter { vocabulary.pieces[Int($0)].isEmpty }
        }
        guard !allowed.isEmpty else { throw .decodingFailure("no token of the vocabulary can continue the output") }
        return sampler.sample(logits, allowed: allowed)
    }

    private func isAllowed(_ token: Int32, automaton: SchemaAutomaton) -> Bool {
        let piece = model.vocabulary.pieces[Int(token)]
        if piece.isEmpty { return automaton.canStop && model.vocabulary.endOfGeneration.contains(token) }
        var copy = automaton
        return copy.feed(bytes: piece)
    }

    /// Free text until an end-of-generation token, for `respond(to:)` without a schema.
    mutating func generateText(isolation: isolated (any Actor)? = #isolation, logits initial: UnsafeBufferPointer<Float>,
                               checkpoint: ([UInt8]) async throws(GenerationError) -> Void) async throws(GenerationError) -> DecodeResult {
        let vocabulary = model.vocabulary
        var result = DecodeResult(bytes: [], tokenCount: 0, sampledCount: 0, fastForwardedCount: 0)
        var logits = initial
        let everything = (0..<Int32(vocabulary.count)).filter { !vocabulary.pieces[Int($0)].isEmpty || vocabulary.endOfGeneration.contains($0) }
        while result.tokenCount < maximumTokens {
            try await checkpoint(result.bytes)
            let token = sampler.isGreedy ? Sampler.argmax(logits) : sampler.sample(logits, allowed: everything)
            // An end-of-generation or other control token (no text) ends a free-text answer.
            if vocabulary.endOfGeneration.contains(token) || vocabulary.pieces[Int(token)].isEmpty { break }
            result.bytes += vocabulary.pieces[Int(token)]
            result.tokenCount += 1
            result.sampledCount += 1
            if result.tokenCount == maximumTokens { break }
            logits = try model.append([token])
        }
        return result
    }
}
