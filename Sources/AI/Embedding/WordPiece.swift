// The embedding model's tokenizer, uncased BERT WordPiece, read from the table that
// scripts/convert_embedding_model.py writes beside the model (MODEL.wordpiece; its format is
// described there). Why not llama.cpp's: building its tokenizer costs 30 to 50 ms on every
// load, more than the rest of a `notes search`; this table is mapped and used as it lies.
import Glibc
import Notes

/// Text to token ids, the way the model's own tokenizer cuts it: lowercased, accents and
/// control characters dropped, words split at white space and punctuation (each punctuation
/// mark and CJK ideograph its own word), then each word into the longest pieces the vocabulary
/// has ("playing" is "play", "##ing"), or `[UNK]` when it has none.
final class WordPiece: EmbeddingTokenizer {
    private let table: MappedTable
    private let header: TableHeader
    private var slotCount: Int { header.slotCount }
    private var rangeCount: Int { header.entries }
    private var poolSize: Int { header.poolSize }
    var pieces: Int { header.pieces }
    var begin: Int32 { header.begin }
    var end: Int32 { header.end }
    var unknown: Int32 { header.unknown }
    private let slots = 36
    private let ranges: Int
    private let pool: Int

    /// A word longer than this, in characters, is one `[UNK]` (as BERT's tokenizer has it).
    static let maximumWordCharacters = 100

    /// Maps the table at `path`; a missing, short or inconsistent file is an error that says so.
    init(path: String) throws(GenerationError) {
        let table = try MappedTable(path: path, magic: "NOTESWP1", header: 36)
        self.table = table
        header = try TableHeader(table)
        ranges = slots + header.slotCount * 8
        pool = ranges + header.entries * 12
        guard pool + header.poolSize == table.size else { throw table.damaged }
    }

    private func word(_ offset: Int) -> UInt32 { table.word(offset) }

    /// What a piece that continues a word begins with in the vocabulary.
    private static let continuation: [UInt8] = Array("##".utf8)

    private func entry(_ offset: Int) -> UnsafeRawBufferPointer? { table.entry(offset, pool: pool, poolSize: poolSize) }

    /// The id of a piece (with "##" in front when it continues a word), or nil.
    func id(of piece: ArraySlice<UInt8>, continuing: Bool) -> Int32? {
        let marks = continuing ? Self.continuation[...] : []
        var hasher = FNV1a()
        hasher.combine(marks)
        hasher.combine(piece)
        var slot = Int(hasher.value & UInt64(slotCount - 1))
        for _ in 0..<slotCount {
            let offset = Int(word(slots + slot * 8))
            guard offset != 0 else { return nil }
            if let bytes = entry(offset - 1), bytes.count == marks.count + piece.count,
               bytes.prefix(marks.count).elementsEqual(marks), bytes.dropFirst(marks.count).elementsEqual(piece) {
                return Int32(truncatingIfNeeded: word(slots + slot * 8 + 4))
            }
            slot = (slot + 1) & (slotCount - 1)
        }
        return nil
    }

    enum Class: UInt32 { case keep = 0, space, split, drop }

    /// What the tokenizer does with a character, and what it becomes when kept (nil: itself).
    func classify(_ scalar: Unicode.Scalar) -> (Class, UnsafeRawBufferPointer?) {
        let value = scalar.value
        // The common case without a search: lowercase ASCII letters and digits stay as they are.
        if (0x61...0x7A).contains(value) || (0x30...0x39).contains(value) { return (.keep, nil) }
        var low = 0, high = rangeCount
        while low < high {
            let middle = (low + high) / 2
            let at = ranges + middle * 12
            if word(at + 4) < value {
                low = middle + 1
            } else if word(at) > value {
                high = middle
            } else {
                let packed = word(at + 8)
                let kind = Class(rawValue: packed >> 24) ?? .keep
                return (kind, kind == .keep ? entry(Int(packed & 0xFF_FFFF)) : nil)
            }
        }
        return (.keep, nil)
    }

    /// The text's tokens, without the begin and end tokens (a chunk adds them).
    func tokens(_ text: String) -> [Int32] {
        var result: [Int32] = []
        var word: [UInt8] = []
        var characters = 0
        func finish() {
            if !word.isEmpty { pieces(of: word, characters: characters, into: &result) }
            word.removeAll(keepingCapacity: true)
            characters = 0
        }
        for scalar in text.unicodeScalars {
            switch classify(scalar) {
            case (.keep, nil):
                word.append(contentsOf: UTF8.encode(scalar)!)
                characters += 1
            case (.keep, let replacement?):
                word.append(contentsOf: replacement)
                characters += replacement.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            case (.space, _):
                finish()
            case (.split, _):
                finish()
                word.append(contentsOf: UTF8.encode(scalar)!)
                characters = 1
                finish()
            case (.drop, _):
                break
            }
        }
        finish()
        return result
    }

    /// One word's pieces, longest first from the left; the whole word is `[UNK]` when some part
    /// of it matches no piece, or when it is longer than BERT's tokenizer takes.
    private func pieces(of word: [UInt8], characters: Int, into result: inout [Int32]) {
        guard characters <= Self.maximumWordCharacters else { result.append(unknown); return }
        var found: [Int32] = []
        var start = 0
        while start < word.count {
            var stop = word.count
            var match: Int32?
            while stop > start {
                if let id = id(of: word[start..<stop], continuing: start > 0) { match = id; break }
                // Back one character, not one byte.
                stop -= 1
                while stop > start, word[stop] & 0xC0 == 0x80 { stop -= 1 }
            }
            guard let match else { result.append(unknown); return }
            found.append(match)
            start = stop
        }
        result += found
    }
}
