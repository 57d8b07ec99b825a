// Search by meaning, related notes and query filters through the real binary, with the real
// embedding model (the other CLI tests switch it off: NOTES_EMBEDDING_MODEL=none).
import Foundation
import Testing

@Suite(.serialized) struct SearchCLITests {
    static let embedding = ["NOTES_EMBEDDING_MODEL": (ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps") + "/embedding-model.gguf"]

    /// A notebook of a few notes in everyday words, their vectors made.
    func notebook() throws -> (Notebook, [String: String]) {
        let notebook = Notebook()
        var ids: [String: String] = [:]
        for (key, text) in [("vet", "Take the cat to the vet for her vaccinations #pets"), ("hoover", "The hoover is broken, buy a new one #home"),
                            ("tax", "Quarterly tax return for the accountant #finance"), ("flights", "Book flights to Lisbon for the conference #work"),
                            ("jabs", "Booster jabs for Miso next month #pets")] {
            ids[key] = try notebook.add(text)
        }
        let analyzed = try notebook.run(["analyze", "--quick"], environment: Self.embedding)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        return (notebook, ids)
    }

    func search(_ notebook: Notebook, _ arguments: [String]) throws -> [[String: Any]] {
        let result = try notebook.run(["search", "--json"] + arguments, environment: Self.embedding)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(result.json as? [[String: Any]])
    }

    @Test func otherWordsFindTheNoteAndExactWordsStayFirst() throws {
        let (notebook, ids) = try notebook()
        let status = try notebook.run(["status", "--json"], environment: Self.embedding).json as? [String: Any]
        #expect(status?["pending_vectors"] as? Int == 0)
        #expect(status?["embedding_model"] as? String == "available")

        let vacuum = try search(notebook, ["vacuum cleaner"])
        #expect(vacuum.first?["id"] as? String == ids["hoover"])
        #expect(vacuum.first?["match"] as? String == "meaning")

        let vaccinations = try search(notebook, ["vaccinations"])
        #expect(vaccinations.first?["id"] as? String == ids["vet"], "the note with the very word first")
        #expect(vaccinations.first?["match"] as? String == "both")
        #expect(vaccinations.dropFirst().first?["id"] as? String == ids["jabs"])
        #expect(vaccinations.dropFirst().first?["match"] as? String == "meaning")

        let exact = try search(notebook, ["--exact", "vaccinations"])
        #expect(exact.map { $0["id"] as? String } == [ids["vet"]])
        #expect(exact.map { $0["match"] as? String } == ["words"])

        #expect(try search(notebook, ["vacuum cleaner", "tag:work"]).isEmpty, "filters apply to meaning too")
        #expect(try search(notebook, ["tag:pets"]).count == 2)
    }

    @Test func relatedNotesAndShow() throws {
        let (notebook, ids) = try notebook()
        let result = try notebook.run(["related", String(ids["vet"]!.prefix(13)), "--json"], environment: Self.embedding)
        #expect(result.status == 0, "\(result.stderr)")
        let related = try #require(result.json as? [[String: Any]])
        // The other three notes are not about the same thing (below the model's floor, 0.3).
        #expect(related.map { $0["id"] as? String } == [ids["jabs"]], "\(result.stdout)")
        #expect(related.allSatisfy { $0.keys.sorted() == ["id", "score", "title"] })
        #expect(related.allSatisfy { ($0["score"] as? Double ?? 0) >= 0.3 })
        let scores = related.compactMap { $0["score"] as? Double }
        #expect(scores == scores.sorted(by: >))

        let show = try notebook.run(["show", ids["vet"]!], environment: Self.embedding)
        #expect(show.stdout.contains("Related:"))
        #expect(show.stdout.split(separator: "\n").last?.contains("Booster jabs") == true, "\(show.stdout)")
        #expect(try notebook.run(["show", ids["vet"]!, "--json"], environment: Self.embedding).json is [String: Any], "JSON unchanged")
    }

    @Test func theRunningDaemonEmbedsTheQueryAndAKilledOneIsNoLoss() throws {
        let (notebook, ids) = try notebook()
        // The daemon has the embedding model but no analysis model: it waits for that, and
        // still answers searches.
        let daemon = try DaemonProcess(notebook, environment: Self.embedding.merging(["NOTES_MODEL": notebook.root + "/missing.gguf"]) { $1 })
        defer { _ = daemon.stop() }
        let socket = notebook.home + "/daemon.socket"
        // The daemon binds its query socket before it looks for the analysis model.
        #expect(daemon.waitForLog("waiting for the model"), "\(daemon.log)")
        #expect(FileManager.default.fileExists(atPath: socket), "\(daemon.log)")

        // This process cannot load llama.cpp at all: a match by meaning came from the daemon.
        let noLibrary = Self.embedding.merging(["NOTES_LLAMA_LIBRARY": notebook.root + "/no-libllama.so"]) { $1 }
        let viaDaemon = try notebook.run(["search", "--json", "vacuum cleaner"], environment: noLibrary)
        #expect(viaDaemon.status == 0, "\(viaDaemon.stderr)")
        let found = try #require(viaDaemon.json as? [[String: Any]])
        #expect(found.first?["id"] as? String == ids["hoover"])
        #expect(found.first?["match"] as? String == "meaning")

        // kill -9 leaves the socket file: searches notice nobody answers and embed themselves.
        #expect(daemon.stop(signal: SIGKILL) != 0)
        #expect(FileManager.default.fileExists(atPath: socket))
        let alone = try notebook.run(["search", "--json", "vacuum cleaner"], environment: noLibrary)
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect((alone.json as? [[String: Any]])?.contains { $0["match"] as? String == "meaning" } == false, "words only without any model")
        #expect(try search(notebook, ["vacuum cleaner"]).first?["id"] as? String == ids["hoover"])

        // The next daemon replaces the stale socket.
        let next = try DaemonProcess(notebook, environment: Self.embedding.merging(["NOTES_MODEL": notebook.root + "/missing.gguf"]) { $1 })
        defer { _ = next.stop() }
        #expect(next.waitForLog("waiting for the model"), "\(next.log)")
        let again = try notebook.run(["search", "--json", "vacuum cleaner"], environment: noLibrary)
        #expect((again.json as? [[String: Any]])?.first?["id"] as? String == ids["hoover"], "\(again.stderr)")
    }

    @Test func aMissingModelLeavesSearchByWordsAndStatusSaysWhy() throws {
        let notebook = Notebook()
        _ = try notebook.add("The hoover is broken")
        let missing = ["NOTES_EMBEDDING_MODEL": notebook.root + "/no-such-model.gguf"]
        let status = try notebook.run(["status"], environment: missing)
        #expect(status.status == 0)
        #expect(status.stdout.contains("Vectors    1 note without a current one; embedding model unavailable: model file not found"), "\(status.stdout)")
        let words = try notebook.run(["search", "hoover", "--json"], environment: missing)
        #expect(words.status == 0)
        #expect((words.json as? [[String: Any]])?.count == 1)
        #expect(try notebook.run(["analyze", "--quick"], environment: missing).status == 0, "analysis goes on without vectors")
        let related = try notebook.run(["related", "0"], environment: missing)
        #expect(related.status != 0)
    }

    /// The default model, multilingual-e5-small: a query in one language finds the note written in
    /// another, `related` crosses languages too, and a note unlike any other has no related notes.
    @Test func theDefaultModelSearchesAcrossLanguages() throws {
        let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
        let e5 = ["NOTES_EMBEDDING_MODEL": deps + "/e5/multilingual-e5-small-q4_0.gguf"]
        let notebook = Notebook()
        let boiler = try notebook.add("Kocioł stuka od rana, trzeba zadzwonić do hydraulika.")
        let caldaia = try notebook.add("La caldaia fa rumore, chiamare l'idraulico prima di venerdì.")
        let tooth = try notebook.add("Ο οδοντίατρος την Πέμπτη στις 17:30, πονάει το δόντι μου.")
        _ = try notebook.add("Kupić prezent dla mamy na urodziny w sobotę.")
        _ = try notebook.add("Quarterly report draft due to Marta by Friday.")
        let analyzed = try notebook.run(["analyze", "--vectors"], environment: e5)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        func first(_ query: String) throws -> [String: Any]? {
            let result = try notebook.run(["search", "--json", query], environment: e5)
            #expect(result.status == 0, "\(result.stderr)")
            return (result.json as? [[String: Any]])?.first
        }
        #expect(try first("toothache appointment")?["id"] as? String == tooth)
        #expect(try first("toothache appointment")?["match"] as? String == "meaning")
        #expect([boiler, caldaia].contains(try first("the heating is banging, call a plumber")?["id"] as? String))
        let related = try notebook.run(["related", String(boiler.prefix(13)), "--json"], environment: e5)
        #expect(related.status == 0, "\(related.stderr)")
        #expect((related.json as? [[String: Any]])?.first?["id"] as? String == caldaia, "\(related.stdout)")
        // The English model's vectors are not this one's: switching models makes them again.
        let status = try notebook.run(["status", "--json"], environment: Self.embedding).json as? [String: Any]
        #expect(status?["pending_vectors"] as? Int == 5)
    }

    /// A note just added is found by meaning at once, with no daemon and no `analyze`: the search
    /// makes the vectors of the newest notes (eight) that lack them; an older backlog waits.
    @Test func aNoteJustAddedIsFoundByMeaningWithoutADaemon() throws {
        let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
        let e5 = ["NOTES_EMBEDDING_MODEL": deps + "/e5/multilingual-e5-small-q4_0.gguf"]
        let notebook = Notebook()
        for number in 1...9 { _ = try notebook.add("Shopping list number \(number): bread, eggs, apples") }
        // Search by words never makes vectors.
        #expect((try notebook.run(["search", "--exact", "--json", "eggs"], environment: e5).json as? [[String: Any]])?.count == 9)
        func pending() throws -> Int? { (try notebook.run(["status", "--json"], environment: e5).json as? [String: Any])?["pending_vectors"] as? Int }
        #expect(try pending() == 9)
        let tooth = try notebook.add("Ο οδοντίατρος την Πέμπτη στις 17:30, πονάει το δόντι μου.")
        let found = try notebook.run(["search", "--json", "toothache appointment"], environment: e5)
        #expect(found.status == 0, "\(found.stderr)")
        let first = (found.json as? [[String: Any]])?.first
        #expect(first?["id"] as? String == tooth && first?["match"] as? String == "meaning", "\(found.stdout)")
        #expect(try pending() == 2, "the two oldest wait for the daemon or 'analyze --vectors'")
    }

    /// `related` lists what has vectors and says what waits, and how to bring it current.
    @Test func relatedSaysWhichNotesWaitForTheirVectors() throws {
        let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
        let e5 = ["NOTES_EMBEDDING_MODEL": deps + "/e5/multilingual-e5-small-q4_0.gguf"]
        let notebook = Notebook()
        for number in 1...11 { _ = try notebook.add("Shopping list number \(number): bread, eggs, apples") }
        let newest = try notebook.add("Shopping list number 12: bread, eggs, pears")
        let related = try notebook.run(["related", newest], environment: e5)
        #expect(related.status == 0, "\(related.stderr)")
        #expect(!related.stdout.isEmpty)
        #expect(related.stderr.contains("4 notes wait for their vectors: run 'notes analyze --vectors', or start 'notes daemon'."), "\(related.stderr)")
        #expect(try notebook.run(["analyze", "--vectors"], environment: e5).status == 0)
        #expect(!(try notebook.run(["related", newest], environment: e5).stderr.contains("wait for")))
    }

    @Test func relatedSaysWhenNoNoteIsCloseInMeaning() throws {
        let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
        let e5 = ["NOTES_EMBEDDING_MODEL": deps + "/e5/multilingual-e5-small-q4_0.gguf"]
        let notebook = Notebook()
        _ = try notebook.add("Band rehearsal Thursday at the studio, bring the new setlist")
        let dentist = try notebook.add("Ο οδοντίατρος την Πέμπτη στις 17:30")
        #expect(try notebook.run(["analyze", "--vectors"], environment: e5).status == 0)
        let related = try notebook.run(["related", dentist], environment: e5)
        #expect(related.status == 0 && related.stdout.isEmpty, "\(related.stdout)")
        #expect(related.stderr == "No other note is close in meaning.\n", "\(related.stderr)")
    }

    @Test func aMalformedFilterIsAUsageError() throws {
        let notebook = Notebook()
        _ = try notebook.add("Pay the rent")
        for query in ["urgency:high", "created:2026-13", "due:<7x rent", "category:wrk"] {
            let result = try notebook.run(["search", query])
            #expect(result.status == 64, "\(query)")
            #expect(result.stderr.hasPrefix("Error: '"), "\(query): \(result.stderr)")
            #expect(result.stderr.contains("expected"), "\(query)")
        }
    }
}
