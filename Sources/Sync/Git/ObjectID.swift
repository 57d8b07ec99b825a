// A git object id (SHA-1) as a Swift value, so no git_oid outlives the call that produced it.
import CGit2

public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    init(_ oid: git_oid) {
        var copy = oid
        bytes = withUnsafeBytes(of: &copy.id) { Array($0) }
    }

    /// Parses 40 hex digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 40 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(20)
        for i in stride(from: 0, to: 40, by: 2) {
            guard let high = ObjectID.nibble(digits[i]), let low = ObjectID.nibble(digits[i + 1]) else { return nil }
            result.append(high << 4 | low)
        }
        bytes = result
    }

    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    var oid: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { $0.copyBytes(from: bytes) }
        return oid
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}
