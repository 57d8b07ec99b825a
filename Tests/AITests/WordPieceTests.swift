// The embedding model's tokenizer against the table set-up writes beside the model. The expected
// ids are what llama.cpp's own tokenizer gave for the same text from the earlier GGUF that held
// the vocabulary (it agreed with this tokenizer on all 725 notes of bench/search and
// bench/analysis, and their vectors to a cosine of 0.999999).
import Foundation
import Testing
@testable import AI
import Notes

struct WordPieceTests {
    static let modelPath = (ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps") + "/embedding-model.gguf"

    static func table() throws -> WordPiece {
        try WordPiece(path: EmbeddingWeights.tablePath(forModel: modelPath))
    }

    @Test func cutsTextAsTheModelsTokenizerDoes() throws {
        let table = try Self.table()
        #expect(table.tokens("Hello, world!") == [7592, 1010, 2088, 999])
        #expect(table.tokens("unbelievably hoovering") == [4895, 8671, 2666, 3567, 6321, 17443, 2075], "longest pieces first, ## continuations")
        #expect(table.tokens("") == [])
        #expect(table.tokens(" \n\t ") == [])
        #expect([table.begin, table.end, table.unknown] == [101, 102, 100])
    }

    @Test func lowercasesStripsAccentsAndDropsControls() throws {
        let table = try Self.table()
        #expect(table.tokens("Café crème à Zürich: naïve résumé") == [7668, 13675, 21382, 1037, 10204, 1024, 15743, 13746])
        #expect(table.tokens("Café") == table.tokens("cafe"))
        #expect(table.tokens("Η συνάντηση μεταφέρθηκε την Τρίτη") == [1161, 1173, 29735, 16177, 14608, 16177, 29734, 24824, 29733, 24824, 1166, 29723, 29734, 14608, 29736, 29723, 29732, 29725, 24824, 29726, 29723, 1174, 24824, 16177, 1174, 29732, 18199, 29734, 24824])
        #expect(table.tokens("the vet's jabs\u{0}\u{200B} tomorrow") == [1996, 29525, 1005, 1055, 14855, 5910, 4826], "NUL and a zero-width space dropped")
    }

    @Test func ideographsAreWordsOfTheirOwnAndUnknownWordsOneToken() throws {
        let table = try Self.table()
        #expect(table.tokens("会議は火曜日") == [1763, 100, 1672, 1906, 100, 1864])
        #expect(table.tokens(String(repeating: "a", count: 101)) == [table.unknown], "a word over 100 characters")
        #expect(table.tokens(String(repeating: "a", count: 100)).count > 1)
        #expect(table.tokens("🎉") == [table.unknown])
    }

    @Test func aMissingOrDamagedTableIsAnErrorThatSaysSo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wordpiece-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: GenerationError.self) { try WordPiece(path: directory.path + "/missing.wordpiece") }
        let whole = try Data(contentsOf: URL(fileURLWithPath: EmbeddingWeights.tablePath(forModel: Self.modelPath)))
        let cut = directory.appendingPathComponent("cut.wordpiece")
        try whole.prefix(whole.count / 2).write(to: cut)
        do {
            _ = try WordPiece(path: cut.path)
            Issue.record("a table cut in half was accepted")
        } catch {
            #expect(error.description.contains("damaged"), "\(error)")
        }
        // The model's file has no vocabulary: copied without its table, it is unavailable, with why.
        let bare = directory.appendingPathComponent("bare.gguf")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.modelPath).resolvingSymlinksInPath(), to: bare)
        #expect(EmbeddingWeights.tablePath(forModel: bare.path) == directory.path + "/bare.wordpiece")
        // `notes status` says so without loading the model: the GGUF declares no vocabulary.
        #expect(EmbeddingModel(path: bare.path).availability == .unavailable(EmbeddingWeights.missingTableMessage(model: bare.path)))
        do {
            _ = try EmbeddingModel(path: bare.path).embed(query: "x")
            Issue.record("a model with no vocabulary and no table embedded text")
        } catch {
            #expect(error.description.contains("no vocabulary") && error.description.contains("bare.wordpiece"), "\(error)")
        }
        // A damaged table beside it: unavailable too, before any load.
        try whole.prefix(100).write(to: directory.appendingPathComponent("bare.wordpiece"))
        guard case let .unavailable(reason) = EmbeddingModel(path: bare.path).availability else {
            Issue.record("a damaged table was not reported")
            return
        }
        #expect(reason.contains("damaged"), "\(reason)")
    }

    /// A damaged table once unmapped its pages twice (in the throw and again in deinit); the
    /// second munmap took away whatever another thread had mapped at that address meanwhile,
    /// and a tokenizer running there crashed (CI, signal 11). Here one thread keeps failing on
    /// a damaged table while another maps good ones and tokenizes with each.
    @Test func aDamagedTableUnmapsOnlyItsOwnPages() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wordpiece-race-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let goodPath = EmbeddingWeights.tablePath(forModel: Self.modelPath)
        let whole = try Data(contentsOf: URL(fileURLWithPath: goodPath))
        // The same size as the good table, so the kernel hands the freed address to the next map.
        var damaged = whole
        damaged[0] = UInt8(ascii: "X")
        let damagedPath = directory.appendingPathComponent("damaged.wordpiece").path
        try damaged.write(to: URL(fileURLWithPath: damagedPath))
        let rounds = 300
        async let failures: Int = Task.detached {
            var count = 0
            for _ in 0..<rounds where (try? WordPiece(path: damagedPath)) == nil { count += 1 }
            return count
        }.value
        async let tokenized: Int = Task.detached {
            var count = 0
            for _ in 0..<rounds {
                guard let table = try? WordPiece(path: goodPath) else { continue }
                if table.tokens("Café crème à Zürich") == [7668, 13675, 21382, 1037, 10204] { count += 1 }
            }
            return count
        }.value
        #expect(await failures == rounds)
        #expect(await tokenized == rounds)
    }

    @Test func theTokenizerIsReadFromAGGUFsHeaderWithoutLoadingIt() throws {
        let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
        let ours = try FileSystem.read(Self.modelPath, limit: 64 * 1024)
        #expect(EmbeddingWeights.tokenizerModel(inHeader: ours) == "none")
        let reader = try FileSystem.read(deps + "/small-reader-model.gguf", limit: 64 * 1024)
        #expect(EmbeddingWeights.tokenizerModel(inHeader: reader) == "gpt2", "a language model's own vocabulary")
        #expect(EmbeddingWeights.tokenizerModel(inHeader: Array(ours.prefix(40))) == nil, "cut short: not known")
        #expect(EmbeddingWeights.tokenizerModel(inHeader: Array("not a gguf".utf8)) == nil)
        #expect(EmbeddingModel(path: Self.modelPath).availability == .available)
    }
}
