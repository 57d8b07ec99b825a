// A model file as llama.cpp loads it: the one owner of a llama model pointer, for the language
// models (`LoadedModel`) and the embedding models (`EmbeddingWeights`) alike. It loads, frees,
// and turns text into tokens with llama.cpp's tokenizer.
import CLlama

final class LlamaWeights: @unchecked Sendable {
    let api: notes_llama_api
    let model: OpaquePointer
    let vocab: OpaquePointer

    private init(api: notes_llama_api, model: OpaquePointer, vocab: OpaquePointer) {
        self.api = api
        self.model = model
        self.vocab = vocab
    }

    deinit { api.llama_model_free(model) }

    /// `repacked`: whether llama.cpp may copy the matrices into the layout of this machine's
    /// widest kernels (see the callers for when that is wanted).
    static func load(api: notes_llama_api, path: String, repacked: Bool) -> Result<LlamaWeights, GenerationError> {
        LlamaBackend.initialize(api)
        var params = api.llama_model_default_params()
        params.use_extra_bufts = repacked
        guard let model = api.llama_model_load_from_file(path, params) else {
            return .failure(.modelUnavailable("llama.cpp could not load \(path) (not a readable GGUF, or an unsupported architecture)"))
        }
        guard let vocab = api.llama_model_get_vocab(model) else {
            api.llama_model_free(model)
            return .failure(.modelUnavailable("the model has no vocabulary"))
        }
        return .success(LlamaWeights(api: api, model: model, vocab: vocab))
    }

    /// Tokens for `text` by llama.cpp's tokenizer; nil when it fails. `special` parses
    /// control-token text (for chat templates only).
    func tokenize(_ text: [UInt8], addBeginning: Bool, special: Bool) -> [Int32]? {
        guard !text.isEmpty else { return addBeginning ? [api.llama_vocab_bos(vocab)] : [] }
        func run(_ capacity: Int) -> (Int32, [Int32]) {
            var tokens = [Int32](repeating: 0, count: capacity)
            let count = text.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    api.llama_tokenize(vocab, $0.baseAddress, Int32(text.count), &tokens, Int32(capacity), addBeginning, special)
                }
            }
            return (count, tokens)
        }
        // "Returns a negative number on failure - the number of tokens that would have been returned."
        var (count, tokens) = run(text.count + 2)
        if count < 0, count != Int32.min { (count, tokens) = run(Int(-count)) }
        guard count >= 0 else { return nil }
        return Array(tokens.prefix(Int(count)))
    }
}
