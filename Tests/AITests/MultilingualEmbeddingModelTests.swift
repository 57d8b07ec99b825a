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

        // The model keeps one token row: without the rows file beside it, or with a cut one,
        // it is unavailable, saying which file.
        try table.write(to: URL(fileURLWithPath: folder.path + "/bare.unigram"))
        guard case let .unavailable(noRows) = MultilingualEmbeddingModel(path: bare).availability else { Issue.record("a model without its token rows is available"); return }
        #expect(noRows.contains("no token rows file \(folder.path)/bare.rows") && noRows.contains("scripts/setup.sh"), "\(noRows)")
        #expect(throws: GenerationError.self) { try MultilingualEmbeddingModel(path: bare).embed(query: "x") }
        let rows = try Data(contentsOf: URL(fileURLWithPath: EmbeddingWeights.rowsPath(forModel: Self.model.path)))
        try rows.prefix(10_000).write(to: URL(fileURLWithPath: folder.path + "/bare.rows"))
        guard case let .unavailable(cutRows) = MultilingualEmbeddingModel(path: bare).availability else { Issue.record("cut token rows are accepted"); return }
        #expect(cutRows.contains("token rows file \(folder.path)/bare.rows is damaged"), "\(cutRows)")
        try rows.write(to: URL(fileURLWithPath: folder.path + "/bare.rows"))
        // (Within rounding: the shared model may serve queries from the weights it repacked.)
        #expect(try cosine(MultilingualEmbeddingModel(path: bare).embed(query: "boiler"), Self.model.embed(query: "boiler")) > 0.9999, "the same files, the same vector")

        // A cut model: llama.cpp refuses it, and the model says so.
        let whole = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.model.path))
        try whole.readData(ofLength: 1_000_000).write(to: URL(fileURLWithPath: bare))
        let cut = MultilingualEmbeddingModel(path: bare)
        #expect(throws: GenerationError.self) { try cut.embed(documents: ["x"]) }
        guard case .unavailable = cut.availability else { Issue.record("a cut model is available after its load failed"); return }

        // Another model's vectors are never compared with these: the version names the file.
        #expect(Self.model.version == "e5-small-q4.bin:71622400:words 150x16", "the packed weights set-up converted, as before the conversion")
    }

    /// A token's row decodes as ggml decodes its 4-bit blocks: (nibble - 8) times the block's
    /// half-precision scale, the low nibbles first; an id past the rows has none.
    @Test func tokenRowsDecodeAsTheModelsBlocks() throws {
        var file = Array("NOTESTR1".utf8)
        for word: UInt32 in [2, 32, 18, 0] { withUnsafeBytes(of: word.littleEndian) { file += $0 } }
        for scale: Float16 in [0.5, -2] {
            withUnsafeBytes(of: scale.bitPattern.littleEndian) { file += $0 }
            file += (0..<16).map { UInt8($0) | UInt8(15 - $0) << 4 }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).rows").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rows = try TokenRows(path: path)
        #expect((rows.count, rows.width) == (2, 32))
        var out = [Float](repeating: .nan, count: 32)
        let nibbles: [Float] = (0..<16).map { Float($0 - 8) } + (0..<16).map { Float(7 - $0) }
        for (id, scale): (Int32, Float) in [(0, 0.5), (1, -2)] {
            let written = out.withUnsafeMutableBufferPointer { rows.write(id, to: $0.baseAddress!) }
            #expect(written)
            let wanted = nibbles.map { $0 * scale }
            #expect(out == wanted)
        }
        let past = out.withUnsafeMutableBufferPointer { rows.write(2, to: $0.baseAddress!) }
        let negative = out.withUnsafeMutableBufferPointer { rows.write(-1, to: $0.baseAddress!) }
        #expect(!past && !negative)
        try Data(file.dropLast()).write(to: URL(fileURLWithPath: path))
        #expect(throws: GenerationError.self) { try TokenRows(path: path) }
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
