// A model's tokens as bytes, with a byte trie over them for masking tokens by automaton state.

/// What the guided decoder needs from a tokenizer: each token's bytes and which tokens end a turn.
package final class Vocabulary: @unchecked Sendable {
    /// The bytes each token stands for; empty for control tokens, which are never generated.
    package let pieces: [[UInt8]]
    package let endOfGeneration: Set<Int32>
    let trie: ByteTrie

    package init(pieces: [[UInt8]], endOfGeneration: Set<Int32>) {
        self.pieces = pieces
        self.endOfGeneration = endOfGeneration
        trie = ByteTrie(pieces: pieces)
    }

    package var count: Int { pieces.count }
}

/// Every token piece in one trie, built once per model. Children are linked lists, so that a
/// walk visits only the edges the automaton accepts from each node's state.
struct ByteTrie {
    var firstChild: [Int32] = [-1]
    var nextSibling: [Int32] = [-1]
    var byte: [UInt8] = [0]
    /// Tokens whose piece ends at the node: a range of `tokens`.
    var tokenStart: [Int32] = [0]
    var tokenCount: [Int32] = [0]
    var tokens: [Int32] = []

    init(pieces: [[UInt8]]) {
        let order = pieces.indices.filter { !pieces[$0].isEmpty }.sorted { pieces[$0].lexicographicallyPrecedes(pieces[$1]) }
        tokens.reserveCapacity(order.count)
        // Sorted insertion: the path of the previous piece is the only one that can be shared.
        var path: [Int32] = [0]
        var previous: [UInt8] = []
        var lastChild: [Int32] = [-1]
        for token in order {
            let piece = pieces[token]
            var common = 0
            while common < piece.count, common < previous.count, piece[common] == previous[common] { common += 1 }
            path.removeLast(path.count - common - 1)
            for depth in common..<piece.count {
                let parent = path[depth]
                let node = Int32(byte.count)
                firstChild.append(-1)
                nextSibling.append(-1)
                byte.append(piece[depth])
                tokenStart.append(0)
                tokenCount.append(0)
                lastChild.append(-1)
                if lastChild[Int(parent)] < 0 { firstChild[Int(parent)] = node } else { nextSibling[Int(lastChild[Int(parent)])] = node }
                lastChild[Int(parent)] = node
                path.append(node)
            }
            let end = Int(path[piece.count])
            if tokenCount[end] == 0 { tokenStart[end] = Int32(tokens.count) }
            tokens.append(Int32(token))
            tokenCount[end] += 1
            previous = piece
        }
    }

    /// Calls `allow` for every token whose whole piece the automaton accepts from `state`.
    func forEachAllowed(from state: SchemaAutomaton, _ allow: (Int32) -> Void) {
        visit(node: 0, state: state, allow)
    }

    private func visit(node: Int32, state: SchemaAutomaton, _ allow: (Int32) -> Void) {
        var child = firstChild[Int(node)]
        while child >= 0 {
            var next = state
            if next.feed(byte[Int(child)]) {
                let count = Int(tokenCount[Int(child)])
                if count > 0 {
                    let start = Int(tokenStart[Int(child)])
                    for index in start..<(start + count) { allow(tokens[index]) }
                }
                if firstChild[Int(child)] >= 0 { visit(node: child, state: next, allow) }
            }
            child = nextSibling[Int(child)]
        }
    }
}
