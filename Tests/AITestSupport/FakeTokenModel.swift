// A seeded stand-in for a language model: a random byte-level vocabulary and random logits.
// Checked against the same contract as llama.cpp's context (Tests/AITests/TokenModelContractTests.swift).
import AI
import Notes

package final class FakeTokenModel: TokenModel {
    package let vocabulary: Vocabulary
    private var generator: SeededGenerator
    private let logits: UnsafeMutableBufferPointer<Float>
    package private(set) var appended: [Int32] = []
    /// Calls to `append` and `appendEach`: the decode steps a real model would take.
    package private(set) var evaluations = 0
    package let endToken: Int32
    /// Each piece's token, for `tokenize`.
    private let tokenOfPiece: [[UInt8]: Int32]
    private let longestPiece: Int

    /// Every single byte is a token (as in byte-level BPE), plus `extraPieces` random multi-byte
    /// pieces drawn from JSON-ish fragments, and one end-of-generation token with no text.
    package init(seed: UInt64, extraPieces: Int = 300) {
        generator = SeededGenerator(seed: seed)
        var pieces: [[UInt8]] = (0...255).map { [UInt8($0)] }
        let fragments: [[UInt8]] = [
            "\"", "\\", "\\\"", "\\n", "\\u00", "\\ud83d", ", ", "\": ", ": ", "{", "}", "[", "]", "{\"", "\"}", "\"]",
            "true", "false", "null", "-", ".", "0", "1", "5", "10", "100", "42", "-1", "3.14", "e", "E",
            "a", "the", " note", "work", "personal", "é", "😀", "日本", " ", "\n", "\t",
        ].map { Array($0.utf8) } + [[0xF0, 0x9F], [0x98, 0x80], [0xC3], [0xA9], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xFF]]
        var seen = Set(pieces)
        while pieces.count < 256 + extraPieces {
            var piece: [UInt8] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) { piece += fragments.randomElement(using: &generator)! }
            if seen.insert(piece).inserted { pieces.append(piece) }
        }
        endToken = Int32(pieces.count)
        pieces.append([])
        vocabulary = Vocabulary(pieces: pieces, endOfGeneration: [endToken])
        tokenOfPiece = Dictionary(pieces.indices.filter { !pieces[$0].isEmpty }.map { (pieces[$0], Int32($0)) }, uniquingKeysWith: { first, _ in first })
        longestPiece = pieces.map(\.count).max() ?? 1
        logits = .allocate(capacity: pieces.count)
        logits.initialize(repeating: 0)
    }

    deinit {
        logits.deallocate()
        for buffer in kept { buffer.deallocate() }
    }

    /// Longest match first: always succeeds, every byte is a token.
    package func tokenize(_ bytes: [UInt8]) -> [Int32]? {
        var result: [Int32] = []
        var start = 0
        while start < bytes.count {
            var length = min(longestPiece, bytes.count - start)
            while length > 0, tokenOfPiece[Array(bytes[start..<start + length])] == nil { length -= 1 }
            guard length > 0, let token = tokenOfPiece[Array(bytes[start..<start + length])] else { return nil }
            result.append(token)
            start += length
        }
        return result
    }

    package func append(_ tokens: [Int32]) throws(GenerationError) -> UnsafeBufferPointer<Float> {
        appended += tokens
        evaluations += 1
        return contextual ? logits(after: appended.count) : nextLogits()
    }

    package func appendEach(_ tokens: [Int32]) throws(GenerationError) -> [UnsafeBufferPointer<Float>] {
        let start = appended.count
        appended += tokens
        evaluations += 1
        guard contextual else { return tokens.map { _ in copy(nextLogits()) } }
        return (1...tokens.count).map { copy(logits(after: start + $0)) }
    }

    package func dropLast(_ count: Int) { appended.removeLast(count) }

    /// Contextual logits are a function of the tokens appended so far, as a real model's are:
    /// then the same sequence gives the same logits however it was evaluated (drafts or not).
    package var contextual = false

    /// The logits after the first `count` appended tokens, from a hash of them.
    package func logits(after count: Int) -> UnsafeBufferPointer<Float> {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for token in appended.prefix(count) { hash = (hash ^ UInt64(UInt32(bitPattern: token))) &* 0x100_0000_01b3 }
        var local = SeededGenerator(seed: hash)
        for index in logits.indices { logits[index] = Float.random(in: -4...4, using: &local) }
        // Spikes on the bytes of JSON-ish text, so that the output has some length.
        for _ in 0..<3 { logits[Int.random(in: 0..<logits.count, using: &local)] += 8 }
        return UnsafeBufferPointer(logits)
    }

    /// Buffers that outlive the next call, as `appendEach` promises.
    private var kept: [UnsafeMutableBufferPointer<Float>] = []
    private func copy(_ buffer: UnsafeBufferPointer<Float>) -> UnsafeBufferPointer<Float> {
        let owned = UnsafeMutableBufferPointer<Float>.allocate(capacity: buffer.count)
        _ = owned.initialize(from: buffer)
        kept.append(owned)
        return UnsafeBufferPointer(owned)
    }

    /// Fresh random logits, with a few spikes so that greedy picks vary.
    package func nextLogits() -> UnsafeBufferPointer<Float> {
        for index in logits.indices { logits[index] = Float.random(in: -4...4, using: &generator) }
        for _ in 0..<3 { logits[Int.random(in: 0..<logits.count, using: &generator)] += 8 }
        return UnsafeBufferPointer(logits)
    }
}
