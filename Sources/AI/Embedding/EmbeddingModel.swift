// The sentence-embedding model (all-MiniLM-L6-v2 by default): text in, unit-length vectors out,
// in-process through llama.cpp. What search by meaning and related notes are made of.
import Notes
import CLlama
import Glibc
import Synchronization

/// Loaded on first use and kept for the life of the process; one embedding at a time (the
/// context is behind a lock). Creating one is cheap and never touches llama.cpp.
public final class EmbeddingModel: Sendable {
    /// Tokens in one chunk, its start and end tokens included: what the model was trained on
    /// (all-MiniLM-L6-v2 cuts at 256), so a longer note is embedded as several chunks.
    static let chunkTokens = 256
    /// Chunks kept for one note: about 3,000 words of English. Beyond that a note is found by
    /// its words, and by the meaning of its first part.
    static let maximumChunks = 16
    /// Bytes of a note read for its chunks: enough for `maximumChunks`, so a 10 MB note is not
    /// tokenized whole.
    static let maximumBytes = 64 * 1024

    public let path: String
    let libraryPath: String?
    let threads: Int
    /// For its cheap checks of the file and the library (`availability`); never loaded.
    private let files: LanguageModel
    private let weights = Mutex<Result<EmbeddingWeights, GenerationError>?>(nil)
    /// One context for queries (one short sequence) and one for notes (many chunks a batch):
    /// a search never pays for the larger one's buffers.
    private let queryContext = Mutex<EmbeddingContext?>(nil)
    private let documentContext = Mutex<EmbeddingContext?>(nil)

    init(path: String, libraryPath: String? = nil, threads: Int = 2) {
        self.path = path
        self.libraryPath = libraryPath
        self.threads = threads
        files = LanguageModel(configuration: ModelConfiguration(modelPath: path, libraryPath: libraryPath, contextSize: Self.chunkTokens, threads: threads))
    }

    /// `NOTES_EMBEDDING_MODEL=/path/to/model.gguf`, else `$NOTES_DEPS/embedding-model.gguf`;
    /// nil for `NOTES_EMBEDDING_MODEL=none` (search by words only, no vectors made).
    public static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.current) -> EmbeddingModel? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let deps = value("NOTES_DEPS") ?? "/opt/notes-deps"
        let path = value("NOTES_EMBEDDING_MODEL") ?? "\(deps)/embedding-model.gguf"
        guard path != "none" else { return nil }
        return EmbeddingModel(path: path, libraryPath: value("NOTES_LLAMA_LIBRARY"))
    }

    /// Cheap checks (file, GGUF magic, library, the tokenizer table) until loaded; then the
    /// load's outcome.
    public var availability: LanguageModel.Availability {
        if case let .failure(error)? = weights.withLock({ $0 }) {
            return .unavailable(error.unavailableReason)
        }
        let files = self.files.availability
        guard case .available = files else { return files }
        if let problem = EmbeddingWeights.tokenizerProblem(model: path) { return .unavailable(problem) }
        return files
    }

    /// Stored with every vector: a vector made by another model file, or cut into chunks
    /// another way, is not current. The file's real name and size, without loading it.
    public var version: String {
        let resolved = FileSystem.realPath(path)
        let name = resolved.split(separator: "/").last.map(String.init) ?? resolved
        let size = FileSystem.identity(of: resolved).map { String($0.size) } ?? "missing"
        // Tokenized by the table beside the file, or by llama.cpp's tokenizer: not the same tokens.
        let tokenizer = access(EmbeddingWeights.wordPiecePath(forModel: path), F_OK) == 0 ? ":wordpiece" : ""
        return "\(name):\(size):chunks \(Self.chunkTokens)x\(Self.maximumChunks)\(tokenizer)"
    }

    /// Loads the model and makes the notes' context now, so the first batch is not slower.
    func prewarm() throws(GenerationError) {
        try withContext(documentContext, batchSize: 512, sequences: 32) { _ throws(GenerationError) in }
    }

    /// Tokens the query context holds: a query is a few words, and a small context is made
    /// (and its buffers reserved) faster on every search. A longer query uses the notes' context.
    static let queryTokens = 64

    /// The vector of a search query (its first chunk only: queries are short).
    public func embed(query: String) throws(GenerationError) -> [Float] {
        let weights = try loaded()
        let tokens = Self.chunks(of: query, model: weights).first ?? []
        if tokens.count > Self.queryTokens { return try embed(documents: [query]).first?.first ?? [] }
        return try withContext(queryContext, batchSize: Self.queryTokens, sequences: 1) { context throws(GenerationError) in
            try context.embed([tokens], threads: 1).first ?? []
        }
    }

    /// For each text, its chunks' vectors in order (at least one). Chunks of several texts go
    /// through the model together, which is faster than one text at a time.
    public func embed(documents: [String]) throws(GenerationError) -> [[[Float]]] {
        let threads = self.threads
        return try withContext(documentContext, batchSize: 512, sequences: 32) { context throws(GenerationError) in
            let chunked = documents.map { Self.chunks(of: $0, model: context.model) }
            var vectors = try context.embed(chunked.flatMap { $0 }, threads: threads)[...]
            return chunked.map { chunks in
                defer { vectors = vectors.dropFirst(chunks.count) }
                return Array(vectors.prefix(chunks.count))
            }
        }
    }

    /// The weights, loaded on first call (later calls return them, or the same failure).
    private func loaded() throws(GenerationError) -> EmbeddingWeights {
        let result = weights.withLock { state -> Result<EmbeddingWeights, GenerationError> in
            if let state { return state }
            let result: Result<EmbeddingWeights, GenerationError>
            if case let .unavailable(reason) = files.availability {
                result = .failure(.modelUnavailable(reason))
            } else {
                switch LlamaLibrary.load(path: libraryPath) {
                case let .failure(error): result = .failure(.modelUnavailable(error.description))
                case let .success(api): result = EmbeddingWeights.load(api: api, path: path)
                }
            }
            state = result
            return result
        }
        return try result.get()
    }

    private func withContext<T>(_ slot: borrowing Mutex<EmbeddingContext?>, batchSize: Int, sequences: Int,
                                _ body: (EmbeddingContext) throws(GenerationError) -> T) throws(GenerationError) -> T {
        let weights = try loaded()
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

    /// The text's first `limit` bytes of UTF-8, not cut in the middle of a character.
    static func leadingBytes(of text: String, limit: Int) -> [UInt8] {
        var bytes = Array(text.utf8.prefix(limit))
        if bytes.count == limit {
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        }
        return bytes
    }

    /// The text cut into token windows, each between the model's start and end tokens.
    static func chunks(of text: String, model: EmbeddingWeights) -> [[Int32]] {
        let begin = model.begin, end = model.end
        let tokens = model.tokenize(leadingBytes(of: text, limit: maximumBytes))
        let width = chunkTokens - 2
        var result: [[Int32]] = []
        var start = 0
        repeat {
            let window = tokens[start..<min(tokens.count, start + width)]
            result.append([begin] + window + [end])
            start += width
        } while start < tokens.count && result.count < maximumChunks
        return result
    }
}
