// A small regular-expression language for string patterns, compiled to an NFA that the
// schema automaton runs byte by byte.

/// Whole-string match over printable ASCII: literals, `.`, classes (`[a-z0-9_]`, `[^,]`),
/// `\d` `\w` `\s` (space only) and escaped punctuation, groups, `|`, and the quantifiers `*`,
/// `+`, `?`, `{m}`, `{m,}`, `{m,n}`. `^` and `$` are accepted at the ends. Generated strings
/// never contain `"` or `\` through a pattern (JSON would need escapes for them).
struct Pattern: Sendable, Hashable {
    /// A set of printable ASCII bytes.
    struct ByteSet: Sendable, Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        static let printable: ByteSet = {
            var set = ByteSet()
            for byte in UInt8(0x20)..<0x7F where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { set.insert(byte) }
            return set
        }()

        mutating func insert(_ byte: UInt8) {
            guard byte < 128 else { return }
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }

        func contains(_ byte: UInt8) -> Bool {
            guard byte < 128 else { return false }
            return byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0
        }

        var isEmpty: Bool { low == 0 && high == 0 }
        var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }
        var first: UInt8? { low != 0 ? UInt8(low.trailingZeroBitCount) : high != 0 ? UInt8(64 + high.trailingZeroBitCount) : nil }
        func union(_ other: ByteSet) -> ByteSet { ByteSet(low: low | other.low, high: high | other.high) }
        func intersection(_ other: ByteSet) -> ByteSet { ByteSet(low: low & other.low, high: high & other.high) }
        func inverted() -> ByteSet { ByteSet(low: ~low, high: ~high).intersection(.printable) }
    }

    /// NFA states as a bit set (at most 128 states).
    struct StateSet: Sendable, Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        func contains(_ state: Int) -> Bool { state < 64 ? low & (1 << UInt64(state)) != 0 : high & (1 << UInt64(state - 64)) != 0 }
        mutating func insert(_ state: Int) { if state < 64 { low |= 1 << UInt64(state) } else { high |= 1 << UInt64(state - 64) } }
        mutating func formUnion(_ other: StateSet) { low |= other.low; high |= other.high }
        var isEmpty: Bool { low == 0 && high == 0 }

        func forEach(_ body: (Int) -> Void) {
            var word = low
            while word != 0 { body(word.trailingZeroBitCount); word &= word - 1 }
            word = high
            while word != 0 { body(64 + word.trailingZeroBitCount); word &= word - 1 }
        }
    }

    private indirect enum Node {
        case bytes(ByteSet)
        case sequence([Node])
        case choice([Node])
        case repeated(Node, minimum: Int, maximum: Int?)
    }

    let source: String
    /// Per state: the bytes its one consuming edge takes (empty when it has none) and its target.
    private(set) var edges: [ByteSet] = []
    private(set) var targets: [Int] = []
    private var epsilon: [[Int]] = []
    /// Epsilon closure of each state, and the fewest bytes from each state to the accepting one.
    private(set) var closures: [StateSet] = []
    private(set) var distances: [Int] = []
    private(set) var accept = 0
    private(set) var start = StateSet()

    static func == (lhs: Pattern, rhs: Pattern) -> Bool { lhs.source == rhs.source }
    func hash(into hasher: inout Hasher) { hasher.combine(source) }

    init(_ source: String) throws(SchemaError) {
        self.source = source
        var parser = Parser(bytes: Array(source.utf8))
        let node = try parser.parse()
        let (entry, exit) = build(node)
        accept = exit
        guard edges.count <= 128 else { throw SchemaError("pattern \(source) needs more than 128 states") }
        closures = (0..<edges.count).map { closure(of: $0) }
        distances = Self.distances(edges: edges, targets: targets, epsilon: epsilon, accept: accept)
        start = closures[entry]
        guard distances[entry] < Int.max else { throw SchemaError("pattern \(source) matches no string without \" or \\") }
    }

    /// The states after reading `byte` from `states`, keeping only those that can still finish.
    func step(_ states: StateSet, _ byte: UInt8) -> StateSet {
        var next = StateSet()
        states.forEach { state in
            if edges[state].contains(byte) { next.formUnion(closures[targets[state]]) }
        }
        return next
    }

    func isAccepting(_ states: StateSet) -> Bool { states.contains(accept) }

    /// Whether the whole text matches.
    func matches(_ text: String) -> Bool {
        var states = start
        for byte in text.utf8 {
            states = step(states, byte)
            if states.isEmpty { return false }
        }
        return isAccepting(states)
    }

    /// The fewest more bytes needed to match from `states`.
    func remaining(_ states: StateSet) -> Int {
        var best = Int.max
        states.forEach { best = min(best, distances[$0]) }
        return best
    }

    /// The bytes that can come next from `states`.
    func nextBytes(_ states: StateSet) -> ByteSet {
        var set = ByteSet()
        states.forEach { set = set.union(edges[$0]) }
        return set
    }

    // MARK: Construction

    private mutating func newState() -> Int {
        edges.append(ByteSet())
        targets.append(-1)
        epsilon.append([])
        return edges.count - 1
    }

    /// Thompson construction: returns the fragment's entry and exit states.
    private mutating func build(_ node: Node) -> (Int, Int) {
        switch node {
        case .bytes(let set):
            let entry = newState()
            let exit = newState()
            edges[entry] = set.intersection(.printable)
            targets[entry] = exit
            return (entry, exit)
        case .sequence(let parts):
            let entry = newState()
            var last = entry
            for part in parts {
                let (partEntry, partExit) = build(part)
                epsilon[last].append(partEntry)
                last = partExit
            }
            return (entry, last)
        case .choice(let options):
            let entry = newState()
            let exit = newState()
            for option in options {
                let (optionEntry, optionExit) = build(option)
                epsilon[entry].append(optionEntry)
                epsilon[optionExit].append(exit)
            }
            return (entry, exit)
        case .repeated(let inner, let minimum, let maximum):
            let entry = newState()
            var last = entry
            for _ in 0..<minimum {
                let (innerEntry, innerExit) = build(inner)
                epsilon[last].append(innerEntry)
                last = innerExit
            }
            let exit = newState()
            if let maximum {
                for _ in minimum..<maximum {
                    let (innerEntry, innerExit) = build(inner)
                    epsilon[last].append(innerEntry)
                    epsilon[last].append(exit)
                    last = innerExit
                }
                epsilon[last].append(exit)
            } else {
                let (innerEntry, innerExit) = build(inner)
                epsilon[last].append(innerEntry)
                epsilon[last].append(exit)
                epsilon[innerExit].append(innerEntry)
                epsilon[innerExit].append(exit)
            }
            return (entry, exit)
        }
    }

    private func closure(of state: Int) -> StateSet {
        var set = StateSet()
        var stack = [state]
        while let current = stack.popLast() {
            guard !set.contains(current) else { continue }
            set.insert(current)
            stack += epsilon[current]
        }
        return set
    }

    private static func distances(edges: [ByteSet], targets: [Int], epsilon: [[Int]], accept: Int) -> [Int] {
        // Bellman-Ford style relaxation over a small graph: epsilon edges cost 0, bytes 1.
        var distance = [Int](repeating: Int.max, count: edges.count)
        distance[accept] = 0
        var changed = true
        while changed {
            changed = false
            for state in edges.indices {
                var best = distance[state]
                for next in epsilon[state] where distance[next] < best { best = distance[next] }
                if !edges[state].isEmpty, targets[state] >= 0, distance[targets[state]] < Int.max {
                    best = min(best, distance[targets[state]] + 1)
                }
                if best < distance[state] { distance[state] = best; changed = true }
            }
        }
        return distance
    }

    // MARK: Parsing

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func parse() throws(SchemaError) -> Node {
            if bytes.first == UInt8(ascii: "^") { index += 1 }
            var end = bytes.count
            if end > index, bytes[end - 1] == UInt8(ascii: "$"), end < 2 || bytes[end - 2] != UInt8(ascii: "\\") { end -= 1 }
            let node = try alternation(until: end)
            guard index == end else { throw error("unexpected )") }
            return node
        }

        func error(_ message: String) -> SchemaError {
            SchemaError("pattern \(String(decoding: bytes, as: UTF8.self)): \(message) at \(index)")
        }

        mutating func alternation(until end: Int) throws(SchemaError) -> Node {
            var options = [try sequence(until: end)]
            while index < end, bytes[index] == UInt8(ascii: "|") {
                index += 1
                options.append(try sequence(until: end))
            }
            return options.count == 1 ? options[0] : .choice(options)
        }

        mutating func sequence(until end: Int) throws(SchemaError) -> Node {
            var parts: [Node] = []
            while index < end, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")") {
                var atom = try self.atom(until: end)
                quantifiers: while index < end {
                    switch bytes[index] {
                    case UInt8(ascii: "*"): index += 1; atom = .repeated(atom, minimum: 0, maximum: nil)
                    case UInt8(ascii: "+"): index += 1; atom = .repeated(atom, minimum: 1, maximum: nil)
                    case UInt8(ascii: "?"): index += 1; atom = .repeated(atom, minimum: 0, maximum: 1)
                    case UInt8(ascii: "{"):
                        index += 1
                        let minimum = try number()
                        var maximum: Int? = minimum
                        if index < end, bytes[index] == UInt8(ascii: ",") {
                            index += 1
                            maximum = index < end && bytes[index] != UInt8(ascii: "}") ? try number() : nil
                        }
                        guard index < end, bytes[index] == UInt8(ascii: "}") else { throw error("expected }") }
                        index += 1
                        if let maximum, maximum < minimum { throw error("bad repetition") }
                        guard minimum <= 32, (maximum ?? 0) <= 32 else { throw error("repetition over 32") }
                        atom = .repeated(atom, minimum: minimum, maximum: maximum)
                    default:
                        break quantifiers
                    }
                }
                parts.append(atom)
            }
            return parts.count == 1 ? parts[0] : .sequence(parts)
        }

        mutating func number() throws(SchemaError) -> Int {
            var value = 0
            var digits = 0
            while index < bytes.count, let digit = decimal(bytes[index]) {
                value = value * 10 + digit
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw error("expected a number") }
            return value
        }

        func decimal(_ byte: UInt8) -> Int? { byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil }

        mutating func atom(until end: Int) throws(SchemaError) -> Node {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "("):
                if index + 1 < end, bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ":") { index += 2 }
                let inner = try alternation(until: end)
                guard index < end, bytes[index] == UInt8(ascii: ")") else { throw error("expected )") }
                index += 1
                return inner
            case UInt8(ascii: "."): return .bytes(.printable)
            case UInt8(ascii: "["): return .bytes(try characterClass(until: end))
            case UInt8(ascii: "\\"): return .bytes(try escape(until: end))
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"): throw error("nothing to repeat")
            default:
                guard byte >= 0x20, byte < 0x7F else { throw error("only printable ASCII is supported") }
                var set = ByteSet()
                set.insert(byte)
                return .bytes(set)
            }
        }

        mutating func escape(until end: Int) throws(SchemaError) -> ByteSet {
            guard index < end else { throw error("trailing \\") }
            let byte = bytes[index]
            index += 1
            var set = ByteSet()
            switch byte {
            case UInt8(ascii: "d"): for b in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(b) }
            case UInt8(ascii: "w"):
                for b in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(b) }
                for b in UInt8(ascii: "a")...UInt8(ascii: "z") { set.insert(b) }
                for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { set.insert(b) }
                set.insert(UInt8(ascii: "_"))
            case UInt8(ascii: "s"): set.insert(0x20)
            default:
                guard byte >= 0x20, byte < 0x7F, !(byte >= 0x30 && byte <= 0x39), !((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) else {
                    throw error("unsupported escape")
                }
                set.insert(byte)
            }
            return set
        }

        mutating func characterClass(until end: Int) throws(SchemaError) -> ByteSet {
            var negated = false
            if index < end, bytes[index] == UInt8(ascii: "^") { negated = true; index += 1 }
            var set = ByteSet()
            var first = true
            while index < end, bytes[index] != UInt8(ascii: "]") || first {
                first = false
                var low: UInt8
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 1
                    let escaped = try escape(until: end)
                    if escaped.count != 1 { set = set.union(escaped); continue }
                    low = escaped.first!
                } else {
                    low = bytes[index]
                    index += 1
                }
                if index + 1 < end, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] != UInt8(ascii: "]") {
                    let high = bytes[index + 1]
                    index += 2
                    guard low <= high else { throw error("bad range") }
                    for b in low...high { set.insert(b) }
                } else {
                    set.insert(low)
                }
            }
            guard index < end else { throw error("expected ]") }
            index += 1
            return negated ? set.inverted() : set.intersection(.printable)
        }
    }
}
