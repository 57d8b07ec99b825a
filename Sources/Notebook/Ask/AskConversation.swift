// A conversation with the notebook that outlives the process: `notes ask --continue` goes on
// from the last question asked today, with its answer and sources in view.
import Foundation
import Notes

/// One question of a conversation, as it was answered.
public struct AskTurn: Sendable, Equatable {
    public var question: String
    public var answer: String
    public var sources: [NotebookQuestions.Source]

    public init(question: String, answer: String, sources: [NotebookQuestions.Source]) {
        self.question = question
        self.answer = answer
        self.sources = sources
    }
}

/// What `notes ask --continue` needs of the conversation before: its turns (for `--json`), what
/// the model saw of them (`entries`: each earlier turn's prompt and answer, and the last turn's
/// tool calls and outputs too, which a follow-up reads: "what's his phone number?"), and the
/// notes shown, in the order their handles (N1, N2, ...) were given.
public struct AskConversation: Sendable, Equatable {
    public var turns: [AskTurn]
    public var entries: [[String: String]]
    public var shown: [NotebookQuestions.Source]

    public init(turns: [AskTurn] = [], entries: [[String: String]] = [], shown: [NotebookQuestions.Source] = []) {
        self.turns = turns
        self.entries = entries
        self.shown = shown
    }
}

/// The last conversation, in `cache/ask-conversation.json` of the notebook's home: asked of this
/// notebook on this machine (the cache is never synced). Only today's is continued: "tomorrow"
/// meant another day yesterday.
public struct AskConversationFile: Sendable {
    public let path: String

    public init(home: NotebookHome) {
        path = home.path + "/cache/ask-conversation.json"
    }

    /// The conversation last saved on `day`; an empty one when it was another day, or the file
    /// is missing or unreadable (a damaged file is a fresh start, not an error).
    public func load(day: String) -> AskConversation {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["day"] as? String == day else { return AskConversation() }
        func sources(_ list: Any?) -> [NotebookQuestions.Source] {
            (list as? [[String: String]] ?? []).compactMap { source in
                source["id"].flatMap(NoteID.init).map { NotebookQuestions.Source(id: $0, title: source["title"] ?? "") }
            }
        }
        let turns = (object["turns"] as? [[String: Any]] ?? []).compactMap { turn -> AskTurn? in
            guard let question = turn["question"] as? String, let answer = turn["answer"] as? String else { return nil }
            return AskTurn(question: question, answer: answer, sources: sources(turn["sources"]))
        }
        return AskConversation(turns: turns, entries: object["entries"] as? [[String: String]] ?? [], shown: sources(object["shown"]))
    }

    /// Replaces the file with `conversation`, atomically.
    public func save(day: String, _ conversation: AskConversation) throws {
        func sources(_ list: [NotebookQuestions.Source]) -> [[String: String]] { list.map { ["id": $0.id.rawValue, "title": $0.title] } }
        let object: [String: Any] = [
            "day": day,
            "turns": conversation.turns.map { ["question": $0.question, "answer": $0.answer, "sources": sources($0.sources)] },
            "entries": conversation.entries,
            "shown": sources(conversation.shown),
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
