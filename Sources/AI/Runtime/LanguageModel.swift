// A GGUF model loaded once and shared by every session that uses it.
import Notes
import CLlama
import Synchronization

/// A local language model. Creating one is cheap; the file is loaded on first use and then
/// shared by every session. Mirrors FoundationModels' `SystemLanguageModel`.
public final class LanguageModel: Sendable {
    public enum Availability: Sendable, Hashable, CustomStringConvertible {
        case available
        case unavailable(String)

        public var isAvailable: Bool { self == .available }
        public var description: String {
            switch self {
            case .available: "available"
            case .unavailable(let reason): "unavailable: \(reason)"
            }
        }
    }

    public let configuration: ModelConfiguration
    private let state = Mutex<Result<LoadedModel, GenerationError>?>(nil)

    public init(configuration: ModelConfiguration) {
        self.configuration = configuration
    }

    /// The model named by the environment (see `ModelConfiguration.fromEnvironment`).
    public static let `default` = LanguageModel(configuration: .fromEnvironment())

    /// Cheap checks first (the file, its GGUF magic, the library); once loaded, the load's outcome.
    public var availability: Availability {
        if let loaded = state.withLock({ $0 }) {
            switch loaded {
            case .success: return .available
            case .failure(let error): return .unavailable(error.unavailableReason)
            }
        }
        return checkFiles()
    }

    private func checkFiles() -> Availability {
        let path = configuration.modelPath
        guard FileSystem.isRegularFile(path) else { return .unavailable("model file not found: \(path)") }
        guard let magic = try? FileSystem.read(path, limit: 4) else { return .unavailable("model file not readable: \(path)") }
        guard magic == Array("GGUF".utf8) else { return .unavailable("not a GGUF file: \(path)") }
        if case .failure(let error) = loadLibrary() { return .unavailable(error.description) }
        return .available
    }

    private func loadLibrary() -> Result<notes_llama_api, LlamaLibraryError> {
        LlamaLibrary.load(path: configuration.libraryPath)
    }

    /// Loads the model on first call; later calls return the same one (or the same failure).
    func loaded() throws(GenerationError) -> LoadedModel {
        let result = state.withLock { state -> Result<LoadedModel, GenerationError> in
            if let state { return state }
            let result = load()
            state = result
            return result
        }
        return try result.get()
    }

    private func load() -> Result<LoadedModel, GenerationError> {
        if case .unavailable(let reason) = checkFiles() { return .failure(.modelUnavailable(reason)) }
        switch LlamaLibrary.locate(path: configuration.libraryPath) {
        case .failure(let error):
            return .failure(.modelUnavailable(error.description))
        case .success(let (api, path)):
            // Saved prefixes are only valid for the library build that wrote them.
            let library = FileSystem.identity(of: path).map { "\(path):\($0.size):\($0.modified)" } ?? path
            return LoadedModel.load(api: api, path: configuration.modelPath, libraryIdentity: library)
        }
    }

    /// What `notes model` shows. Loads the model when it is available, for its parameters.
    public func info() -> ModelInfo {
        let availability = self.availability
        let size = FileSystem.identity(of: configuration.modelPath).map { Int($0.size) }
        guard availability.isAvailable, let model = try? loaded() else {
            return ModelInfo(availability: self.availability, path: configuration.modelPath, sizeBytes: size, parameters: nil,
                             contextSize: configuration.contextSize, trainedContextSize: nil, chatTemplate: nil, modelType: nil,
                             vocabularySize: nil)
        }
        return ModelInfo(availability: .available, path: configuration.modelPath, sizeBytes: size, parameters: model.parameterCount,
                         contextSize: configuration.contextSize, trainedContextSize: model.trainedContextSize,
                         chatTemplate: model.chatTemplate, modelType: model.modelDescription, vocabularySize: model.vocabulary.count)
    }
}

/// The llama.cpp model and what is derived from it once: the vocabulary and its trie.
final class LoadedModel: @unchecked Sendable {
    let weights: LlamaWeights
    var api: notes_llama_api { weights.api }
    var model: OpaquePointer { weights.model }
    var vocab: OpaquePointer { weights.vocab }
    let vocabulary: Vocabulary
    let chatTemplate: String?
    let parameterCount: Int
    let trainedContextSize: Int
    let modelDescription: String
    let addsBeginningOfSequence: Bool
    let libraryIdentity: String

    private init(weights: LlamaWeights, libraryIdentity: String) {
        self.weights = weights
        self.libraryIdentity = libraryIdentity
        let (api, model, vocab) = (weights.api, weights.model, weights.vocab)
        var pieces: [[UInt8]] = []
        let count = Int(api.llama_vocab_n_tokens(vocab))
        pieces.reserveCapacity(count)
        var buffer = [CChar](repeating: 0, count: 256)
        var endOfGeneration = Set<Int32>()
        for token in 0..<Int32(count) {
            // special = false: control tokens render as nothing, so they are never generated as text.
            let length = api.llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
            pieces.append(length > 0 ? buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) } : [])
            if api.llama_vocab_is_eog(vocab, token) { endOfGeneration.insert(token) }
        }
        vocabulary = Vocabulary(pieces: pieces, endOfGeneration: endOfGeneration)
        chatTemplate = api.llama_model_chat_template(model, nil).map { String(cString: $0) }
        parameterCount = Int(api.llama_model_n_params(model))
        trainedContextSize = Int(api.llama_model_n_ctx_train(model))
        var description = [CChar](repeating: 0, count: 256)
        let length = api.llama_model_desc(model, &description, description.count)
        modelDescription = length > 0 ? String(decoding: description.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        addsBeginningOfSequence = api.llama_vocab_get_add_bos(vocab)
    }

    static func load(api: notes_llama_api, path: String, libraryIdentity: String) -> Result<LoadedModel, GenerationError> {
        // No repacked weights: llama.cpp's repacked CPU kernels compute a row's products
        // otherwise when it shares a step with other rows, so a batch or a draft changed greedy
        // readings; the plain kernels give each row the same bits whatever else is evaluated,
        // and were not slower for prompts (bench/ai/RESULTS.md, run G).
        LlamaWeights.load(api: api, path: path, repacked: false).map { LoadedModel(weights: $0, libraryIdentity: libraryIdentity) }
    }

    /// Tokens for `text`. `special` parses control-token text (for chat templates only).
    func tokenize(_ text: [UInt8], addBeginning: Bool, special: Bool) -> [Int32]? {
        weights.tokenize(text, addBeginning: addBeginning, special: special)
    }
}

/// llama.cpp's process-wide set-up: the backend once, and its logging silenced (it writes to
/// stderr, which is the CLI's).
enum LlamaBackend {
    private static let done = Mutex(false)

    static func initialize(_ api: notes_llama_api) {
        done.withLock { done in
            guard !done else { return }
            api.llama_log_set({ _, _, _ in }, nil)
            api.llama_backend_init()
            done = true
        }
    }
}
