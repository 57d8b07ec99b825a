// An embedding model's weights and vocabulary as llama.cpp loads them, without what a language
// model derives at load (the token pieces and their trie for guided decoding: 20 ms that a
// search by meaning, which only tokenizes its query, should not pay).
import CLlama

final class EmbeddingWeights: @unchecked Sendable {
    let api: notes_llama_api
    let model: OpaquePointer
    let vocab: OpaquePointer

    private init(api: notes_llama_api, model: OpaquePointer, vocab: OpaquePointer) {
        self.api = api
        self.model = model
        self.vocab = vocab
    }

    deinit { api.llama_model_free(model) }

    static func load(api: notes_llama_api, path: String) -> Result<EmbeddingWeights, GenerationError> {
        LlamaBackend.initialize(api)
        guard let model = api.llama_model_load_from_file(path, api.llama_model_default_params()) else {
            return .failure(.modelUnavailable("llama.cpp could not load \(path) (not a readable GGUF, or an unsupported architecture)"))
        }
        guard let vocab = api.llama_model_get_vocab(model) else {
            api.llama_model_free(model)
            return .failure(.modelUnavailable("the model has no vocabulary"))
        }
        return .success(EmbeddingWeights(api: api, model: model, vocab: vocab))
    }

    /// The text's tokens, without the start and end tokens (the caller adds them per chunk).
    func tokenize(_ text: [UInt8]) -> [Int32] {
        guard !text.isEmpty else { return [] }
        func run(_ capacity: Int) -> (Int32, [Int32]) {
            var tokens = [Int32](repeating: 0, count: capacity)
            let count = text.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { api.llama_tokenize(vocab, $0.baseAddress, Int32(text.count), &tokens, Int32(capacity), false, false) }
            }
            return (count, tokens)
        }
        // "Returns a negative number on failure - the number of tokens that would have been returned."
        var (count, tokens) = run(text.count + 2)
        if count < 0, count != Int32.min { (count, tokens) = run(Int(-count)) }
        return count > 0 ? Array(tokens.prefix(Int(count))) : []
    }
}
