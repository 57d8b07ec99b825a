// Stored vectors: current by content hash and model version, refused when stale, dropped on edit
// and delete; the nearest notes by a scan, with filters.
import Notes
import Testing
@testable import Storage

struct VectorStoreTests {
    static let model = "test-model:1:chunks"

    func unit(_ values: [Float]) -> [Float] {
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return values.map { $0 / norm }
    }

    @Test func aNoteLacksVectorsUntilStoredAndAgainAfterAnEditOrAnotherModel() throws {
        let store = try inMemoryStore()
        var note = try makeNote("walk the dog")
        try store.insert(note)
        #expect(try store.notesLackingVectors(model: Self.model).map(\.id) == [note.id])
        #expect(try store.saveVectors([unit([1, 0, 0])], for: note.id, contentHash: note.contentHash, model: Self.model))
        #expect(try store.lackingVectorCount(model: Self.model) == 0)
        #expect(try store.lackingVectorCount(model: "other") == 1)
        #expect(try store.vectors(for: note.id, model: Self.model) == [unit([1, 0, 0])])

        let stale = note.contentHash
        note.body = "walk the dog twice"
        try store.update(note)
        #expect(try store.lackingVectorCount(model: Self.model) == 1)
        #expect(try store.vectors(for: note.id, model: Self.model) == nil, "an edit drops the old vectors")
        #expect(try store.nearest(to: [unit([1, 0, 0])], model: Self.model, limit: 3).isEmpty, "so the scan, which reads only the vectors, never finds them")
        #expect(try !store.saveVectors([unit([1, 0, 0])], for: note.id, contentHash: stale, model: Self.model), "vectors of old text are refused")

        try store.delete(note.id, at: Timestamp(milliseconds: 1_800_000_000_000))
        #expect(try store.lackingVectorCount(model: Self.model) == 0)
        #expect(try store.database.scalarInt("SELECT count(*) FROM note_vectors") == 0)
    }

    @Test func nearestScoresEachNoteByItsClosestChunkAndHonoursFilters() throws {
        let store = try inMemoryStore()
        let a = try makeNote("alpha #work", at: 1_764_000_000_000), b = try makeNote("beta #home", at: 1_764_000_001_000)
        let c = try makeNote("gamma #home", at: 1_764_000_002_000)
        for note in [a, b, c] { try store.insert(note) }
        try store.saveVectors([unit([1, 0, 0])], for: a.id, contentHash: a.contentHash, model: Self.model)
        try store.saveVectors([unit([0, 0, 1]), unit([0.9, 0.1, 0])], for: b.id, contentHash: b.contentHash, model: Self.model)
        try store.saveVectors([unit([0, 1, 0])], for: c.id, contentHash: c.contentHash, model: Self.model)
        let query = [unit([1, 0.05, 0])]
        let nearest = try store.nearest(to: query, model: Self.model, limit: 3)
        #expect(nearest.map(\.id) == [a.id, b.id, c.id], "b's second chunk is close")
        #expect(nearest[0].similarity > 0.99)
        let homeOnly = try store.nearest(to: query, model: Self.model, conditions: store.filterConditions(SearchQuery("tag:home"), filter: NoteFilter(), now: .current), limit: 3)
        #expect(homeOnly.map(\.id) == [b.id, c.id])
        #expect(try store.nearest(to: query, model: Self.model, excluding: a.id, limit: 1).map(\.id) == [b.id])
        #expect(try store.nearest(to: query, model: "another model", limit: 3).isEmpty)
    }

    @Test func vectorsRoundTripAsLittleEndianFloats() {
        let vector: [Float] = [0.25, -1, 3.5e-8]
        let bytes = FloatVector.bytes(vector)
        #expect(bytes.count == 12)
        #expect(bytes.withUnsafeBytes { FloatVector.floats($0) } == vector)
    }
}
