// The sentence-embedding model (all-MiniLM-L6-v2 by default): text in, unit-length vectors out,
// in-process through llama.cpp. What search by meaning and related notes are made of.
import CLlama
import Glibc
import Synchronization

/// Loaded on first use and kept for the life of the process; one embedding at a time (the
/// context is behind a lock). Creating one is cheap and never touches llama.cpp.
public final class EmbeddingModel: Sendable {
    /// Tokens in one chunk, its start and end tokens included: what the model was trained on
    /// (all-MiniLM-L6-v2 cuts at 256), so a longer note is embedded as several chunks.
    public static let chunkTokens = 256
    /// Chunks kept for one note: about 3,000 words of English. Beyond that a note is found by
    /// its words, and by the meaning of its first part.
    public static let maximumChunks = 16
    /// Bytes of a note read for its chunks: enough for `maximumChunks`, so a 10 MB note is not
    /// tokenized whole.
    static let maximumBytes = 64 * 1024

    public let path: String
    let threads: Int
    private let model: LanguageModel
    private let context = Mutex<EmbeddingContext?>(nil)

    public init(path: String, libraryPath: String? = nil, threads: Int = 2) {
        self.path = path
        self.threads = threads
        model = LanguageModel(configuration: ModelConfiguration(modelPath: path, libraryPath: libraryPath, contextSize: Self.chunkTokens, threads: threads))
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

    /// Cheap checks (file, GGUF magic, library) until loaded; then the load's outcome.
    public var availability: LanguageModel.Availability { model.availability }

    /// Stored with every vector: a vector made by another model file, or cut into chunks
    /// another way, is not current. The file's real name and size, without loading it.
    public var version: String {
        var resolved = path
        if let real = realpath(path, nil) {
            resolved = String(cString: real)
            free(real)
        }
        let name = resolved.split(separator: "/").last.map(String.init) ?? resolved
        let size = FileSystem.identity(of: resolved).map { String($0.size) } ?? "missing"
        return "\(name):\(size):chunks \(Self.chunkTokens)x\(Self.maximumChunks)"
    }

    /// Loads the model and makes its context now, so the first embedding is not slower.
    public func prewarm() throws(GenerationError) {
        try withContext { _ throws(GenerationError) in }
    }

    /// The vector of a search query (its first chunk only: queries are short).
    public func embed(query: String) throws(GenerationError) -> [Float] {
        try withContext { context throws(GenerationError) in
            try context.embed([Self.chunks(of: query, model: context.model).first ?? []]).first ?? []
        }
    }

    /// For each text, its chunks' vectors in order (at least one). Chunks of several texts go
    /// through the model together, which is faster than one text at a time.
    public func embed(documents: [String]) throws(GenerationError) -> [[[Float]]] {
        try withContext { context throws(GenerationError) in
            let chunked = documents.map { Self.chunks(of: $0, model: context.model) }
            var vectors = try context.embed(chunked.flatMap { $0 })[...]
            return chunked.map { chunks in
                defer { vectors = vectors.dropFirst(chunks.count) }
                return Array(vectors.prefix(chunks.count))
            }
        }
    }

    private func withContext<T>(_ body: (EmbeddingContext) throws(GenerationError) -> T) throws(GenerationError) -> T {
        let loaded = try model.loaded()
        let threads = self.threads
        let result: Result<T, GenerationError> = context.withLock { slot in
            do {
                if slot == nil { slot = try EmbeddingContext(model: loaded, threads: threads) }
                return .success(try body(slot!))
            } catch let error as GenerationError {
                return .failure(error)
            } catch {
                return .failure(.decodingFailure("\(error)"))
            }
        }
        return try result.get()
    }

    /// The text cut into token windows, each between the model's start and end tokens.
    static func chunks(of text: String, model: LoadedModel) -> [[Int32]] {
        let begin = model.api.llama_vocab_bos(model.vocab), end = model.api.llama_vocab_sep(model.vocab)
        var bytes = Array(text.utf8.prefix(maximumBytes))
        // Not in the middle of a character: drop continuation bytes the cut left at the end.
        if bytes.count == maximumBytes {
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        }
        let tokens = model.tokenize(bytes, addBeginning: false, special: false) ?? []
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
