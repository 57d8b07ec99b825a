// An embedder without a model, for search, related notes and the vectors' queue: checked against
// the same contract as the multilingual model (Tests/NotebookTests/TextEmbeddingContractTests.swift).
import Foundation
import Notebook

/// A vector per concept: each word counts for the concept it names (vet, jabs and cat are one
/// concept; hoover and vacuum another), so texts in other words are close.
public final class FakeEmbedder: TextEmbedding, @unchecked Sendable {
    public static let concepts: [[String]] = [["cat", "vet", "jabs", "kitty", "vaccinations"], ["hoover", "vacuum", "cleaner"],
                                              ["rent", "landlord", "flat"], ["dentist", "crown", "teeth"]]
    public var version = "fake-embedder-1"
    public var failing = false
    public private(set) var embedded: [String] = []

    public init() {}

    public func unavailableReason() -> String? { nil }

    public func vector(_ text: String) -> [Float] {
        var vector = [Float](repeating: 0, count: Self.concepts.count + 1)
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
            let concept = Self.concepts.firstIndex { $0.contains(String(word)) } ?? Self.concepts.count
            vector[concept] += concept == Self.concepts.count ? 0.05 : 1
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }

    public struct Failure: Error {}

    public func embed(query: String) throws -> [Float] { vector(query) }

    public func embed(documents: [String]) throws -> [[[Float]]] {
        if failing { throw Failure() }
        embedded += documents
        return documents.map { [vector($0)] }
    }
}
