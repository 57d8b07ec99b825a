// What a request returns, and the snapshots a streamed request yields.

public struct Response<Content: Sendable>: Sendable {
    public var content: Content
    /// The generated text as it came out (JSON for a guided request).
    public var rawContent: String
    public var statistics: GenerationStatistics
}

public struct GenerationStatistics: Sendable, Hashable {
    public var promptTokens: Int
    /// Prompt tokens whose keys and values were already in the cache (instructions, a prewarmed prefix).
    public var reusedPromptTokens: Int
    /// Tokens of the response: sampled, plus fast-forwarded because the schema fixed them.
    public var responseTokens: Int
    public var sampledTokens: Int
    public var fastForwardedTokens: Int
    /// Steps where the model's most likely tokens all broke the schema and the whole vocabulary was masked.
    public var maskedSteps: Int
    var promptDuration: Duration
    public var generationDuration: Duration
    /// Response tokens copied from the prompt: drafted, checked and kept (`GenerationOptions.promptLookup`).
    public var draftedTokens = 0

    /// Response tokens per second of generation.
    public var tokensPerSecond: Double {
        let seconds = Double(generationDuration.components.seconds) + Double(generationDuration.components.attoseconds) * 1e-18
        return seconds > 0 ? Double(responseTokens) / seconds : 0
    }
}

/// A partially generated response: the text so far and, for guided requests, its content with
/// unfinished values cut where they stop (`isComplete` false on those).
public struct ResponseSnapshot: Sendable {
    public var rawContent: String
    public var content: GeneratedContent?
    public var isComplete: Bool

    /// The final snapshot's content as a typed value.
    func value<T: ConvertibleFromGeneratedContent>(_ type: T.Type = T.self) throws(GenerationDecodingError) -> T {
        guard let content, isComplete else { throw GenerationDecodingError("the response is not complete") }
        return try T(content)
    }
}

/// The longest prefix of `bytes` that ends on a whole UTF-8 character.
func completeUTF8Prefix(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    var end = bytes.count
    var continuation = 0
    while end > 0, continuation < 3, bytes[end - 1] & 0xC0 == 0x80 { end -= 1; continuation += 1 }
    guard end > 0 else { return bytes[...] }
    let lead = bytes[end - 1]
    let needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
    return needed > continuation ? bytes[..<(end - 1)] : bytes[...]
}
