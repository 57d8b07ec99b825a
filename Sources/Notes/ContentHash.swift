// A short fingerprint of text, to notice that a note changed since it was analysed or synced.

public enum ContentHash {
    /// 64-bit FNV-1a over the UTF-8 bytes, as 16 hex digits. Not cryptographic: it detects
    /// change, it does not defend against an adversary (nothing here trusts it for that).
    public static func of(_ text: String) -> String {
        let digits = String(FNV1a.hash(text.utf8), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// FNV-1a, 64 bits: content hashes, cache keys and corruption checks, not a defence against
/// tampering.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    public mutating func combine<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        // Called from other modules this is unspecialised, a witness call per byte (15 MB/s, 2.5 s
        // for a prefix cache's checksum); over contiguous bytes the loop is concrete.
        if bytes.withContiguousStorageIfAvailable({ combine(buffer: $0) }) != nil { return }
        for byte in bytes { mix(byte) }
    }

    private mutating func combine(buffer: UnsafeBufferPointer<UInt8>) {
        for byte in buffer { mix(byte) }
    }

    private mutating func mix(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }

    public static func hash<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var hasher = FNV1a()
        hasher.combine(bytes)
        return hasher.value
    }
}
