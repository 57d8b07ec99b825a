// The multilingual sentence-embedding model (multilingual-e5-small, 4-bit): one space of meaning
// for every language, so a query in English finds a note in Polish. Run in-process by the C engine
// its package ships (set-up builds it), which maps the model file and tokenizes on its own.
import Notes
import CE5
import Glibc
import Synchronization

/// Loaded on first use and kept for the life of the process. Creating one touches no file.
public final class MultilingualEmbeddingModel: Sendable {
    /// Words in one chunk of a note. The model reads 512 tokens; 150 words of Greek or Finnish are
    /// about 400 of its tokens, so a chunk is seldom cut again by the engine.
    static let chunkWords = 150
    /// Chunks kept for one note, as for the English model: the rest is found by its words.
    static let maximumChunks = 16
    /// Bytes of a note read for its chunks.
    static let maximumBytes = 64 * 1024

    public let path: String
    let libraryPath: String
    private let loaded = Mutex<Result<Engine, GenerationError>?>(nil)

    /// The engine's table and the mapped model. The engine keeps no state between calls but
    /// its scratch buffers, which each call allocates, so calls may overlap.
    private struct Engine: @unchecked Sendable {
        let api: notes_e5_api
        let model: OpaquePointer
        let dimensions: Int
    }

    public init(path: String, libraryPath: String) {
        self.path = path
        self.libraryPath = libraryPath
    }

    /// Whether `path` names a model of this kind (the engine's packed format, not a GGUF).
    public static func reads(_ path: String) -> Bool { path.hasSuffix(".bin") }

    /// Cheap checks of the two files until loaded; then the load's outcome.
    public var availability: LanguageModel.Availability {
        if case let .failure(error)? = loaded.withLock({ $0 }) { return .unavailable(error.unavailableReason) }
        return fileProblem().map { .unavailable($0) } ?? .available
    }

    private func fileProblem() -> String? {
        for (file, what) in [(path, "the embedding model"), (libraryPath, "the embedding engine")] where access(file, R_OK) != 0 {
            return "\(what) \(file) is missing (scripts/setup.sh installs it)"
        }
        return Self.formatProblem(path)
    }

    /// The engine trusts the file's tables (a cut file would be read past its end), so the file
    /// must start with the format's mark and have the size of the model set-up pins.
    static let knownSizes: Set<Int64> = [71_622_400]

    static func formatProblem(_ path: String) -> String? {
        let fd = Glibc.open(path, O_RDONLY)
        guard fd >= 0 else { return "cannot open the embedding model \(path)" }
        defer { close(fd) }
        var mark = [UInt8](repeating: 0, count: 4)
        let size = lseek(fd, 0, SEEK_END)
        guard pread(fd, &mark, 4, 0) == 4, mark == Array("E5S1".utf8), knownSizes.contains(Int64(size)) else {
            return "the embedding model \(path) is damaged or not multilingual-e5-small as set-up installs it (\(size) bytes); run scripts/setup.sh"
        }
        return nil
    }

    /// Stored with every vector: the file's real name and size, and how notes are cut.
    public var version: String {
        let resolved = FileSystem.realPath(path)
        let name = resolved.split(separator: "/").last.map(String.init) ?? resolved
        let size = FileSystem.identity(of: resolved).map { String($0.size) } ?? "missing"
        return "\(name):\(size):words \(Self.chunkWords)x\(Self.maximumChunks)"
    }

    /// The vector of a search query.
    public func embed(query: String) throws(GenerationError) -> [Float] {
        let engine = try load()
        var vector = [Float](repeating: 0, count: engine.dimensions)
        let status = query.withCString { text in vector.withUnsafeMutableBufferPointer { engine.api.e5_embed(engine.model, text, 1, $0.baseAddress!) } }
        guard status == 0 else { throw .decodingFailure("the embedding engine failed on a query (status \(status))") }
        return vector
    }

    /// For each text, its chunks' vectors in order (at least one), all chunks through the engine
    /// in one call (it runs them in parallel).
    public func embed(documents: [String]) throws(GenerationError) -> [[[Float]]] {
        let engine = try load()
        let chunked = documents.map(Self.chunks)
        let texts = chunked.flatMap { $0 }
        guard !texts.isEmpty else { return [] }
        var flat = [Float](repeating: 0, count: texts.count * engine.dimensions)
        // C strings that live through the call.
        let copies = texts.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0!) }
        let status = pointers.withUnsafeBufferPointer { list in
            flat.withUnsafeMutableBufferPointer { engine.api.e5_embed_batch(engine.model, list.baseAddress!, Int32(texts.count), 0, $0.baseAddress!) }
        }
        guard status == 0 else { throw .decodingFailure("the embedding engine failed on \(texts.count) chunks (status \(status))") }
        var next = 0
        return chunked.map { chunks in
            defer { next += chunks.count }
            return (next..<next + chunks.count).map { Array(flat[$0 * engine.dimensions..<($0 + 1) * engine.dimensions]) }
        }
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

    /// The engine and model, loaded on first call (later calls return them, or the same failure).
    private func load() throws(GenerationError) -> Engine {
        let result = loaded.withLock { state -> Result<Engine, GenerationError> in
            if let state { return state }
            let result = openEngine()
            state = result
            return result
        }
        return try result.get()
    }

    private func openEngine() -> Result<Engine, GenerationError> {
        if let problem = fileProblem() { return .failure(.modelUnavailable(problem)) }
        // OpenMP's default wait (a short spin, then sleep) is kept: a passive wait doubled a short
        // query's time (34 against 18 ms for six tokens, 2 cores).
        var message = [CChar](repeating: 0, count: 512)
        guard let api = notes_e5_open(libraryPath, &message, message.count)?.pointee else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.modelUnavailable("cannot load the embedding engine \(libraryPath): \(reason)"))
        }
        guard let model = api.e5_load(path) else {
            return .failure(.modelUnavailable("the embedding model \(path) is damaged or not the engine's format (scripts/setup.sh installs it again)"))
        }
        let dimensions = Int(api.e5_dim(model))
        guard dimensions > 0 && dimensions <= 4096 else {
            api.e5_free(model)
            return .failure(.modelUnavailable("the embedding model \(path) reports \(dimensions) dimensions"))
        }
        return .success(Engine(api: api, model: model, dimensions: dimensions))
    }
}
