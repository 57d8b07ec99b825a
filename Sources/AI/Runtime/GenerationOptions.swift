// How tokens are chosen, as in FoundationModels' GenerationOptions.

public struct GenerationOptions: Sendable, Hashable {
    public struct SamplingMode: Sendable, Hashable {
        enum Mode: Hashable {
            case greedy
            case topK(Int, seed: UInt64?)
            case topP(Double, seed: UInt64?)
        }
        let mode: Mode

        /// Always the most likely allowed token: deterministic, and the fastest path.
        public static var greedy: SamplingMode { SamplingMode(mode: .greedy) }
        /// Samples among the `top` most likely allowed tokens; a seed makes it repeatable.
        public static func random(top: Int, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(mode: .topK(max(1, top), seed: seed))
        }
        /// Samples among the most likely allowed tokens whose probabilities add up to `threshold`.
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(mode: .topP(min(max(probabilityThreshold, 0), 1), seed: seed))
        }
    }

    /// Nil means greedy: note analysis wants the same answer for the same note.
    public var sampling: SamplingMode?
    /// Divides the logits before sampling; nil means 1. Ignored by greedy sampling.
    public var temperature: Double?
    public var maximumResponseTokens: Int?
    /// Copies (prompt-lookup decoding, greedy guided generation only): after each sampled token,
    /// up to this many tokens that follow the output's last tokens in the prompt are drafted and
    /// checked in one evaluation; the output is the same as without. Nil or 0: off.
    public var promptLookup: Int?

    public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil, promptLookup: Int? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.promptLookup = promptLookup
    }
}
