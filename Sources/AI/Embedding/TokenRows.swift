// An embedding model's token rows, beside its GGUF (MODEL.rows, from set-up's converter): each
// token id's row of the token matrix, in the packed file's 4-bit blocks (ggml's Q4_0), mapped and
// read per token. The GGUF keeps a single row, because llama.cpp sizes a context's output buffer
// by the vocabulary (a float for every vocabulary entry and token of a batch, even for an encoder
// that only pools: 512 MB cleared for a batch of notes with e5's 250,037 rows); notes hands
// llama.cpp each token's row instead of its id.
final class TokenRows: Sendable {
    private let table: MappedTable
    /// Rows (token ids) and their width (the model's embedding length).
    let count: Int
    let width: Int
    private let rowBytes: Int
    /// A 4-bit block: a half-precision scale, then 16 bytes; weight j in the low nibble of byte j,
    /// weight j + 16 in its high one, each less 8.
    static let blockWeights = 32
    static let blockBytes = 18
    static let header = 24

    init(path: String) throws(GenerationError) {
        let table = try MappedTable(path: path, magic: "NOTESTR1", header: Self.header, kind: "token rows file")
        self.table = table
        count = Int(table.word(8))
        width = Int(table.word(12))
        rowBytes = Int(table.word(16))
        guard count > 0, width > 0, width % Self.blockWeights == 0, rowBytes == width / Self.blockWeights * Self.blockBytes,
              Self.header + count * rowBytes == table.size else { throw table.damaged }
    }

    /// Writes token `id`'s row, `width` floats, at `out`: the values ggml's 4-bit rows decode to.
    /// False for an id the table does not have.
    func write(_ id: Int32, to out: UnsafeMutablePointer<Float>) -> Bool {
        guard id >= 0, Int(id) < count else { return false }
        var block = table.base + Self.header + Int(id) * rowBytes
        var at = out
        for _ in 0..<width / Self.blockWeights {
            let scale = Float(Float16(bitPattern: UInt16(littleEndian: block.loadUnaligned(as: UInt16.self))))
            for j in 0..<16 {
                let byte = block.load(fromByteOffset: 2 + j, as: UInt8.self)
                at[j] = Float(Int(byte & 0x0F) - 8) * scale
                at[j + 16] = Float(Int(byte >> 4) - 8) * scale
            }
            block += Self.blockBytes
            at += Self.blockWeights
        }
        return true
    }
}
