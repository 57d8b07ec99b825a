// `notes ask --continue` across processes, as a script uses it: the second question goes on
// from the first, and --json lists the conversation's turns. The answers' words depend on the
// model; what is checked is the conversation kept between the processes.
import Foundation
import Testing

@Suite(.serialized) struct AskConversationCLITests {
    static let model = deps + "/small-reader-model.gguf"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: model), "the small reading model is not installed"))
    func aFollowUpFromAScriptGoesOnFromTheLastQuestion() throws {
        let notebook = Notebook()
        _ = try notebook.add("Kitchen renovation: the tiles cost 780 euros.")
        _ = try notebook.add("Kitchen renovation: new mixer tap, 160 euros.")
        let environment = ["NOTES_READER_MODEL": Self.model, "NOTES_EMBEDDING_MODEL": "none"]
        let first = try notebook.run(["ask", "--json", "How much did the kitchen tiles cost?"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let alone = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        #expect(alone?["answer"] is String && alone?["turns"] == nil, "a first question has no earlier turns")
        // Cited notes, or else the closest ones to look at: never both.
        let cited = alone?["sources"] as? [[String: Any]] ?? [], seeAlso = alone?["see_also"] as? [[String: Any]]
        #expect(seeAlso != nil && (cited.isEmpty || seeAlso!.isEmpty), "\(first.stdout)")
        let next = try notebook.run(["ask", "--continue", "--json", "and the tap?"], environment: environment)
        #expect(next.status == 0, "\(next.stderr)")
        let followUp = try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any]
        let turns = followUp?["turns"] as? [[String: Any]] ?? []
        #expect(turns.map { $0["question"] as? String } == ["How much did the kitchen tiles cost?", "and the tap?"])
        #expect(turns.last?["answer"] as? String == followUp?["answer"] as? String)
        // Without --continue, a question starts a conversation of its own.
        let fresh = try notebook.run(["ask", "--json", "and the tap?"], environment: environment)
        #expect((try JSONSerialization.jsonObject(with: Data(fresh.stdout.utf8)) as? [String: Any])?["turns"] == nil)
    }

    /// Asked right after `notes add`, with no daemon: the note just added has its vector before
    /// the model searches, so a question in other words than the note's can find it by meaning.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: model), "the small reading model is not installed"))
    func aNoteJustAddedHasItsVectorBeforeTheQuestionIsAsked() throws {
        let notebook = Notebook()
        let dentist = try notebook.add("Dentist: check-up on 14 January at 9:30 with Dr. Haddad")
        let environment = ["NOTES_READER_MODEL": Self.model, "NOTES_EMBEDDING_MODEL": deps + "/e5/multilingual-e5-small-q4_0.gguf"]
        func pending() throws -> Int? { (try notebook.run(["status", "--json"], environment: environment).json as? [String: Any])?["pending_vectors"] as? Int }
        #expect(try pending() == 1)
        let asked = try notebook.run(["ask", "--json", "What time am I seeing the tooth doctor?"], environment: environment)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(try pending() == 0)
        // Found, whatever this small model makes of it: cited, or else the closest note to look at.
        let answer = asked.json as? [String: Any]
        let shown = ((answer?["sources"] as? [[String: Any]] ?? []) + (answer?["see_also"] as? [[String: Any]] ?? [])).compactMap { $0["id"] as? String }
        #expect(shown.contains(dentist), "\(asked.stdout)")
    }

    /// After an import with no daemon, ask makes only the newest notes' vectors: the answer says
    /// that the others wait for theirs (they are not found by meaning), as an empty search does.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: model), "the small reading model is not installed"))
    func anAnswerSaysWhichNotesWaitForTheirVectors() throws {
        let notebook = Notebook()
        for day in 1...10 { try notebook.add("Run \(day) November: \(day + 3) km along the river") }
        let environment = ["NOTES_READER_MODEL": Self.model, "NOTES_EMBEDDING_MODEL": deps + "/e5/multilingual-e5-small-q4_0.gguf"]
        let asked = try notebook.run(["ask", "How far did I run on 2 November?"], environment: environment)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stderr.contains("2 notes wait for their vectors: run 'notes analyze --vectors', or start 'notes daemon'."), "\(asked.stderr)")
        // With every vector made, nothing is said.
        #expect(try notebook.run(["analyze", "--vectors"], environment: environment).status == 0)
        #expect(!(try notebook.run(["ask", "How far did I run on 2 November?"], environment: environment).stderr.contains("wait for")))
    }
}
