// The port through which the notebook turns text into vectors, whatever model does it (AI's
// EmbeddingModel, below; the tests a fake).
import AI

public protocol TextEmbedding: Sendable {
    /// Stored with every vector: vectors of another version are not current.
    var version: String { get }

    /// Why embeddings cannot be made now (no model file, no library), or nil when they can.
    func unavailableReason() -> String?

    /// One unit-length vector for a search query.
    func embed(query: String) throws -> [Float]

    /// For each document (a note's title and body), the unit-length vectors of its chunks, in
    /// order, at least one.
    func embed(documents: [String]) throws -> [[[Float]]]
}

extension EmbeddingModel: TextEmbedding {
    public func unavailableReason() -> String? {
        if case let .unavailable(reason) = availability { return reason }
        return nil
    }
}
