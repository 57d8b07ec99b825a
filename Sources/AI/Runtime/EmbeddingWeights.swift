// An embedding model's weights as llama.cpp loads them, and the tokenizer its text goes through:
// the WordPiece table beside the file (set-up's model, whose GGUF has no vocabulary, so that
// llama.cpp does not spend 30 to 50 ms building one on every load) or llama.cpp's own. Nothing
// of what a language model derives at load (token pieces, their trie for guided decoding).
import CLlama
import Glibc

final class EmbeddingWeights: @unchecked Sendable {
    let api: notes_llama_api
    let model: OpaquePointer
    let vocab: OpaquePointer
    /// The WordPiece table beside the model file, when there is one (ours, from set-up); else
    /// llama.cpp's own tokenizer from the GGUF (any other embedding model).
    let wordPiece: WordPiece?
    /// The tokens each chunk starts and ends with ([CLS] and [SEP] for BERT).
    let begin: Int32
    let end: Int32

    private init(api: notes_llama_api, model: OpaquePointer, vocab: OpaquePointer, wordPiece: WordPiece?) {
        self.api = api
        self.model = model
        self.vocab = vocab
        self.wordPiece = wordPiece
        begin = wordPiece?.begin ?? api.llama_vocab_bos(vocab)
        end = wordPiece?.end ?? api.llama_vocab_sep(vocab)
    }

    deinit { api.llama_model_free(model) }

    /// `MODEL.wordpiece` beside `MODEL.gguf`, the symbolic link resolved (set-up links
    /// embedding-model.gguf to the real file).
    static func wordPiecePath(forModel path: String) -> String {
        var resolved = path
        if let real = realpath(path, nil) {
            resolved = String(cString: real)
            free(real)
        }
        if resolved.hasSuffix(".gguf") { resolved.removeLast(5) }
        return resolved + ".wordpiece"
    }

    static func load(api: notes_llama_api, path: String) -> Result<EmbeddingWeights, GenerationError> {
        let tablePath = wordPiecePath(forModel: path)
        let wordPiece: WordPiece?
        do throws(GenerationError) {
            wordPiece = access(tablePath, F_OK) == 0 ? try WordPiece(path: tablePath) : nil
        } catch {
            return .failure(error)
        }
        LlamaBackend.initialize(api)
        guard let model = api.llama_model_load_from_file(path, api.llama_model_default_params()) else {
            return .failure(.modelUnavailable("llama.cpp could not load \(path) (not a readable GGUF, or an unsupported architecture)"))
        }
        guard let vocab = api.llama_model_get_vocab(model),
              wordPiece != nil || api.llama_vocab_type(vocab) != LLAMA_VOCAB_TYPE_NONE else {
            api.llama_model_free(model)
            return .failure(.modelUnavailable("\(path) has no vocabulary, and there is no tokenizer table \(tablePath) beside it (scripts/setup.sh writes both)"))
        }
        return .success(EmbeddingWeights(api: api, model: model, vocab: vocab, wordPiece: wordPiece))
    }

    /// The text's tokens, without the start and end tokens (the caller adds them per chunk).
    func tokenize(_ text: [UInt8]) -> [Int32] {
        guard !text.isEmpty else { return [] }
        if let wordPiece { return wordPiece.tokens(String(decoding: text, as: UTF8.self)) }
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
