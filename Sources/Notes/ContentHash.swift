// A short fingerprint of text, to notice that a note changed since it was analysed or synced.

public enum ContentHash {
    /// 64-bit FNV-1a over the UTF-8 bytes, as 16 hex digits. Not cryptographic: it detects
    /// change, it does not defend against an adversary (nothing here trusts it for that).
    public static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
