// The generation loop: samples tokens the schema automaton allows, and fast-forwards the text
// the schema fully determines.

struct DecodeResult {
    var bytes: [UInt8]
    /// Tokens that entered the output, sampled and fast-forwarded.
    var tokenCount: Int
    var sampledCount: Int
    var fastForwardedCount: Int
    /// Drafted tokens (copies from the prompt) that were checked and kept.
    var draftedCount = 0
    /// Steps where the most likely tokens were all refused and the whole vocabulary was masked.
    var maskedCount = 0
}

/// What a generation asks the model to evaluate next, on its own sequence.
struct Evaluation {
    /// Tokens to drop from the end of the sequence first: drafted tokens that were refused.
    var dropping: Int
    var tokens: [Int32]
    /// The logits after every token are wanted (to check drafted tokens), not only after the last.
    var everyPosition: Bool
}

/// One guided generation, a step at a time: given the logits after what it last asked for, it
/// says what to evaluate next. The caller evaluates, so that one caller can drive one sequence
/// (`GuidedDecoder.generate`) or several in one llama.cpp batch (`BatchGeneration`).
///
/// Copies (prompt-lookup decoding): with greedy sampling and a `draftSource` (the prompt's
/// tokens), after each sampled token the continuation of the output's last tokens in the prompt
/// is drafted and evaluated with it in one batch; each drafted token is kept only while it is
/// the token greedy decoding would pick from the logits before it, under the schema's mask, so
/// the output is the one decoding token by token would give (but for float near-ties: a batch
/// computes logits in another order). A draft holds only tokens the automaton allows and stops
/// where the schema fixes the text, which is fast-forwarded as always.
struct GuidedGeneration {
    let model: TokenModel
    let vocabulary: Vocabulary
    var sampler: Sampler
    let maximumTokens: Int
    private var automaton: SchemaAutomaton
    private(set) var result = DecodeResult(bytes: [], tokenCount: 0, sampledCount: 0, fastForwardedCount: 0)
    private var masked = 0
    private var allowed: [Int32] = []
    /// Where drafts are looked up; empty: no drafts.
    private let draftSource: [Int32]
    let draftLength: Int
    /// The output's tokens, for looking up their continuation in the source.
    private var output: [Int32] = []
    /// Drafted tokens evaluated last, waiting to be checked against the logits before each.
    private var drafted: [Int32] = []
    private(set) var isFinished = false

    /// Longest run of output tokens looked up in the source, and the shortest.
    static let draftMatch = (longest: 3, shortest: 1)

    init(model: TokenModel, schema: CompiledSchema, options: GenerationOptions, draftSource: [Int32] = [], draftLength: Int = 0) {
        self.model = model
        vocabulary = model.vocabulary
        sampler = Sampler(options: options)
        maximumTokens = options.maximumResponseTokens ?? 4096
        automaton = SchemaAutomaton(schema: schema)
        self.draftSource = sampler.isGreedy ? draftSource : []
        self.draftLength = sampler.isGreedy ? draftLength : 0
        allowed.reserveCapacity(vocabulary.count)
    }

    /// `logits`: after each token of the last evaluation when it asked for every position, else
    /// after its last (the prompt's last, at the start). Nil: the output is complete.
    mutating func next(_ logits: [UnsafeBufferPointer<Float>]) throws(GenerationError) -> Evaluation? {
        guard !isFinished, let last = logits.last else { return nil }
        var current = last
        var dropping = 0
        var chosen: Int32?
        if !drafted.isEmpty {
            // logits[0] follows the sampled token, logits[i] the i-th drafted one.
            var accepted = 0
            while accepted < drafted.count {
                let pick = try self.pick(logits[accepted])
                guard pick == drafted[accepted] else {
                    chosen = pick
                    break
                }
                try take(pick, drafted: true)
                accepted += 1
                if automaton.isDone { return finish() }
            }
            dropping = drafted.count - accepted
            current = logits[accepted]
            drafted = []
        }
        if chosen == nil, let fixed = fixedText() {
            guard let tokens = try enter(fixed) else { return finish() }
            return Evaluation(dropping: dropping, tokens: tokens, everyPosition: false)
        }
        let token: Int32
        if let chosen { token = chosen } else { token = try pick(current) }
        if vocabulary.endOfGeneration.contains(token) && vocabulary.pieces[Int(token)].isEmpty { return finish() }
        try checkBudget(result.tokenCount + 1)
        try take(token, drafted: false)
        if automaton.isDone { return finish() }
        drafted = draft()
        // Text the schema fixes after the token is evaluated with it: every decode step reads all
        // the weights, so a step of its own cost a whole step per fixed run (16% of a short
        // note's time on the 1.5B reader, bench/ai/RESULTS.md run H).
        if drafted.isEmpty, let fixed = fixedText() {
            guard let tokens = try enter(fixed) else { return finish() }
            return Evaluation(dropping: dropping, tokens: [token] + tokens, everyPosition: false)
        }
        return Evaluation(dropping: dropping, tokens: [token] + drafted, everyPosition: !drafted.isEmpty)
    }

    /// The text the schema fixes at the start, taken into the output; its tokens are to be
    /// evaluated with the prompt, and the first `next(_:)` gets the logits after them. Empty
    /// when nothing is fixed there (or no split of it spells it).
    mutating func opening() throws(GenerationError) -> [Int32] {
        guard result.tokenCount == 0, !isFinished, let fixed = fixedText() else { return [] }
        guard let tokens = try enter(fixed) else {
            _ = finish()
            return []
        }
        return tokens
    }

    /// What the schema fixes next: its bytes, the tokens that spell exactly those bytes (none
    /// when the output ends with them), and the automaton past them. Nil when nothing is fixed,
    /// or when no split spells them: the model would see something else, so they are then
    /// generated token by token under the mask.
    private func fixedText() -> (bytes: [UInt8], tokens: [Int32], after: SchemaAutomaton)? {
        var ahead = automaton
        let forced = ahead.takeForcedBytes()
        guard !forced.isEmpty else { return nil }
        if ahead.isDone { return (forced, [], ahead) }
        guard let tokens = model.tokenize(forced), !tokens.isEmpty, tokens.flatMap({ vocabulary.pieces[Int($0)] }) == forced else { return nil }
        return (forced, tokens, ahead)
    }

    /// Fast-forward: the fixed text enters the output without sampling. Its tokens to evaluate;
    /// nil when it completes the output (nothing needs evaluating).
    private mutating func enter(_ fixed: (bytes: [UInt8], tokens: [Int32], after: SchemaAutomaton)) throws(GenerationError) -> [Int32]? {
        result.bytes += fixed.bytes
        automaton = fixed.after
        guard !automaton.isDone else { return nil }
        try checkBudget(result.tokenCount + fixed.tokens.count)
        result.tokenCount += fixed.tokens.count
        result.fastForwardedCount += fixed.tokens.count
        output += fixed.tokens
        return fixed.tokens
    }

    private mutating func finish() -> Evaluation? {
        isFinished = true
        drafted = []
        result.maskedCount = masked
        return nil
    }

    /// `token` is allowed: it enters the automaton and the output.
    private mutating func take(_ token: Int32, drafted: Bool) throws(GenerationError) {
        let piece = vocabulary.pieces[Int(token)]
        guard automaton.feed(bytes: piece) else { throw .decodingFailure("internal: an allowed token was rejected") }
        result.bytes += piece
        result.tokenCount += 1
        if drafted { result.draftedCount += 1 } else { result.sampledCount += 1 }
        output.append(token)
    }

    /// The tokens that follow the latest occurrence in the source of the output's last tokens
    /// (the longest run that occurs), cut where the automaton refuses one, where the schema then
    /// fixes the text or ends, and at the token budget.
    private func draft() -> [Int32] {
        guard draftLength > 0, !draftSource.isEmpty else { return [] }
        var ahead = automaton
        guard ahead.takeForcedBytes().isEmpty else { return [] }
        let budget = min(draftLength, maximumTokens - result.tokenCount)
        guard budget > 0 else { return [] }
        for length in stride(from: min(Self.draftMatch.longest, output.count), through: Self.draftMatch.shortest, by: -1) {
            let tail = output[(output.count - length)...]
            var start = draftSource.count - length - 1
            while start >= 0 {
                if draftSource[start..<(start + length)].elementsEqual(tail) { break }
                start -= 1
            }
            guard start >= 0 else { continue }
            var tokens: [Int32] = []
            var state = automaton
            for token in draftSource[(start + length)...].prefix(budget) {
                let piece = vocabulary.pieces[Int(token)]
                guard !piece.isEmpty, state.feed(bytes: piece) else { break }
                tokens.append(token)
                if state.isDone { break }
                var fixed = state
                if !fixed.takeForcedBytes().isEmpty { break }
            }
            return tokens
        }
        return []
    }

    private mutating func pick(_ logits: UnsafeBufferPointer<Float>) throws(GenerationError) -> Int32 {
        try GuidedDecoder.pick(logits, automaton: automaton, vocabulary: vocabulary, sampler: &sampler, allowed: &allowed, masked: &masked)
    }

    private func checkBudget(_ tokens: Int) throws(GenerationError) {
        if tokens > maximumTokens { throw .exceededMaximumResponseTokens(maximumTokens) }
    }
}

struct GuidedDecoder {
    let model: TokenModel
    var sampler: Sampler
    let maximumTokens: Int
    let options: GenerationOptions
    private var masked = 0

    init(model: TokenModel, options: GenerationOptions) {
        self.model = model
        self.options = options
        sampler = Sampler(options: options)
        maximumTokens = options.maximumResponseTokens ?? 4096
    }

    /// Generates a value matching `schema`, starting from `logits` (those after the prompt, which
    /// the caller evaluated: the text the schema fixes at the start then takes a step of its own;
    /// sessions use `generate(schema:evaluatePrompt:...)`, the tests' fake models this one).
    /// `checkpoint` runs between decode steps: it throws to cancel, and receives the output so far.
    /// `draftSource` (the prompt's tokens) and `draftLength` turn on copies (`GuidedGeneration`).
    mutating func generate(isolation: isolated (any Actor)? = #isolation, schema: CompiledSchema, logits initial: UnsafeBufferPointer<Float>,
                           draftSource: [Int32] = [], draftLength: Int = 0,
                           checkpoint: ([UInt8]) async throws(GenerationError) -> Void) async throws(GenerationError) -> DecodeResult {
        var generation = GuidedGeneration(model: model, schema: schema, options: options, draftSource: draftSource, draftLength: draftLength)
        return try await drive(&generation, from: initial, checkpoint: checkpoint)
    }

    /// The same, with the prompt still to evaluate: `evaluatePrompt` evaluates it followed by the
    /// tokens it is given (the text the schema fixes at the start, in the same step) and returns
    /// the logits after the last.
    mutating func generate(isolation: isolated (any Actor)? = #isolation, schema: CompiledSchema,
                           evaluatePrompt: ([Int32]) throws(GenerationError) -> UnsafeBufferPointer<Float>,
                           draftSource: [Int32] = [], draftLength: Int = 0,
                           checkpoint: ([UInt8]) async throws(GenerationError) -> Void) async throws(GenerationError) -> DecodeResult {
        var generation = GuidedGeneration(model: model, schema: schema, options: options, draftSource: draftSource, draftLength: draftLength)
        let logits = try evaluatePrompt(try generation.opening())
        return try await drive(&generation, from: logits, checkpoint: checkpoint)
    }

    private func drive(isolation: isolated (any Actor)? = #isolation, _ generation: inout GuidedGeneration, from initial: UnsafeBufferPointer<Float>,
                       checkpoint: ([UInt8]) async throws(GenerationError) -> Void) async throws(GenerationError) -> DecodeResult {
        var logits = [initial]
        while true {
            try await checkpoint(generation.result.bytes)
            guard let evaluation = try generation.next(logits) else { break }
            if evaluation.dropping > 0 { model.dropLast(evaluation.dropping) }
            logits = evaluation.everyPosition ? try model.appendEach(evaluation.tokens) : [try model.append(evaluation.tokens)]
        }
        return generation.result
    }

    mutating func pick(_ logits: UnsafeBufferPointer<Float>, automaton: SchemaAutomaton, allowed: inout [Int32]) throws(GenerationError) -> Int32 {
        try Self.pick(logits, automaton: automaton, vocabulary: model.vocabulary, sampler: &sampler, allowed: &allowed, masked: &masked)
    }

    /// The next token. Greedy and top-k only need the best allowed tokens, so the most likely
    /// tokens are tried in order against the automaton (usually the first one passes); the whole
    /// vocabulary is masked through the trie only when they all fail, and for top-p.
    static func pick(_ logits: UnsafeBufferPointer<Float>, automaton: SchemaAutomaton, vocabulary: Vocabulary, sampler: inout Sampler,
                     allowed: inout [Int32], masked: inout Int) throws(GenerationError) -> Int32 {
        let wanted: Int? = switch sampler.mode {
        case .greedy: 1
        case .topK(let k, _): k
        case .topP: nil
        }
        if let wanted {
            let best = Sampler.argmax(logits)
            if wanted == 1 && isAllowed(best, automaton: automaton, vocabulary: vocabulary) { return best }
            allowed.removeAll(keepingCapacity: true)
            for token in Sampler.ranked(logits, count: max(64, wanted * 4)) where isAllowed(token, automaton: automaton, vocabulary: vocabulary) {
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

    private static func isAllowed(_ token: Int32, automaton: SchemaAutomaton, vocabulary: Vocabulary) -> Bool {
        let piece = vocabulary.pieces[Int(token)]
        if piece.isEmpty { return automaton.canStop && vocabulary.endOfGeneration.contains(token) }
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
