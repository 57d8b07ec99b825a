// A table as set-up writes it beside an embedding model (MODEL.wordpiece, MODEL.unigram, MODEL.rows),
// mapped read-only and used as it lies on disk: no parsing at load, which is what keeps a cold
// `notes search` fast.
import Glibc

final class MappedTable: @unchecked Sendable {
    /// The mapped file, read only: immutable after `init` (hence unchecked Sendable).
    let base: UnsafeRawPointer
    let size: Int
    let path: String
    /// What the table is, in messages ("the tokenizer table").
    let kind: String

    /// Maps the file at `path`, which must start with `magic` and be at least `header` bytes.
    init(path: String, magic: String, header: Int, kind: String = "tokenizer table") throws(GenerationError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .modelUnavailable("cannot open the \(kind) \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size >= header,
              let mapped = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw .modelUnavailable("the \(kind) \(path) is not readable or too short")
        }
        base = UnsafeRawPointer(mapped)
        size = Int(status.st_size)
        self.path = path
        self.kind = kind
        // Every property is set, so a throw from here runs deinit, which unmaps. (A second munmap
        // would unmap whatever another thread had mapped there meanwhile.)
        guard Array(UnsafeRawBufferPointer(start: base, count: magic.utf8.count)) == Array(magic.utf8) else { throw damaged }
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// What a table that does not hold together is reported as.
    var damaged: GenerationError {
        .modelUnavailable("the \(kind) \(path) is damaged (set-up writes it again: scripts/setup.sh)")
    }

    func word(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func float(_ offset: Int) -> Float { Float(bitPattern: word(offset)) }

    /// The entry at `offset` of a pool of u8-length-prefixed strings that starts at `pool` and
    /// holds `poolSize` bytes: its bytes, or nil past the end of a damaged pool.
    func entry(_ offset: Int, pool: Int, poolSize: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, offset < poolSize else { return nil }
        let length = Int(base.load(fromByteOffset: pool + offset, as: UInt8.self))
        guard offset + 1 + length <= poolSize else { return nil }
        return UnsafeRawBufferPointer(start: base + pool + offset + 1, count: length)
    }
}

/// What both tables begin with after their 8-byte magic, little endian u32s: the pieces, the
/// hash slots, the begin, end and unknown ids, the entries of the table's second part (WordPiece's
/// character ranges, unigram's replacements) and the pool's bytes. Checked against each other.
struct TableHeader {
    let pieces: Int
    let slotCount: Int
    let begin: Int32
    let end: Int32
    let unknown: Int32
    let entries: Int
    let poolSize: Int

    init(_ table: MappedTable) throws(GenerationError) {
        func word(_ offset: Int) -> Int { Int(table.word(offset)) }
        pieces = word(8)
        slotCount = word(12)
        begin = Int32(truncatingIfNeeded: word(16))
        end = Int32(truncatingIfNeeded: word(20))
        unknown = Int32(truncatingIfNeeded: word(24))
        entries = word(28)
        poolSize = word(32)
        let pieces = pieces
        guard slotCount > pieces, slotCount & (slotCount - 1) == 0,
              [begin, end, unknown].allSatisfy({ $0 >= 0 && Int($0) < pieces }) else { throw table.damaged }
    }
}

/// Text to the token ids of an embedding model, without the tokens each chunk begins and ends
/// with (`begin`, `end`), which the caller adds.
protocol EmbeddingTokenizer: Sendable {
    /// How many token ids the table has.
    var pieces: Int { get }
    var begin: Int32 { get }
    var end: Int32 { get }
    func tokens(_ text: String) -> [Int32]
}
