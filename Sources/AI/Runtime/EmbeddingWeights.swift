// An embedding model's weights as llama.cpp loads them, and the tokenizer its text goes through:
// the table beside the file (set-up's models, whose GGUFs have no vocabulary, so that llama.cpp
// does not spend 30 to 50 ms building one on every load): WordPiece for all-MiniLM-L6-v2,
// unigram for multilingual-e5-small; or llama.cpp's own for any other GGUF. Nothing of what a
// language model derives at load (token pieces, their trie for guided decoding).
import CLlama
import Glibc
import Notes

final class EmbeddingWeights: @unchecked Sendable {
    let weights: LlamaWeights
    var api: notes_llama_api { weights.api }
    var model: OpaquePointer { weights.model }
    var vocab: OpaquePointer { weights.vocab }
    /// The table beside the model file, when there is one (ours, from set-up); else llama.cpp's
    /// own tokenizer from the GGUF (any other embedding model).
    let tokenizer: (any EmbeddingTokenizer)?
    /// The token rows beside the model file, when there are (multilingual-e5's, whose GGUF keeps
    /// one row: `TokenRows`): the context is given each token's row, not its id.
    let rows: TokenRows?
    /// The tokens each chunk starts and ends with ([CLS] and [SEP] for BERT, <s> and </s> for
    /// XLM-RoBERTa).
    let begin: Int32
    let end: Int32
    /// Tokens the model reads at most, its start and end tokens included.
    let contextLength: Int

    private init(weights: LlamaWeights, tokenizer: (any EmbeddingTokenizer)?, rows: TokenRows?) {
        self.weights = weights
        self.tokenizer = tokenizer
        self.rows = rows
        begin = tokenizer?.begin ?? weights.api.llama_vocab_bos(weights.vocab)
        end = tokenizer?.end ?? weights.api.llama_vocab_sep(weights.vocab)
        contextLength = Int(weights.api.llama_model_n_ctx_train(weights.model))
    }

    /// The kinds of table set-up writes beside a model, by the extension it gives them.
    enum Table: String, CaseIterable {
        case wordPiece = "wordpiece"
        case unigram

        func open(_ path: String) throws(GenerationError) -> any EmbeddingTokenizer {
            switch self {
            case .wordPiece: try WordPiece(path: path)
            case .unigram: try Unigram(path: path)
            }
        }
    }

    /// `MODEL.wordpiece` (or another table's extension) beside `MODEL.gguf`, the symbolic link
    /// resolved (set-up links embedding-model.gguf to the real file).
    static func tablePath(forModel path: String, _ table: Table = .wordPiece) -> String { besideModel(path, table.rawValue) }

    /// `MODEL.rows` beside `MODEL.gguf` (`TokenRows`).
    static func rowsPath(forModel path: String) -> String { besideModel(path, "rows") }

    private static func besideModel(_ path: String, _ fileExtension: String) -> String {
        var resolved = FileSystem.realPath(path)
        if resolved.hasSuffix(".gguf") { resolved.removeLast(5) }
        return resolved + "." + fileExtension
    }

    static func missingRowsMessage(model path: String) -> String {
        "\(path) keeps one token row, and there is no token rows file \(rowsPath(forModel: path)) beside it (scripts/setup.sh writes both)"
    }

    /// The table beside the model, if there is one.
    static func table(forModel path: String) -> (kind: Table, path: String)? {
        Table.allCases.lazy.map { ($0, tablePath(forModel: path, $0)) }.first { access($0.1, F_OK) == 0 }
    }

    static func missingTableMessage(model path: String) -> String {
        "\(path) has no vocabulary, and there is no tokenizer table \(tablePath(forModel: path)) (or .unigram) beside it (scripts/setup.sh writes both)"
    }

    /// Without loading the model: a damaged table beside it, or none beside a GGUF that has no
    /// vocabulary of its own. Nil when the model can tokenize.
    static func tokenizerProblem(model path: String) -> String? {
        // The keys come before the tensors, in the first kilobytes of the file.
        let head = try? FileSystem.read(path, limit: 64 * 1024)
        if let table = table(forModel: path) {
            do throws(GenerationError) {
                let tokenizer = try table.kind.open(table.path)
                if access(rowsPath(forModel: path), F_OK) == 0 {
                    _ = try TokenRows(path: rowsPath(forModel: path))
                } else if let head, let rows = vocabularySize(inHeader: head), rows < tokenizer.pieces {
                    return missingRowsMessage(model: path)
                }
                return nil
            } catch {
                return error.unavailableReason
            }
        }
        guard let head, tokenizerModel(inHeader: head) == "none" else { return nil }
        return missingTableMessage(model: path)
    }

    /// The rows of the token matrix a GGUF declares (`ARCH.vocab_size`), when its header says.
    static func vocabularySize(inHeader bytes: [UInt8]) -> Int? {
        guard let architecture = string("general.architecture", inHeader: bytes),
              case let .unsigned(size)? = value(architecture + ".vocab_size", inHeader: bytes) else { return nil }
        return Int(exactly: size)
    }

    /// The value of `tokenizer.ggml.model` in a GGUF's key-value section, walked from the start
    /// of the file; nil when the key is not within `bytes` (or they are not a GGUF).
    static func tokenizerModel(inHeader bytes: [UInt8]) -> String? { string("tokenizer.ggml.model", inHeader: bytes) }

    /// A string value of a GGUF's key-value section, walked from the start of the file; nil
    /// when the key is not within `bytes`, or not a string (or they are not a GGUF).
    static func string(_ wanted: String, inHeader bytes: [UInt8]) -> String? {
        guard case let .string(value)? = value(wanted, inHeader: bytes) else { return nil }
        return value
    }

    enum HeaderValue {
        case string(String)
        case unsigned(UInt64)
        case other
    }

    /// A value of a GGUF's key-value section, walked from the start of the file; nil when the key
    /// is not within `bytes` (or they are not a GGUF).
    static func value(_ wanted: String, inHeader bytes: [UInt8]) -> HeaderValue? {
        var at = 0
        func integer(_ width: Int) -> UInt64? {
            guard at + width <= bytes.count else { return nil }
            defer { at += width }
            return bytes[at..<at + width].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        func string() -> String? {
            guard let count = integer(8), count <= UInt64(bytes.count - at) else { return nil }
            defer { at += Int(count) }
            return String(decoding: bytes[at..<at + Int(count)], as: UTF8.self)
        }
        // GGUF value types: their widths, 8 a string, 9 an array (element type, count, elements).
        let widths: [UInt64: Int] = [0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8]
        func skip(_ type: UInt64) -> Bool {
            if let width = widths[type] { return integer(width) != nil }
            if type == 8 { return string() != nil }
            guard type == 9, let element = integer(4), let count = integer(8), element != 9 else { return false }
            for _ in 0..<count where !skip(element) { return false }
            return true
        }
        guard bytes.starts(with: Array("GGUF".utf8)) else { return nil }
        at = 4
        guard let version = integer(4), version >= 2, integer(8) != nil, let keys = integer(8) else { return nil }
        for _ in 0..<keys {
            guard let key = string(), let type = integer(4) else { return nil }
            if key == wanted {
                // GGUF's unsigned types: 0 u8, 2 u16, 4 u32, 10 u64.
                if type == 8 { return string().map { .string($0) } }
                if let width = [0: 1, 2: 2, 4: 4, 10: 8][type] { return integer(width).map { .unsigned($0) } }
                return .other
            }
            guard skip(type) else { return nil }
        }
        return nil
    }

    /// `repacked`: llama.cpp copies the matrices into the layout of this machine's widest
    /// kernels, which pays for itself on a batch of notes (seconds of work) but not on one query
    /// of a few tokens, where the copy is a fifth of a cold search's time.
    static func load(api: notes_llama_api, path: String, repacked: Bool = true) -> Result<EmbeddingWeights, GenerationError> {
        let tokenizer: (any EmbeddingTokenizer)?
        let rows: TokenRows?
        do throws(GenerationError) {
            tokenizer = try table(forModel: path).map { table throws(GenerationError) in try table.kind.open(table.path) }
            rows = access(rowsPath(forModel: path), F_OK) == 0 ? try TokenRows(path: rowsPath(forModel: path)) : nil
        } catch {
            return .failure(error)
        }
        let weights: LlamaWeights
        switch LlamaWeights.load(api: api, path: path, repacked: repacked) {
        case let .failure(error): return .failure(error)
        case let .success(loaded): weights = loaded
        }
        guard tokenizer != nil || api.llama_vocab_type(weights.vocab) != LLAMA_VOCAB_TYPE_NONE else {
            return .failure(.modelUnavailable(missingTableMessage(model: path)))
        }
        let pieces = tokenizer?.pieces ?? 0
        if let rows {
            guard rows.width == Int(api.llama_model_n_embd(weights.model)), rows.count >= pieces else {
                return .failure(.modelUnavailable("the token rows file \(rowsPath(forModel: path)) does not fit \(path) (scripts/setup.sh writes both again)"))
            }
        } else if Int(api.llama_vocab_n_tokens(weights.vocab)) < pieces {
            return .failure(.modelUnavailable(missingRowsMessage(model: path)))
        }
        return .success(EmbeddingWeights(weights: weights, tokenizer: tokenizer, rows: rows))
    }

    /// The text's tokens, without the start and end tokens (the caller adds them per chunk).
    func tokenize(_ text: [UInt8]) -> [Int32] {
        guard !text.isEmpty else { return [] }
        if let tokenizer { return tokenizer.tokens(String(decoding: text, as: UTF8.self)) }
        return weights.tokenize(text, addBeginning: false, special: false) ?? []
    }
}
