// One llama.cpp context: one KV cache for one or several sequences, and the tokens in each.
import CLlama

/// Owned by one session actor; never shared. Keeps track of the tokens in its KV cache so that
/// a new prompt re-evaluates only what differs from the last one. Sequence 0 is the one single
/// requests use, and the prefix a batch forks from; sequences 1 and up exist only while a batch
/// runs (`decode(_:)`). With two sequences (one request at a time) they share one cache and the
/// prefix's cells; with more, each has a cache of its own (a llama.cpp stream of `contextSize`
/// cells) into which the prefix is copied: in one shared cache a sequence's attention came out
/// otherwise, in its last bits, when other sequences' cells were there, and greedy readings
/// changed with what else was in the batch.
///
/// What else makes a sequence's logits come out the same in a batch as alone (bench/ai/RESULTS.md,
/// run G): llama.cpp's CPU kernels compute a token's attention otherwise depending on how many of
/// its sequence's tokens are evaluated with it (one, a few, eight and more, and where flash
/// attention's tiles of eight fall), and for Q5_0 and Q8_0 weights (not the K-quants of our
/// readers' layers) how many rows the step has. So flash attention is off, a batch step decodes
/// together only sequences that add as many tokens each (`decode(_:)`), and with `reuseLimit` a
/// prompt reuses no more than the prewarmed prefix, whatever the previous prompt shared with it.
final class LlamaContext: TokenModel {
    let model: LoadedModel
    private let context: OpaquePointer
    private var batch: llama_batch
    private let batchSize: Int
    let contextSize: Int
    /// How many sequences the cache can hold at once.
    let sequenceCount: Int
    /// Each sequence has a cache of its own, of `contextSize` cells (see above).
    let separateCaches: Bool
    /// What a saved state depends on beside the model and the context size (`PrefixCache`).
    var layout: String { "\(separateCaches ? "\(sequenceCount) caches" : "one cache"), no flash attention, plain weights" }
    /// The tokens whose keys and values are in the cache, per sequence, in order from position 0.
    private var sequences: [[Int32]]
    /// Logits copied out of llama.cpp when a batch took more than one `llama_decode`.
    private var copiedLogits = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

    /// Sequence 0's tokens.
    var evaluated: [Int32] { sequences[0] }
    /// At most this many tokens of sequence 0 are reused by `evaluate(_:)` (the prewarmed prefix),
    /// so that a prompt is evaluated in the same pieces whatever came before it; nil: all it shares.
    var reuseLimit: Int?

    var vocabulary: Vocabulary { model.vocabulary }
    private var api: notes_llama_api { model.api }

    init(model: LoadedModel, configuration: ModelConfiguration, sequences: Int = 1) throws(GenerationError) {
        self.model = model
        var params = model.api.llama_context_default_params()
        let separate = sequences > 2
        params.n_ctx = UInt32(configuration.contextSize * (separate ? sequences : 1))
        params.n_seq_max = UInt32(max(1, sequences))
        // One cache when a single request runs at a time: a fork shares the prefix's cells, and
        // a request may use the whole context. A batch's rows get caches of their own.
        params.kv_unified = !separate
        separateCaches = separate
        params.n_batch = 512
        params.n_ubatch = 512
        params.n_threads = Int32(configuration.threads)
        params.n_threads_batch = Int32(configuration.threads)
        params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED
        params.no_perf = true
        guard let context = model.api.llama_init_from_model(model.model, params) else {
            throw .modelUnavailable("llama.cpp could not create a context of \(configuration.contextSize) tokens")
        }
        self.context = context
        sequenceCount = max(1, sequences)
        contextSize = Int(model.api.llama_n_ctx(context)) / (separate ? sequenceCount : 1)
        batchSize = 512
        self.sequences = Array(repeating: [], count: sequenceCount)
        batch = model.api.llama_batch_init(Int32(batchSize), 0, 1)
    }

    deinit {
        copiedLogits.deallocate()
        api.llama_batch_free(batch)
        api.llama_free(context)
    }

    func tokenize(_ bytes: [UInt8]) -> [Int32]? {
        model.tokenize(bytes, addBeginning: false, special: false)
    }

    /// Makes the cache hold exactly `tokens` and returns the logits after the last one,
    /// evaluating only the part after the longest prefix already in the cache.
    func evaluate(_ tokens: [Int32]) throws(GenerationError) -> (logits: UnsafeBufferPointer<Float>, reused: Int) {
        guard !tokens.isEmpty else { throw .decodingFailure("empty prompt") }
        guard tokens.count < contextSize else { throw .exceededContextWindowSize(tokens: tokens.count, contextSize: contextSize) }
        var common = 0
        while common < evaluated.count, common < tokens.count, evaluated[common] == tokens[common] { common += 1 }
        // At least one token is evaluated, for its logits.
        common = min(common, tokens.count - 1, reuseLimit ?? .max)
        truncate(to: common)
        // Fewer when llama.cpp could not drop part of the sequence and the cache was cleared.
        let reused = evaluated.count
        return (try append(Array(tokens[reused...])), reused)
    }

    /// Drops the cache from `count` tokens on.
    func truncate(to count: Int) {
        guard count < evaluated.count else { return }
        let memory = api.llama_get_memory(context)
        // "Returns false if a partial sequence cannot be removed. Removing a whole sequence never fails."
        if !api.llama_memory_seq_rm(memory, 0, Int32(count), -1) {
            api.llama_memory_clear(memory, true)
            for index in sequences.indices { sequences[index].removeAll() }
            return
        }
        sequences[0].removeLast(evaluated.count - count)
    }

    func dropLast(_ count: Int) { truncate(to: evaluated.count - count) }

    func appendEach(_ tokens: [Int32]) throws(GenerationError) -> [UnsafeBufferPointer<Float>] {
        try decode([SequenceInput(sequence: 0, tokens: tokens, everyPosition: true)])[0]
    }

    func append(_ tokens: [Int32]) throws(GenerationError) -> UnsafeBufferPointer<Float> {
        guard evaluated.count + tokens.count <= contextSize else {
            throw .exceededContextWindowSize(tokens: evaluated.count + tokens.count, contextSize: contextSize)
        }
        var start = 0
        while start < tokens.count {
            let count = min(batchSize, tokens.count - start)
            batch.n_tokens = Int32(count)
            for index in 0..<count {
                batch.token[index] = tokens[start + index]
                batch.pos[index] = Int32(evaluated.count + index)
                batch.n_seq_id[index] = 1
                batch.seq_id[index]![0] = 0
                batch.logits[index] = index == count - 1 && start + count == tokens.count ? 1 : 0
            }
            // "0 - success, 1 - could not find a KV slot for the batch, 2 - aborted, -1 - invalid input,
            // < -1 - error. On failure the memory state is restored to before this call."
            let status = api.llama_decode(context, batch)
            switch status {
            case 0: break
            case 1: throw .exceededContextWindowSize(tokens: evaluated.count + count, contextSize: contextSize)
            default: throw .decodingFailure("llama_decode returned \(status)")
            }
            sequences[0] += tokens[start..<(start + count)]
            start += count
        }
        guard let logits = api.llama_get_logits_ith(context, -1) else { throw .decodingFailure("llama.cpp returned no logits") }
        return UnsafeBufferPointer(start: logits, count: vocabulary.count)
    }

    // MARK: Saved state

    /// The cache of sequence 0 as bytes, for the prefix cache.
    func stateData() -> [UInt8]? {
        let size = api.llama_state_seq_get_size(context, 0)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBufferPointer { api.llama_state_seq_get_data(context, $0.baseAddress, size, 0) }
        return written == size ? bytes : nil
    }

    /// Replaces the cache with saved state holding `tokens`; false (cache empty) when llama.cpp refuses it.
    func restore(state: ArraySlice<UInt8>, tokens: [Int32]) -> Bool {
        let memory = api.llama_get_memory(context)
        api.llama_memory_clear(memory, true)
        for index in sequences.indices { sequences[index].removeAll() }
        let read = state.withUnsafeBufferPointer { api.llama_state_seq_set_data(context, $0.baseAddress, $0.count, 0) }
        guard read > 0 else {
            api.llama_memory_clear(memory, true)
            return false
        }
        sequences[0] = tokens
        return true
    }

    // MARK: Several sequences

    /// One sequence's part of a batch.
    struct SequenceInput {
        var sequence: Int
        var tokens: [Int32]
        /// The logits after every token are wanted (to check drafts), not only after the last.
        var everyPosition: Bool
    }

    /// The tokens in sequence `index`.
    func tokens(inSequence index: Int) -> [Int32] { sequences[index] }

    /// Makes sequence `index` (not 0) hold sequence 0's first `count` tokens: nothing is
    /// evaluated. In one cache it shares their cells; with caches of their own, sequence 0's
    /// cache is copied whole (llama.cpp copies only whole streams) and cut after `count`.
    func fork(_ index: Int, prefix count: Int) throws(GenerationError) {
        precondition(index > 0 && index < sequenceCount && count <= evaluated.count)
        let memory = api.llama_get_memory(context)
        _ = api.llama_memory_seq_rm(memory, Int32(index), -1, -1)
        if separateCaches {
            api.llama_memory_seq_cp(memory, 0, Int32(index), -1, -1)
            sequences[index] = evaluated
            try truncate(sequence: index, to: count)
        } else {
            api.llama_memory_seq_cp(memory, 0, Int32(index), 0, Int32(count))
            sequences[index] = Array(evaluated[..<count])
        }
    }

    /// Empties sequences 1 and up, handing their cells back.
    func dropForks() {
        for index in 1..<sequenceCount where !sequences[index].isEmpty { clear(sequence: index) }
    }

    /// Empties sequence `index` (not 0), handing its cells back.
    func clear(sequence index: Int) {
        precondition(index > 0 && index < sequenceCount)
        // "Removing a whole sequence never fails."
        _ = api.llama_memory_seq_rm(api.llama_get_memory(context), Int32(index), -1, -1)
        sequences[index].removeAll()
    }

    /// Drops sequence `index` from `count` tokens on.
    func truncate(sequence index: Int, to count: Int) throws(GenerationError) {
        guard index > 0 else { return truncate(to: count) }
        guard count < sequences[index].count else { return }
        let memory = api.llama_get_memory(context)
        guard api.llama_memory_seq_rm(memory, Int32(index), Int32(count), -1) else {
            throw .decodingFailure("llama.cpp could not shorten a sequence of the batch")
        }
        sequences[index].removeLast(sequences[index].count - count)
    }

    /// Appends each input's tokens to its sequence and returns for each input the logits it
    /// asked for, valid until the next call. Inputs that add as many tokens each are decoded
    /// together, in as few `llama_decode` calls as the batch size allows; with caches of their
    /// own, inputs of other lengths go in calls of their own, so that each sequence's tokens are
    /// evaluated in the same pieces as alone (see above). Decoding each longer input alone
    /// would be exact for Q5_0 and Q8_0 weights too, but cost a batch most of its gain (1.13x
    /// against 1.54x, bench/ai/RESULTS.md, run G).
    func decode(_ inputs: [SequenceInput]) throws(GenerationError) -> [[UnsafeBufferPointer<Float>]] {
        struct Entry { var input: Int; var token: Int32; var position: Int; var output: Int? }
        var groups: [[Entry]] = []
        var groupOfLength: [Int: Int] = [:]
        var outputs = 0
        for (index, input) in inputs.enumerated() where !input.tokens.isEmpty {
            let key = separateCaches ? input.tokens.count : 0
            var group = groupOfLength[key] ?? groups.count
            // A group of several inputs fits one call: a call's cut must not fall inside one.
            if separateCaches, group < groups.count, groups[group].count + input.tokens.count > batchSize { group = groups.count }
            if group == groups.count {
                groups.append([])
                groupOfLength[key] = group
            }
            let start = sequences[input.sequence].count
            for (offset, token) in input.tokens.enumerated() {
                let wanted = input.everyPosition || offset == input.tokens.count - 1
                groups[group].append(Entry(input: index, token: token, position: start + offset, output: wanted ? outputs : nil))
                if wanted { outputs += 1 }
            }
        }
        guard !groups.isEmpty else { return inputs.map { _ in [] } }
        let vocabularySize = vocabulary.count
        let calls = groups.reduce(0) { $0 + ($1.count + batchSize - 1) / batchSize }
        if calls > 1, copiedLogits.count < outputs * vocabularySize {
            copiedLogits.deallocate()
            copiedLogits = .allocate(capacity: outputs * vocabularySize)
        }
        var pointers = [UnsafePointer<Float>?](repeating: nil, count: outputs)
        for entries in groups {
            var chunkStart = 0
            while chunkStart < entries.count {
                let chunk = entries[chunkStart..<min(chunkStart + batchSize, entries.count)]
                batch.n_tokens = Int32(chunk.count)
                for (slot, entry) in chunk.enumerated() {
                    batch.token[slot] = entry.token
                    batch.pos[slot] = Int32(entry.position)
                    batch.n_seq_id[slot] = 1
                    batch.seq_id[slot]![0] = Int32(inputs[entry.input].sequence)
                    batch.logits[slot] = entry.output == nil ? 0 : 1
                }
                let status = api.llama_decode(context, batch)
                switch status {
                case 0: break
                case 1: throw .exceededContextWindowSize(tokens: sequences.reduce(0) { $0 + $1.count } + chunk.count, contextSize: contextSize)
                default: throw .decodingFailure("llama_decode returned \(status)")
                }
                for (slot, entry) in chunk.enumerated() {
                    sequences[inputs[entry.input].sequence].append(entry.token)
                    guard let output = entry.output else { continue }
                    guard let logits = api.llama_get_logits_ith(context, Int32(slot)) else { throw .decodingFailure("llama.cpp returned no logits") }
                    if calls > 1 {
                        let target = copiedLogits.baseAddress! + output * vocabularySize
                        target.update(from: logits, count: vocabularySize)
                        pointers[output] = UnsafePointer(target)
                    } else {
                        pointers[output] = UnsafePointer(logits)
                    }
                }
                chunkStart += chunk.count
            }
        }
        var result: [[UnsafeBufferPointer<Float>]] = inputs.map { _ in [] }
        for entry in groups.joined() {
            if let output = entry.output { result[entry.input].append(UnsafeBufferPointer(start: pointers[output], count: vocabularySize)) }
        }
        return result
    }
}
