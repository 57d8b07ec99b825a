// The embedding model through llama.cpp, with the real all-MiniLM-L6-v2 that set-up installs:
// unit vectors of 384 floats, paraphrases closer than unrelated text, long text in chunks, and a
// missing model reported, not crashed on.
import Foundation
import Testing
@testable import AI

struct EmbeddingModelTests {
    static let model = EmbeddingModel(path: (ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps") + "/embedding-model.gguf")

    func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }

    @Test func paraphrasesAreCloserThanUnrelatedNotes() throws {
        let model = Self.model
        #expect(model.availability == .available)
        let query = try model.embed(query: "the cat's jabs")
        #expect(query.count == 384)
        #expect(abs(cosine(query, query) - 1) < 1e-4, "unit length")
        let notes = try model.embed(documents: ["Take the cat to the vet for her vaccinations", "Buy a new vacuum cleaner", "Quarterly tax return"])
        #expect(notes.map(\.count) == [1, 1, 1])
        let scores = notes.map { cosine(query, $0[0]) }
        #expect(scores[0] > 0.4, "\(scores)")
        #expect(scores[0] > scores[1] + 0.2 && scores[0] > scores[2] + 0.2, "\(scores)")
        #expect(cosine(try model.embed(query: "hoover"), notes[1][0]) > cosine(try model.embed(query: "hoover"), notes[2][0]))
    }

    @Test func aNoteEmbedsAloneAsInABatchAndLongTextInChunks() throws {
        let model = Self.model
        let short = "Dentist appointment on Tuesday"
        let alone = try model.embed(documents: [short])[0][0]
        let long = String(repeating: "The quarterly budget review moved to the big meeting room. ", count: 120)
        let batch = try model.embed(documents: [long, short])
        #expect(batch[0].count > 1 && batch[0].count <= EmbeddingModel.maximumChunks, "\(batch[0].count) chunks")
        #expect(cosine(alone, batch[1][0]) > 0.999, "other sequences in the batch do not leak into this one")
        #expect(cosine(alone, try model.embed(query: short)) > 0.999)
        // A 10 MB note is read from its start, not tokenized whole: what comes after its first
        // `maximumBytes` changes none of its vectors, and that start fills every chunk.
        let huge = String(repeating: "word ", count: 2_000_000)
        let otherEnd = huge + String(repeating: "Quarterly tax return. ", count: 1_000)
        #expect(EmbeddingModel.leadingBytes(of: huge, limit: EmbeddingModel.maximumBytes).count == EmbeddingModel.maximumBytes)
        let vectors = try model.embed(documents: [huge, otherEnd, String(huge.utf8.prefix(EmbeddingModel.maximumBytes))!])
        #expect(vectors[0].count == EmbeddingModel.maximumChunks)
        // The same chunks, each in its own batch row (a row's sums may round otherwise: not ==).
        for other in vectors.dropFirst() {
            #expect(other.count == vectors[0].count && zip(other, vectors[0]).allSatisfy { cosine($0, $1) > 0.999 },
                    "only the note's first \(EmbeddingModel.maximumBytes) bytes are read")
        }
    }

    @Test func aMissingModelIsUnavailableWithItsReason() {
        let model = EmbeddingModel(path: "/nonexistent/embedding.gguf")
        #expect(model.availability == .unavailable("model file not found: /nonexistent/embedding.gguf"))
        #expect(throws: GenerationError.modelUnavailable("model file not found: /nonexistent/embedding.gguf")) { try model.embed(query: "x") }
        #expect(model.version.contains("missing"))
    }
}
