// A 3-way line merge (diff3): changes on one side apply; overlapping different changes are a
// conflict, reported as such and never written with markers.

public enum LineMerge {
    public enum Outcome: Equatable, Sendable {
        case merged(String)
        case conflict
    }

    /// Merges `ours` and `theirs`, both derived from `base`. Lines split on "\n" only, so a
    /// "\r" stays part of its line (CRLF text merges as written) and a missing final newline is
    /// kept as it is: joining the lines gives the text back byte for byte.
    public static func merge(base: String, ours: String, theirs: String) -> Outcome {
        if ours == theirs || theirs == base { return .merged(ours) }
        if ours == base { return .merged(theirs) }
        let o = lines(base), a = lines(ours), b = lines(theirs)
        let matchA = matches(o, a), matchB = matches(o, b)
        var result: [Substring] = []
        var io = 0, ia = 0, ib = 0
        while io < o.count || ia < a.count || ib < b.count {
            var stable = 0
            while io + stable < o.count, matchA[io + stable] == ia + stable, matchB[io + stable] == ib + stable { stable += 1 }
            if stable > 0 {
                result += o[io..<io + stable]
                io += stable; ia += stable; ib += stable
                continue
            }
            // The next base line both sides kept ends this unstable chunk.
            var next = io
            while next < o.count, matchA[next] == nil || matchB[next] == nil { next += 1 }
            let endA = next < o.count ? matchA[next]! : a.count
            let endB = next < o.count ? matchB[next]! : b.count
            let chunkO = o[io..<next], chunkA = a[ia..<endA], chunkB = b[ib..<endB]
            if chunkA.elementsEqual(chunkO) {
                result += chunkB
            } else if chunkB.elementsEqual(chunkO) || chunkA.elementsEqual(chunkB) {
                result += chunkA
            } else {
                return .conflict
            }
            io = next; ia = endA; ib = endB
        }
        return .merged(result.joined(separator: "\n"))
    }

    /// Split on the scalar U+000A: as Characters, "\r\n" is one grapheme that "\n" never equals.
    static func lines(_ text: String) -> [Substring] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// For each line of `base`, the index of the line it matches in `other` (a longest common
    /// subsequence), or nil. Common prefix and suffix are matched first; the middle by dynamic
    /// programming, or left unmatched when it is too large to compare (a conflict at worst,
    /// never a wrong merge).
    static func matches(_ base: [Substring], _ other: [Substring]) -> [Int?] {
        var result = [Int?](repeating: nil, count: base.count)
        var prefix = 0
        while prefix < base.count, prefix < other.count, base[prefix] == other[prefix] {
            result[prefix] = prefix
            prefix += 1
        }
        var suffix = 0
        while suffix < base.count - prefix, suffix < other.count - prefix,
              base[base.count - 1 - suffix] == other[other.count - 1 - suffix] {
            result[base.count - 1 - suffix] = other.count - 1 - suffix
            suffix += 1
        }
        let n = base.count - prefix - suffix, m = other.count - prefix - suffix
        guard n > 0, m > 0, n * m <= 4_000_000 else { return result }
        // lengths[i][j]: LCS length of base[prefix+i...] and other[prefix+j...] (middle only).
        var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * (m + 1) + j] = base[prefix + i] == other[prefix + j]
                    ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
            }
        }
        var i = 0, j = 0
        while i < n, j < m {
            if base[prefix + i] == other[prefix + j] {
                result[prefix + i] = prefix + j
                i += 1; j += 1
            } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }
}
