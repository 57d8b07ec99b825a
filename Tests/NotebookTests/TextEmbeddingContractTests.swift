// The TextEmbedding contract (Notebook/Search/TextEmbedding.swift), checked on every embedder
// behind the port: the multilingual model set-up installs, and the FakeEmbedder that the search,
// related-notes and vector-queue tests trust to behave as the real one does.
import AI
import Foundation
import NotebookTestSupport
import Testing
@testable import Notebook

enum EmbedderKind: String, CaseIterable, CustomTestStringConvertible {
    case multilingual, fake
    var testDescription: String { rawValue }

    static let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
    static let multilingualPath = deps + "/e5/" + MultilingualEmbeddingModel.installedName
    /// One model for every test, loaded once.
    static let shared = MultilingualEmbeddingModel(path: multilingualPath, threads: 1)

    /// The kinds this machine can check: the real model only when set-up installed it.
    static var available: [EmbedderKind] {
        allCases.filter { $0 != .multilingual || FileManager.default.fileExists(atPath: multilingualPath) }
    }

    func make() -> any TextEmbedding {
        switch self {
        case .multilingual: Self.shared
        case .fake: FakeEmbedder()
        }
    }
}

struct TextEmbeddingContractTests {
    static let documents = ["Take the cat to the vet for its jabs", "Pay the landlord the rent for the flat",
                            "The hoover broke again", String(repeating: "A long diary entry about the week. ", count: 120)]

    func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
    func length(_ vector: [Float]) -> Float { vector.reduce(0) { $0 + $1 * $1 }.squareRoot() }

    @Test(arguments: EmbedderKind.available)
    func itIsAvailableAndNamesItsVersion(_ kind: EmbedderKind) {
        let embedder = kind.make()
        #expect(embedder.unavailableReason() == nil)
        #expect(!embedder.version.isEmpty)
        #expect(embedder.queryFloor > -1 && embedder.queryFloor < 1)
        #expect(embedder.relatedFloor > -1 && embedder.relatedFloor < 1)
    }

    @Test(arguments: EmbedderKind.available)
    func everyDocumentHasUnitVectorsOfTheQueriesWidth(_ kind: EmbedderKind) throws {
        let embedder = kind.make()
        let query = try embedder.embed(query: "kitty vaccinations")
        #expect(abs(length(query) - 1) < 1e-3)
        let documents = try embedder.embed(documents: Self.documents)
        #expect(documents.count == Self.documents.count, "one entry a document")
        for chunks in documents {
            #expect(!chunks.isEmpty, "at least one chunk")
            for vector in chunks {
                #expect(vector.count == query.count)
                #expect(abs(length(vector) - 1) < 1e-3)
            }
        }
    }

    /// The same text gives the same direction. Not the same bits: llama.cpp's encoder on these
    /// cores gave one text's multilingual vectors differing by up to 1e-3 a component from one
    /// call to the next (cosine 0.99997; seen while other tests embedded beside them), which no
    /// ranking notices.
    @Test(arguments: EmbedderKind.available)
    func theSameTextGivesTheSameVector(_ kind: EmbedderKind) throws {
        let embedder = kind.make()
        let query = try embedder.embed(query: "the boiler is banging")
        #expect(cosine(try embedder.embed(query: "the boiler is banging"), query) > 0.999)
        let document = try embedder.embed(documents: [Self.documents[0]])
        let again = try embedder.embed(documents: [Self.documents[0]])
        #expect(again.map(\.count) == document.map(\.count))
        #expect(cosine(again[0][0], document[0][0]) > 0.999)
    }

    /// What search by meaning rests on: a query in other words than the note's is closer to it
    /// than to an unrelated note, and above the embedder's own floor.
    @Test(arguments: EmbedderKind.available)
    func aQueryInOtherWordsIsNearestTheNoteThatMeansIt(_ kind: EmbedderKind) throws {
        let embedder = kind.make()
        let query = try embedder.embed(query: "kitty vaccinations")
        let documents = try embedder.embed(documents: Array(Self.documents.prefix(2)))
        let meant = cosine(query, documents[0][0]), unrelated = cosine(query, documents[1][0])
        #expect(meant > unrelated)
        #expect(meant >= embedder.queryFloor, "\(meant) against the floor \(embedder.queryFloor)")
    }
}
