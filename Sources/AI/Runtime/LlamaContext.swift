// One llama.cpp context: the KV cache of one sequence, and the tokens that are in it.
import CLlama

/// Owned by one session actor; never shared. Keeps track of the tokens in its KV cache so that
/// a new prompt re-evaluates only what differs from the last one.
final class LlamaContext: TokenModel {
    let model: LoadedModel
    private let context: OpaquePointer
    private var batch: llama_batch
    private let batchSize: Int
    let contextSize: Int
    /// The tokens whose keys and values are in the cache, in order from position 0.
    private(set) var evaluated: [Int32] = []

    var vocabulary: Vocabulary { model.vocabulary }
    private var api: notes_llama_api { model.api }

    init(model: LoadedModel, configuration: ModelConfiguration) throws(GenerationError) {
        self.model = model
        var params = model.api.llama_context_default_params()
        params.n_ctx = UInt32(configuration.contextSize)
        params.n_batch = 512
        params.n_ubatch = 512
        params.n_threads = Int32(configuration.threads)
        params.n_threads_batch = Int32(configuration.threads)
        params.no_perf = true
        guard let context = model.api.llama_init_from_model(model.model, params) else {
            throw .modelUnavailable("llama.cpp could not create a context of \(configuration.contextSize) tokens")
        }
        self.context = context
        contextSize = Int(model.api.llama_n_ctx(context))
        batchSize = 512
        batch = model.api.llama_batch_init(Int32(batchSize), 0, 1)
    }

    deinit {
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
        common = min(common, tokens.count - 1)
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
            evaluated.removeAll()
            return
        }
        evaluated.removeLast(evaluated.count - count)
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
            evaluated += tokens[start..<(start + count)]
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
        evaluated.removeAll()
        let read = state.withUnsafeBufferPointer { api.llama_state_seq_set_data(context, $0.baseAddress, $0.count, 0) }
        guard read > 0 else {
            api.llama_memory_clear(memory, true)
            return false
        }
        evaluated = tokens
        return true
    }
}
