// What both embedding models run on: the weights llama.cpp loads once for the life of the
// process, and two contexts, each behind a lock (one embedding at a time in each): one for
// queries, over the weights as the file has them, and one for notes' chunks, over weights
// repacked for this machine's widest kernels. A process that only searches never repacks.
import Notes
import Synchronization

final class EmbeddingEngine: Sendable {
    let path: String
    let libraryPath: String?
    let threads: Int
    /// For its cheap checks of the file and the library (`availability`); never loaded.
    private let files: LanguageModel
    private let weights = Mutex<Result<EmbeddingWeights, GenerationError>?>(nil)
    private let queryWeights = Mutex<Result<EmbeddingWeights, GenerationError>?>(nil)
    /// One context for queries (one short sequence) and one for notes (many chunks a batch):
    /// a search never pays for the larger one's buffers.
    private let queryContext = Mutex<EmbeddingContext?>(nil)
    private let documentContext = Mutex<EmbeddingContext?>(nil)

    /// Tokens the query context holds: a query is a few words, and a small context is made
    /// (and its buffers reserved) faster on every search. A longer query uses the notes' context.
    static let queryTokens = 64
    /// Tokens of one batch of notes' chunks: a chunk must fit whole (512 is the longest either
    /// model reads), and several short ones share it.
    static let documentTokens = 512
    static let documentSequences = 32
    /// At most this many short sequences are embedded one by one in the query context.
    static let fewSequences = 4

    init(path: String, libraryPath: String?, threads: Int) {
        self.path = path
        self.libraryPath = libraryPath
        self.threads = threads
        files = LanguageModel(configuration: ModelConfiguration(modelPath: path, libraryPath: libraryPath, contextSize: Self.documentTokens, threads: threads))
    }

    /// Cheap checks (file, GGUF magic, library, the tokenizer table) until loaded; then the
    /// load's outcome.
    var availability: LanguageModel.Availability {
        for slot in [weights.withLock { $0 }, queryWeights.withLock { $0 }] {
            if case let .failure(error)? = slot { return .unavailable(error.unavailableReason) }
        }
        let files = self.files.availability
        guard case .available = files else { return files }
        if let problem = EmbeddingWeights.tokenizerProblem(model: path) { return .unavailable(problem) }
        return files
    }

    /// The weights, loaded on first call (later calls return them, or the same failure): for
    /// notes' chunks repacked; for queries as the file has them, unless the repacked ones are
    /// loaded already (a daemon's), which then serve queries too.
    func loaded(forQueries: Bool = false) throws(GenerationError) -> EmbeddingWeights {
        if forQueries {
            if case let .success(repacked)? = weights.withLock({ $0 }) { return repacked }
            return try load(queryWeights, repacked: false)
        }
        return try load(weights, repacked: true)
    }

    private func load(_ slot: borrowing Mutex<Result<EmbeddingWeights, GenerationError>?>, repacked: Bool) throws(GenerationError) -> EmbeddingWeights {
        let result = slot.withLock { state -> Result<EmbeddingWeights, GenerationError> in
            if let state { return state }
            let result: Result<EmbeddingWeights, GenerationError>
            if case let .unavailable(reason) = files.availability {
                result = .failure(.modelUnavailable(reason))
            } else {
                switch LlamaLibrary.load(path: libraryPath) {
                case let .failure(error): result = .failure(.modelUnavailable(error.description))
                case let .success(api): result = EmbeddingWeights.load(api: api, path: path, repacked: repacked)
                }
            }
            state = result
            return result
        }
        return try result.get()
    }

    /// One query's vector: one thread, where a second costs more in waiting (OpenMP spins at
    /// its barriers) than it computes on a few tokens. Nil when the sequence is longer than the
    /// query context holds (the caller embeds it as a document).
    func embed(query tokens: [Int32]) throws(GenerationError) -> [Float]? {
        guard tokens.count <= Self.queryTokens else { return nil }
        return try withContext(queryContext, batchSize: Self.queryTokens, sequences: 1) { context throws(GenerationError) in
            try context.embed([tokens], threads: 1).first ?? []
        }
    }

    /// The vectors of token sequences, in order, many a batch.
    func embed(documents sequences: [[Int32]]) throws(GenerationError) -> [[Float]] {
        // A few short ones (a note just added, embedded by a search) go through the query
        // context, when the notes' one is not made yet: not worth repacking the weights and
        // reserving the larger context for (a search right after `notes add` took 92 ms that way,
        // against 48 ms for the same search again).
        if sequences.count <= Self.fewSequences, sequences.allSatisfy({ $0.count <= Self.queryTokens }),
           documentContext.withLock({ $0 == nil }) {
            var vectors: [[Float]] = []
            for tokens in sequences { if let vector = try embed(query: tokens) { vectors.append(vector) } }
            if vectors.count == sequences.count { return vectors }
        }
        let threads = self.threads
        return try withContext(documentContext, batchSize: Self.documentTokens, sequences: Self.documentSequences) { context throws(GenerationError) in
            try context.embed(sequences, threads: threads)
        }
    }

    /// Loads the model and makes the notes' context now, so the first batch is not slower.
    func prewarm() throws(GenerationError) {
        try withContext(documentContext, batchSize: Self.documentTokens, sequences: Self.documentSequences) { _ throws(GenerationError) in }
    }

    private func withContext<T>(_ slot: borrowing Mutex<EmbeddingContext?>, batchSize: Int, sequences: Int,
                                _ body: (EmbeddingContext) throws(GenerationError) -> T) throws(GenerationError) -> T {
        // The query context is the one of a single sequence.
        let weights = try loaded(forQueries: sequences == 1)
        let threads = self.threads
        let result: Result<T, GenerationError> = slot.withLock { context in
            do throws(GenerationError) {
                if context == nil { context = try EmbeddingContext(model: weights, threads: threads, batchSize: batchSize, maximumSequences: sequences) }
                return .success(try body(context!))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
