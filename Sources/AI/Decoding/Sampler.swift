// Picks the next token from logits, among the allowed ones, greedily or at random with a seed.
import Glibc

/// xoshiro256** seeded through SplitMix64: small, fast and the same on every platform.
struct SeededGenerator: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init(seed: UInt64) {
        var mix = seed
        func next() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (next(), next(), next(), next())
    }

    mutating func next() -> UInt64 {
        let result = ((state.1 &* 5) << 7 | (state.1 &* 5) >> 57) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3 << 45 | state.3 >> 19
        return result
    }
}

struct Sampler {
    let mode: GenerationOptions.SamplingMode.Mode
    let temperature: Double
    var generator: SeededGenerator

    init(options: GenerationOptions) {
        mode = options.sampling?.mode ?? .greedy
        temperature = max(options.temperature ?? 1, 1e-3)
        let seed: UInt64?
        switch mode {
        case .greedy: seed = 0
        case .topK(_, let s), .topP(_, let s): seed = s
        }
        generator = SeededGenerator(seed: seed ?? UInt64.random(in: .min ... .max))
    }

    var isGreedy: Bool { mode == .greedy }

    static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int32 {
        var best = 0
        var bestValue = -Float.infinity
        for index in 0..<logits.count where logits[index] > bestValue {
            best = index
            bestValue = logits[index]
        }
        return Int32(best)
    }

    /// The `count` most likely tokens, most likely first (ties: lower id first).
    static func ranked(_ logits: UnsafeBufferPointer<Float>, count: Int) -> [Int32] {
        let count = min(count, logits.count)
        var top: [Int32] = []
        top.reserveCapacity(count + 1)
        var floor = -Float.infinity
        for index in 0..<logits.count where top.count < count || logits[index] > floor {
            let value = logits[index]
            var position = top.count
            while position > 0 && logits[Int(top[position - 1])] < value { position -= 1 }
            top.insert(Int32(index), at: position)
            if top.count > count { top.removeLast() }
            if top.count == count { floor = logits[Int(top[count - 1])] }
        }
        return top
    }

    /// One token out of `allowed` (not empty).
    mutating func sample(_ logits: UnsafeBufferPointer<Float>, allowed: [Int32]) -> Int32 {
        switch mode {
        case .greedy:
            var best = allowed[0]
            for token in allowed where logits[Int(token)] > logits[Int(best)] { best = token }
            return best
        case .topK(let k, _):
            let ranked = allowed.sorted { logits[Int($0)] > logits[Int($1)] || (logits[Int($0)] == logits[Int($1)] && $0 < $1) }
            return draw(logits, Array(ranked.prefix(k)), threshold: 1)
        case .topP(let p, _):
            let ranked = allowed.sorted { logits[Int($0)] > logits[Int($1)] || (logits[Int($0)] == logits[Int($1)] && $0 < $1) }
            return draw(logits, ranked, threshold: p)
        }
    }

    /// Samples from the softmax over `ranked` (most likely first), cut at cumulative `threshold`.
    private mutating func draw(_ logits: UnsafeBufferPointer<Float>, _ ranked: [Int32], threshold: Double) -> Int32 {
        let top = Double(logits[Int(ranked[0])])
        var weights = ranked.map { exp((Double(logits[Int($0)]) - top) / temperature) }
        let total = weights.reduce(0, +)
        var cumulative = 0.0
        var kept = 0
        while kept < weights.count {
            cumulative += weights[kept] / total
            kept += 1
            if cumulative >= threshold { break }
        }
        weights.removeLast(weights.count - kept)
        let sum = weights.reduce(0, +)
        var pick = Double(generator.next() >> 11) / Double(1 << 53) * sum
        for (index, weight) in weights.enumerated() {
            pick -= weight
            if pick < 0 { return ranked[index] }
        }
        return ranked[kept - 1]
    }
}
