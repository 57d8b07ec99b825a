// `notes model` names every local model, not only the one that scores categories (issue 31,
// item 7). Files that are not models stand in for them: nothing is loaded.
import Foundation
import Testing

@Suite struct ModelCommandTests {
    @Test func modelShowsTheCategoryModelTheReaderAndTheEmbeddingModel() throws {
        let notebook = Notebook()
        let category = notebook.root + "/category.gguf"
        let readerFile = notebook.root + "/reader-1.5b.gguf"
        let readerLink = notebook.root + "/reader-model.gguf"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: readerFile))
        try FileManager.default.createSymbolicLink(atPath: readerLink, withDestinationPath: readerFile)
        let environment = ["NOTES_MODEL": category, "NOTES_READER_MODEL": readerLink, "NOTES_EMBEDDING_MODEL": "none"]

        let result = try notebook.run(["model", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json as? [String: Any])
        // The category model's keys stay at the top, where scripts read them before.
        #expect(json["name"] as? String == "category.gguf")
        #expect(json["path"] as? String == category)
        #expect(json["available"] as? Bool == false)
        #expect(json["unavailableReason"] as? String == "model file not found: \(category)")
        #expect(json["sizeBytes"] is NSNull)

        let reader = try #require(json["reader"] as? [String: Any])
        #expect(reader["name"] as? String == "reader-1.5b.gguf")
        #expect(reader["path"] as? String == readerLink)
        #expect(reader["sizeBytes"] as? Int == 11)
        #expect(reader["available"] as? Bool == false)
        #expect(reader["unavailableReason"] as? String == "not a GGUF file: \(readerLink)")

        let embedding = try #require(json["embedding"] as? [String: Any])
        #expect(embedding["available"] as? Bool == false)
        #expect(embedding["unavailableReason"] as? String == "off (NOTES_EMBEDDING_MODEL=none)")
        #expect(embedding["path"] is NSNull)

        let text = try notebook.run(["model"], environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Path:         \(category)"))
        #expect(text.stdout.contains("Reader (tasks and summaries):\nName:         reader-1.5b.gguf\nModel:        unavailable: not a GGUF file"))
        #expect(text.stdout.contains("Size:         0.0 MB (11 bytes)"))
        #expect(text.stdout.contains("Embedding (search by meaning):\nModel:        unavailable: off (NOTES_EMBEDDING_MODEL=none)"))
    }

    @Test func aReaderSwitchedOffSaysSoInBothForms() throws {
        let notebook = Notebook()
        let environment = ["NOTES_MODEL": notebook.root + "/none.gguf", "NOTES_READER_MODEL": "none",
                           "NOTES_EMBEDDING_MODEL": notebook.root + "/vectors.gguf"]
        let json = try #require(try notebook.run(["model", "--json"], environment: environment).json as? [String: Any])
        let reader = try #require(json["reader"] as? [String: Any])
        #expect(reader["available"] as? Bool == false)
        #expect(reader["unavailableReason"] as? String == "off (NOTES_READER_MODEL=none)")
        #expect(reader["path"] is NSNull)
        let embedding = try #require(json["embedding"] as? [String: Any])
        #expect(embedding["name"] as? String == "vectors.gguf")
        #expect(embedding["path"] as? String == notebook.root + "/vectors.gguf")
        #expect((embedding["unavailableReason"] as? String)?.contains("not found") == true)
        let text = try notebook.run(["model"], environment: environment).stdout
        #expect(text.contains("Reader:       unavailable: off (NOTES_READER_MODEL=none)"))
        #expect(text.contains("Path:         \(notebook.root)/vectors.gguf"))
    }
}
