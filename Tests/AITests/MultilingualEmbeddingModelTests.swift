// The multilingual embedding model through its C engine, with the real multilingual-e5-small that
// set-up installs: a query in one language nearest the note that says it in another, notes cut at
// word boundaries, and a missing or damaged file or engine reported, never crashed on.
import Foundation
import Testing
@testable import AI

struct MultilingualEmbeddingModelTests {
    static let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
    static let model = MultilingualEmbeddingModel(path: deps + "/e5/e5-small-q4.bin", libraryPath: deps + "/e5/libe5.so")

    func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }

    @Test func aQueryFindsTheNoteThatSaysItInAnotherLanguage() throws {
        let model = Self.model
        #expect(model.availability == .available)
        let notes = try model.embed(documents: ["Kocioł stuka od rana, trzeba zadzwonić do hydraulika.",
                                                "Ο οδοντίατρος την Πέμπτη στις 17:30, πονάει το δόντι μου.",
                                                "Lovely day at the lake with Tom, we swam and watched the sunset."])
        #expect(notes.map(\.count) == [1, 1, 1])
        #expect(notes[0][0].count == 384)
        #expect(abs(cosine(notes[0][0], notes[0][0]) - 1) < 1e-3, "unit length")
        for (query, wanted) in [("the boiler is banging", 0), ("toothache appointment", 1), ("Schwimmen im See bei Sonnenuntergang", 2)] {
            let vector = try model.embed(query: query)
            let scores = notes.map { cosine(vector, $0[0]) }
            #expect(scores.indices.max { scores[$0] < scores[$1] } == wanted, "\(query): \(scores)")
        }
    }

    @Test func notesAreCutAtWordsIntoChunks() throws {
        #expect(MultilingualEmbeddingModel.chunks(of: "") == [""])
        #expect(MultilingualEmbeddingModel.chunks(of: "  one two\nthree ") == ["one two three"])
        let long = (1...400).map { "λέξη\($0)" }.joined(separator: " ")
        let chunks = MultilingualEmbeddingModel.chunks(of: long)
        #expect(chunks.map { $0.split(separator: " ").count } == [150, 150, 100])
        #expect(chunks[1].hasPrefix("λέξη151 "))
        let huge = String(repeating: "όνομα ", count: 2_000_000)
        #expect(MultilingualEmbeddingModel.chunks(of: huge).count == MultilingualEmbeddingModel.maximumChunks, "read from its start only")
        #expect(try Self.model.embed(documents: [long, "short"]).map(\.count) == [3, 1])
    }

    @Test func missingOrDamagedFilesAreUnavailableWithTheirReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e5-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = MultilingualEmbeddingModel(path: folder.path + "/none.bin", libraryPath: Self.deps + "/e5/libe5.so")
        #expect(missing.availability == .unavailable("the embedding model \(folder.path)/none.bin is missing (scripts/setup.sh installs it)"))
        #expect(throws: GenerationError.self) { try missing.embed(query: "x") }
        #expect(missing.version.contains("missing"))

        // A cut copy: the engine would read past its end, so it is refused before loading.
        let cut = folder.path + "/cut.bin"
        let whole = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.model.path))
        try whole.readData(ofLength: 1_000_000).write(to: URL(fileURLWithPath: cut))
        let damaged = MultilingualEmbeddingModel(path: cut, libraryPath: Self.deps + "/e5/libe5.so")
        guard case let .unavailable(reason) = damaged.availability else { Issue.record("a cut model is available"); return }
        #expect(reason.contains("is damaged"), "\(reason)")
        #expect(throws: GenerationError.self) { try damaged.embed(documents: ["x"]) }

        let noEngine = MultilingualEmbeddingModel(path: Self.model.path, libraryPath: folder.path + "/libe5.so")
        #expect(noEngine.availability == .unavailable("the embedding engine \(folder.path)/libe5.so is missing (scripts/setup.sh installs it)"))
        // Another model's vectors are never compared with these: the version names the file.
        #expect(Self.model.version.hasPrefix("e5-small-q4.bin:71622400:"))
    }
}
