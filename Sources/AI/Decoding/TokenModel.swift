// The seam between guided decoding and a language model: llama.cpp in the product, a seeded
// fake in the property tests.

package protocol TokenModel: AnyObject {
    var vocabulary: Vocabulary { get }
    /// The tokens for these bytes (no special tokens), or nil when they cannot be tokenized.
    func tokenize(_ bytes: [UInt8]) -> [Int32]?
    /// Appends tokens to the sequence and returns the logits of the token after the last one,
    /// valid until the next call.
    func append(_ tokens: [Int32]) throws(GenerationError) -> UnsafeBufferPointer<Float>
    /// Appends tokens and returns the logits after each of them, valid until the next call:
    /// for checking drafted tokens in one evaluation.
    func appendEach(_ tokens: [Int32]) throws(GenerationError) -> [UnsafeBufferPointer<Float>]
    /// Drops the last `count` tokens of the sequence (drafted tokens that were refused).
    func dropLast(_ count: Int)
}
