// Prewarmed prefixes saved to disk, so that a cold process skips evaluating them.
import Notes

/// One file per (model file, context size and layout, prefix text). The file carries its full
/// key and a checksum: a file for another model or prefix (stale), or a damaged one (corrupt), is never
/// trusted; it is rebuilt. Each file holds a whole KV cache (10 to 20 MB), and every new prompt,
/// model or set of category corrections makes a new one, so only the `maximumFiles` used last
/// are kept.
struct PrefixCache {
    let directory: String
    let key: String

    static let magic = Array("NOTESKV1".utf8)
    static let maximumFiles = 8

    /// `layout`: how the context computes and holds its cache (`LlamaContext.layout`). A state
    /// saved by a context of one cache does not load into one of a cache per sequence, and one
    /// computed by other kernels would not give the same bits as evaluating the prefix.
    init?(directory: String?, modelPath: String, contextSize: Int, layout: String = "", libraryIdentity: String, prefix: String) {
        guard let directory, let identity = FileSystem.identity(of: modelPath) else { return nil }
        self.directory = directory
        key = "model=\(modelPath)|dev=\(identity.device)|ino=\(identity.inode)|size=\(identity.size)"
            + "|mtime=\(identity.modified).\(identity.modifiedNanoseconds)|ctx=\(contextSize)|kv=\(layout)|lib=\(libraryIdentity)|prefix=\(prefix)"
    }

    var path: String {
        let hash = String(FNV1a.hash(Array(key.utf8)), radix: 16)
        return "\(directory)/\(String(repeating: "0", count: 16 - hash.count))\(hash).kv"
    }

    enum LoadResult {
        case hit(tokens: [Int32], state: ArraySlice<UInt8>)
        case missing
        case invalid(String)
    }

    /// Layout: magic, key length (u32), key, token count (u32), tokens (i32 each), state
    /// length (u64), state, FNV-1a of everything before it (u64). Little-endian.
    func load() -> LoadResult {
        guard let bytes = try? FileSystem.read(path) else { return .missing }
        var reader = ByteReader(bytes: bytes)
        guard bytes.count >= Self.magic.count + 8, reader.take(Self.magic.count) == Self.magic[...] else { return .invalid("bad header") }
        let checked = bytes.count - 8
        var tail = ByteReader(bytes: bytes, offset: checked)
        guard let checksum = tail.u64(), checksum == FNV1a.hash(bytes[..<checked]) else { return .invalid("checksum mismatch") }
        guard let keyLength = reader.u32(), let keyBytes = reader.take(Int(keyLength)) else { return .invalid("truncated key") }
        guard keyBytes.elementsEqual(key.utf8) else { return .invalid("stale: another model or prefix") }
        guard let tokenCount = reader.u32(), tokenCount > 0 else { return .invalid("no tokens") }
        var tokens: [Int32] = []
        tokens.reserveCapacity(Int(tokenCount))
        for _ in 0..<tokenCount {
            guard let token = reader.u32() else { return .invalid("truncated tokens") }
            tokens.append(Int32(bitPattern: token))
        }
        guard let stateLength = reader.u64(), let state = reader.take(Int(stateLength)), reader.offset == checked else {
            return .invalid("truncated state")
        }
        // Used now: the last to be pruned.
        try? FileSystem.touch(path)
        return .hit(tokens: tokens, state: state)
    }

    func save(tokens: [Int32], state: [UInt8]) -> Bool {
        guard (try? FileSystem.createDirectories(directory)) != nil else { return false }
        var bytes = Self.magic
        bytes.reserveCapacity(state.count + tokens.count * 4 + key.utf8.count + 64)
        append(UInt32(key.utf8.count), to: &bytes)
        bytes += key.utf8
        append(UInt32(tokens.count), to: &bytes)
        for token in tokens { append(UInt32(bitPattern: token), to: &bytes) }
        append(UInt64(state.count), to: &bytes)
        bytes += state
        append(FNV1a.hash(bytes), to: &bytes)
        guard (try? FileSystem.writeAtomically(bytes, to: path)) != nil else { return false }
        prune()
        return true
    }

    /// Removes all but the `maximumFiles` cache files used last (this one always stays).
    func prune() {
        let files = ((try? FileSystem.names(in: directory)) ?? []).filter { $0.hasSuffix(".kv") }.map { directory + "/" + $0 }.filter { $0 != path }
        guard files.count >= Self.maximumFiles else { return }
        let dated = files.compactMap { file in FileSystem.identity(of: file).map { (file, $0.modified, $0.modifiedNanoseconds) } }
        let newestFirst = dated.sorted { ($0.1, $0.2, $0.0) > ($1.1, $1.2, $1.0) }
        for (file, _, _) in newestFirst.dropFirst(Self.maximumFiles - 1) { try? FileSystem.remove(file) }
    }

    func remove() { try? FileSystem.remove(path) }

    private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func u32() -> UInt32? {
        take(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func u64() -> UInt64? {
        take(8).map { $0.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    }
}
