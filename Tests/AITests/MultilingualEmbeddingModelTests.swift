// The multilingual embedding model through llama.cpp, with the real multilingual-e5-small that
// set-up converts: a query in one language nearest the note that says it in another, notes cut at
// word boundaries, and a missing or damaged model or table reported, never crashed on.
import Foundation
import Testing
@testable import AI

struct MultilingualEmbeddingModelTests {
    static let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
    static let model = MultilingualEmbeddingModel(path: deps + "/e5/" + MultilingualEmbeddingModel.installedName)

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
        let missing = MultilingualEmbeddingModel(path: folder.path + "/none.gguf")
        #expect(missing.availability == .unavailable("the embedding model \(folder.path)/none.gguf is missing (scripts/setup.sh installs it)"))
        #expect(throws: GenerationError.self) { try missing.embed(query: "x") }
        #expect(missing.version.contains("missing"))

        // The model without its table: nothing to tokenize with.
        let bare = folder.path + "/bare.gguf"
        try FileManager.default.copyItem(atPath: Self.model.path, toPath: bare)
        guard case let .unavailable(noTable) = MultilingualEmbeddingModel(path: bare).availability else { Issue.record("a model without its table is available"); return }
        #expect(noTable.contains("has no unigram table \(folder.path)/bare.unigram"), "\(noTable)")
        #expect(!MultilingualEmbeddingModel.reads(bare))

        // A cut table beside the model: refused before use, with what to do.
        let table = try Data(contentsOf: URL(fileURLWithPath: EmbeddingWeights.tablePath(forModel: Self.model.path, .unigram)))
        try table.prefix(100_000).write(to: URL(fileURLWithPath: folder.path + "/bare.unigram"))
        #expect(MultilingualEmbeddingModel.reads(bare))
        let damaged = MultilingualEmbeddingModel(path: bare)
        guard case let .unavailable(reason) = damaged.availability else { Issue.record("a cut table is accepted"); return }
        #expect(reason.contains("is damaged") && reason.contains("scripts/setup.sh"), "\(reason)")
        #expect(throws: GenerationError.self) { try damaged.embed(documents: ["x"]) }

        // A cut model: llama.cpp refuses it, and the model says so.
        try table.write(to: URL(fileURLWithPath: folder.path + "/bare.unigram"))
        let whole = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.model.path))
        try whole.readData(ofLength: 1_000_000).write(to: URL(fileURLWithPath: bare))
        let cut = MultilingualEmbeddingModel(path: bare)
        #expect(throws: GenerationError.self) { try cut.embed(documents: ["x"]) }
        guard case .unavailable = cut.availability else { Issue.record("a cut model is available after its load failed"); return }

        // Another model's vectors are never compared with these: the version names the file.
        #expect(Self.model.version == "e5-small-q4.bin:71622400:words 150x16", "the packed weights set-up converted, as before the conversion")
    }

    /// The tokenizer cuts text as the model's own packed engine did (the ids below are the ones
    /// it fed the model): the metaspace in front, runs of spaces made one, the normalization map
    /// (a full-width letter, a no-break space), and a character no piece covers as <unk>.
    @Test func theTableTokenizesAsTheModelsEngineDid() throws {
        let unigram = try Unigram(path: EmbeddingWeights.tablePath(forModel: Self.model.path, .unigram))
        #expect(unigram.begin == 0 && unigram.end == 2 && unigram.unknown == 3)
        let engine: [(String, [Int32])] = [
            ("", [46692, 12, 6]),
            ("hello   world", [46692, 12, 33600, 31, 8999]),
            ("ｈｅｌｌｏ world", [46692, 12, 33600, 31, 8999]),
            ("Ο οδοντίατρος την Πέμπτη στις 17:30", [46692, 12, 2108, 6, 29106, 14257, 3420, 21586, 235, 511, 113368, 4466, 108313]),
            ("Kocioł stuka od rana, trzeba zadzwonić do hydraulika.",
             [46692, 12, 1204, 3521, 1717, 36962, 11, 229, 123108, 4, 25437, 80, 8243, 20430, 5524, 54, 152945, 2959, 5]),
            ("Tiistaina klo 9.30 hammaslääkäri — muista ottaa Kela-kortti!",
             [46692, 12, 2371, 1035, 885, 7897, 140187, 134609, 151637, 292, 75066, 42556, 116599, 9, 81652, 38]),
            ("买牛奶 and 🥛 x²", [46692, 12, 6, 11795, 130581, 136, 6, 3, 1022, 304]),
        ]
        for (text, ids) in engine { #expect(unigram.tokens(MultilingualEmbeddingModel.passagePrefix + text) == ids, "\(text)") }
    }
}
