// The sentence-embedding model (all-MiniLM-L6-v2 by default): text in, unit-length vectors out,
// in-process through llama.cpp. What search by meaning and related notes are made of.
import Notes
import CLlama
import Glibc

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

    public var path: String { engine.path }
    let engine: EmbeddingEngine

    init(path: String, libraryPath: String? = nil, threads: Int = 2) {
        engine = EmbeddingEngine(path: path, libraryPath: libraryPath, threads: threads)
    }

    /// `NOTES_EMBEDDING_MODEL=/path/to/model.gguf`, else `$NOTES_DEPS/embedding-model.gguf`;
    /// nil for `NOTES_EMBEDDING_MODEL=none` (search by words only, no vectors made).
    public static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.current) -> EmbeddingModel? {
        let settings = Settings(environment)
        let path = settings[.embeddingModel] ?? "\(settings.deps)/embedding-model.gguf"
        guard path != "none" else { return nil }
        return EmbeddingModel(path: path, libraryPath: settings[.llamaLibrary])
    }

    /// Cheap checks (file, GGUF magic, library, the tokenizer table) until loaded; then the
    /// load's outcome.
    public var availability: LanguageModel.Availability { engine.availability }

    /// Stored with every vector: a vector made by another model file, or cut into chunks
    /// another way, is not current. The file's real name and size, without loading it.
    public var version: String {
        let resolved = FileSystem.realPath(path)
        let name = resolved.split(separator: "/").last.map(String.init) ?? resolved
        let size = FileSystem.identity(of: resolved).map { String($0.size) } ?? "missing"
        // Tokenized by the table beside the file, or by llama.cpp's tokenizer: not the same tokens.
        let tokenizer = access(EmbeddingWeights.tablePath(forModel: path), F_OK) == 0 ? ":wordpiece" : ""
        return "\(name):\(size):chunks \(Self.chunkTokens)x\(Self.maximumChunks)\(tokenizer)"
    }

    /// Loads the model and makes the notes' context now, so the first batch is not slower.
    func prewarm() throws(GenerationError) { try engine.prewarm() }

    /// The vector of a search query (its first chunk only: queries are short).
    public func embed(query: String) throws(GenerationError) -> [Float] {
        let tokens = Self.chunks(of: query, model: try engine.loaded(forQueries: true)).first ?? []
        if let vector = try engine.embed(query: tokens) { return vector }
        return try embed(documents: [query]).first?.first ?? []
    }

    /// For each text, its chunks' vectors in order (at least one). Chunks of several texts go
    /// through the model together, which is faster than one text at a time.
    public func embed(documents: [String]) throws(GenerationError) -> [[[Float]]] {
        let weights = try engine.loaded()
        let chunked = documents.map { Self.chunks(of: $0, model: weights) }
        var vectors = try engine.embed(documents: chunked.flatMap { $0 })[...]
        return chunked.map { chunks in
            defer { vectors = vectors.dropFirst(chunks.count) }
            return Array(vectors.prefix(chunks.count))
        }
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
