// The multilingual embedding model's tokenizer, XLM-RoBERTa's SentencePiece unigram model, read
// from the table scripts/convert_e5_model.py writes beside the model (MODEL.unigram; its format
// is described there), mapped and used as it lies: its 250,002 pieces are never loaded into
// tables of our own, so a `notes search` without the daemon does not pay for them.
import Notes

/// Text to token ids the way the model's packed engine cut it (the vectors were measured so):
/// each character replaced as the model's normalization map says (compatibility forms, odd
/// spaces, controls dropped), runs of spaces made one, a space in front, every space the
/// SentencePiece mark "▁"; then the sequence of pieces whose scores add up highest (Viterbi), a
/// character no piece covers being `<unk>`.
final class Unigram: EmbeddingTokenizer {
    private let table: MappedTable
    private let header: TableHeader
    var pieces: Int { header.pieces }
    var begin: Int32 { header.begin }
    var end: Int32 { header.end }
    var unknown: Int32 { header.unknown }
    /// Hash slots of 12 bytes from `slots`, then the replacements (8 bytes each), then the pool.
    private let slots = Unigram.header
    private let replacements: Int
    private let pool: Int
    /// The longest piece, in bytes: no longer span is looked up.
    private let longestPiece: Int
    /// What a character no piece covers costs: less than any piece, so it is the last resort.
    private let unknownScore: Float

    static let header = 44

    init(path: String) throws(GenerationError) {
        let table = try MappedTable(path: path, magic: "NOTESUG1", header: Self.header)
        self.table = table
        header = try TableHeader(table)
        longestPiece = Int(table.word(36))
        unknownScore = table.float(40)
        replacements = Unigram.header + header.slotCount * 12
        pool = replacements + header.entries * 8
        guard pool + header.poolSize == table.size, (1...255).contains(longestPiece), unknownScore.isFinite else { throw table.damaged }
    }

    enum Entry: Equatable {
        case piece(id: Int32, score: Float)
        /// The beginning of some pieces, no piece itself.
        case prefix
    }

    /// What the vocabulary has for these bytes (`hash`: their FNV-1a), or nil when no piece
    /// begins with them.
    func entry(_ bytes: ArraySlice<UInt8>, hash: UInt64) -> Entry? {
        var slot = Int(hash & UInt64(header.slotCount - 1))
        for _ in 0..<header.slotCount {
            let at = slots + slot * 12
            let offset = Int(table.word(at))
            guard offset != 0 else { return nil }
            if let stored = table.entry(offset - 1, pool: pool, poolSize: header.poolSize), stored.elementsEqual(bytes) {
                let id = table.word(at + 4)
                return id == UInt32.max ? .prefix : .piece(id: Int32(truncatingIfNeeded: id), score: table.float(at + 8))
            }
            slot = (slot + 1) & (header.slotCount - 1)
        }
        return nil
    }

    /// What the normalization map makes of a character: nil to keep it, else its replacement's
    /// UTF-8 (empty when it is dropped).
    func replacement(for scalar: Unicode.Scalar) -> UnsafeRawBufferPointer? {
        let value = scalar.value
        // Letters and digits of ASCII are never replaced: no search for the common case.
        if (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value) || (0x30...0x39).contains(value) { return nil }
        var low = 0, high = header.entries
        while low < high {
            let middle = (low + high) / 2
            let at = replacements + middle * 8
            let code = table.word(at)
            if code < value {
                low = middle + 1
            } else if code > value {
                high = middle
            } else {
                return table.entry(Int(table.word(at + 4)), pool: pool, poolSize: header.poolSize)
            }
        }
        return nil
    }

    /// The mark SentencePiece puts for a space, and in front of the text.
    private static let mark: [UInt8] = Array("\u{2581}".utf8)

    /// The text, normalized, as UTF-8 bytes and the offset each character starts at (one more
    /// offset at the end).
    private func normalized(_ text: String) -> (bytes: [UInt8], starts: [Int]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        starts.reserveCapacity(text.utf8.count + 2)
        var lastWasSpace = false
        func append(_ scalar: Unicode.Scalar) {
            if scalar == " " {
                // Runs of spaces are one; the text begins with one.
                if lastWasSpace { return }
                lastWasSpace = true
                starts.append(bytes.count)
                bytes += Self.mark
                return
            }
            if starts.isEmpty { append(" ") }
            lastWasSpace = false
            starts.append(bytes.count)
            bytes += UTF8.encode(scalar)!
        }
        for scalar in text.unicodeScalars {
            if let replaced = replacement(for: scalar) {
                String(decoding: replaced, as: UTF8.self).unicodeScalars.forEach(append)
            } else {
                append(scalar)
            }
        }
        if starts.isEmpty { append(" ") }
        starts.append(bytes.count)
        return (bytes, starts)
    }

    func tokens(_ text: String) -> [Int32] {
        let (bytes, starts) = normalized(text)
        let count = starts.count - 1
        // best[i]: the highest score of pieces covering the first i characters; through[i] the
        // last of those pieces and from[i] where it starts.
        var best = [Float](repeating: -.infinity, count: count + 1)
        var through = [Int32](repeating: unknown, count: count + 1)
        var from = [Int](repeating: 0, count: count + 1)
        best[0] = 0
        for start in 0..<count where best[start] > -.infinity {
            // Longer and longer spans from `start`, their hash grown a character at a time, until
            // no piece begins with the span.
            var hasher = FNV1a()
            var stop = start + 1
            while stop <= count, starts[stop] - starts[start] <= longestPiece {
                let span = bytes[starts[start]..<starts[stop]]
                hasher.combine(bytes[starts[stop - 1]..<starts[stop]])
                guard let entry = entry(span, hash: hasher.value) else { break }
                if case let .piece(id, score) = entry, id != unknown, best[start] + score > best[stop] {
                    best[stop] = best[start] + score
                    through[stop] = id
                    from[stop] = start
                }
                stop += 1
            }
            // A character no piece covers is one `<unk>`, only when nothing better reaches past it.
            if best[start] + unknownScore > best[start + 1] {
                best[start + 1] = best[start] + unknownScore
                through[start + 1] = unknown
                from[start + 1] = start
            }
        }
        var result: [Int32] = []
        var at = count
        while at > 0 {
            result.append(through[at])
            at = from[at]
        }
        return result.reversed()
    }
}
