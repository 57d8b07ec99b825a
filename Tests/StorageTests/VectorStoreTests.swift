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

    /// 300 notes of 384 dimensions whose cosines with the query crowd into 0.80 to 0.87 (as
    /// multilingual-e5's do), one to three chunks each: the scan of the sketches, with the closest
    /// notes scored again from their vectors, finds what a scan of the vectors finds, in the same
    /// order with the same scores; so it does with vectors stored before the sketches, which
    /// migration 8's code then sketches.
    @Test func theSketchesFindWhatTheVectorsFind() throws {
        let store = try inMemoryStore()
        var random = SeededGenerator(seed: 30)
        func randomUnit() -> [Float] { unit((0..<384).map { _ in Float.random(in: -1...1, using: &random) }) }
        let query = randomUnit()
        var stored: [(id: NoteID, chunks: [[Float]])] = []
        for index in 0..<300 {
            let note = try makeNote("note \(index)", at: 1_764_000_000_000 + Int64(index) * 1000)
            try store.insert(note)
            let chunks = (0...(index % 3)).map { _ in
                let near = Float.random(in: 0.80...0.87, using: &random)
                return unit(zip(query, randomUnit()).map { near * $0 + (1 - near * near).squareRoot() * $1 })
            }
            try store.saveVectors(chunks, for: note.id, contentHash: note.contentHash, model: Self.model)
            stored.append((note.id, chunks))
        }
        func dot(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
        let expected = stored.map { (id: $0.id, similarity: $0.chunks.map { dot(query, $0) }.max()!) }
            .sorted { $0.similarity > $1.similarity }.prefix(20)
        func check(_ label: String) throws {
            let found = try store.nearest(to: [query], model: Self.model, limit: 20)
            #expect(found.map(\.id) == expected.map(\.id), "\(label)")
            #expect(zip(found, expected).allSatisfy { abs($0.similarity - $1.similarity) < 1e-5 }, "\(label): the vectors' scores")
        }
        #expect(try store.database.scalarInt("SELECT count(*) FROM note_vectors WHERE sketch IS NULL") == 0)
        try check("sketched")
        try store.database.execute("UPDATE note_vectors SET sketch = NULL WHERE note_seq % 2 = 0")
        try check("half without sketches")
        try NoteStore.sketchStoredVectors(store.database)
        #expect(try store.database.scalarInt("SELECT count(*) FROM note_vectors WHERE sketch IS NULL") == 0)
        try check("sketched again")
        let plan = try store.database.statement("EXPLAIN QUERY PLAN SELECT v.note_seq, v.sketch FROM note_vectors v WHERE v.model = ? AND v.sketch IS NOT NULL")
            .rows([Self.model]) { $0.string(3) }
        #expect(plan.contains { $0.contains("COVERING INDEX note_vectors_sketches") }, "the scan reads the index alone: \(plan)")
        #expect(try store.lackingVectorCount(model: Self.model) == 0)
        let count = try store.database.statement("EXPLAIN QUERY PLAN SELECT count(*) FROM note_vectors WHERE model = ? AND chunk = 0")
            .rows([Self.model]) { $0.string(3) }
        #expect(count.contains { $0.contains("note_vectors_first_chunks") }, "the count of notes waiting reads a small index: \(count)")
    }

    @Test func aSketchIsTheVectorToWithinItsRounding() {
        let vector: [Float] = [0.5, -0.25, 0.001, 0, -0.5] + Array(repeating: 0.125, count: 27)
        let bytes = VectorSketch.bytes(vector)
        #expect(bytes.count == 4 + vector.count)
        let query = Array(repeating: Float(1), count: vector.count)
        let approximate = bytes.withUnsafeBytes { VectorSketch.dot(query, $0) }
        // Each value is off by at most half a step of the scale (0.5 / 127).
        let bound: Float = Float(vector.count) * 0.5 / 127 / 2 + 1e-6
        let error: Float = abs(approximate - vector.reduce(0, +))
        #expect(error < bound)
        #expect(bytes.withUnsafeBytes { VectorSketch.dot([1, 2], $0) } == 0, "another length is never close")
        #expect(VectorSketch.bytes(Array(repeating: 0, count: 3)).count == 7, "a zero vector has a scale too")
    }

    @Test func vectorsRoundTripAsLittleEndianFloats() {
        let vector: [Float] = [0.25, -1, 3.5e-8]
        let bytes = FloatVector.bytes(vector)
        #expect(bytes.count == 12)
        #expect(bytes.withUnsafeBytes { FloatVector.floats($0) } == vector)
    }
}
