// One llama.cpp context that turns token sequences into pooled, unit-length vectors.
import CLlama

/// Several sequences go through the model in one batch (each its own sequence id, so attention
/// stays within it), and llama.cpp pools each into one vector with the model's pooling (mean for
/// all-MiniLM-L6-v2). Owned by one `EmbeddingModel` and used only behind its lock (hence
/// unchecked Sendable).
final class EmbeddingContext: @unchecked Sendable {
    let model: EmbeddingWeights
    private let context: OpaquePointer
    private var batch: llama_batch
    /// Tokens one decode takes, all sequences together: a sequence must fit whole in one.
    let batchSize: Int
    let maximumSequences: Int
    let dimensions: Int
    private var threads: Int
    private var api: notes_llama_api { model.api }

    init(model: EmbeddingWeights, threads: Int, batchSize: Int, maximumSequences: Int) throws(GenerationError) {
        self.model = model
        var params = model.api.llama_context_default_params()
        params.n_ctx = UInt32(batchSize)
        params.n_batch = UInt32(batchSize)
        // "physical maximum batch size": a non-causal model must see a sequence whole in one.
        params.n_ubatch = UInt32(batchSize)
        params.n_seq_max = UInt32(maximumSequences)
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(threads)
        params.embeddings = true
        params.pooling_type = LLAMA_POOLING_TYPE_UNSPECIFIED
        params.no_perf = true
        guard let context = model.api.llama_init_from_model(model.model, params) else {
            throw .modelUnavailable("llama.cpp could not create an embedding context")
        }
        guard model.api.llama_pooling_type(context) != LLAMA_POOLING_TYPE_NONE else {
            model.api.llama_free(context)
            throw .modelUnavailable("the model does not pool its output into one vector (not an embedding model)")
        }
        self.context = context
        self.batchSize = batchSize
        self.maximumSequences = maximumSequences
        self.threads = threads
        dimensions = Int(model.api.llama_model_n_embd(model.model))
        // With token rows beside the model, the batch carries each token's row (`TokenRows`).
        batch = model.api.llama_batch_init(Int32(batchSize), model.rows == nil ? 0 : Int32(dimensions), 1)
    }

    deinit {
        api.llama_batch_free(batch)
        api.llama_free(context)
    }

    /// One unit-length vector per sequence, in order. Each sequence is at most `batchSize`
    /// tokens (the caller cuts longer text) and holds its own start and end tokens.
    /// `threads` for this call: one for a query of a few tokens, where a second thread costs more
    /// in waiting (OpenMP spins at its barriers) than it computes, above all on a busy machine.
    func embed(_ sequences: [[Int32]], threads: Int) throws(GenerationError) -> [[Float]] {
        if threads != self.threads {
            api.llama_set_n_threads(context, Int32(threads), Int32(threads))
            self.threads = threads
        }
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        var start = 0
        while start < sequences.count {
            var end = start
            var tokens = 0
            while end < sequences.count, end - start < maximumSequences, tokens + sequences[end].count <= batchSize {
                tokens += sequences[end].count
                end += 1
            }
            guard end > start else { throw .exceededContextWindowSize(tokens: sequences[start].count, contextSize: batchSize) }
            vectors += try decode(sequences[start..<end])
            start = end
        }
        return vectors
    }

    private func decode(_ sequences: ArraySlice<[Int32]>) throws(GenerationError) -> [[Float]] {
        // A model with no cache (an encoder such as BERT) has no memory object to clear.
        if let memory = api.llama_get_memory(context) { api.llama_memory_clear(memory, true) }
        var count = 0
        for (sequence, tokens) in sequences.enumerated() {
            for (position, token) in tokens.enumerated() {
                if let rows = model.rows {
                    guard rows.write(token, to: batch.embd + count * dimensions) else {
                        throw .decodingFailure("token \(token) has no row in the token rows file")
                    }
                } else {
                    batch.token[count] = token
                }
                batch.pos[count] = Int32(position)
                batch.n_seq_id[count] = 1
                batch.seq_id[count]![0] = Int32(sequence)
                batch.logits[count] = 1
                count += 1
            }
        }
        batch.n_tokens = Int32(count)
        // "0 - success, 1 - could not find a KV slot for the batch, 2 - aborted, -1 - invalid input,
        // < -1 - error."
        let status = api.llama_decode(context, batch)
        guard status == 0 else { throw .decodingFailure("llama_decode returned \(status) for \(count) tokens") }
        var result: [[Float]] = []
        for sequence in 0..<sequences.count {
            // "Returns NULL if pooling_type is LLAMA_POOLING_TYPE_NONE ... otherwise: float[n_embd]"
            guard let pooled = api.llama_get_embeddings_seq(context, Int32(sequence)) else {
                throw .decodingFailure("llama.cpp returned no pooled embedding")
            }
            result.append(Self.normalized(UnsafeBufferPointer(start: pooled, count: dimensions)))
        }
        return result
    }

    static func normalized(_ values: UnsafeBufferPointer<Float>) -> [Float] {
        var norm: Float = 0
        for value in values { norm += value * value }
        norm = norm.squareRoot()
        return norm > 0 ? values.map { $0 / norm } : Array(values)
    }
}
