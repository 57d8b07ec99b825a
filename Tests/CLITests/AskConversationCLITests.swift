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
}
