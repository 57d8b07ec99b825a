// `notes ask`: a question answered from the notes by the local model, with its sources.
import Notebook
import Notes

struct AskCommand: NotesCommand {
    static let question = Argument("question", type: .text("question"), help: "What you want to know.", repeating: true)

    static let configuration = CommandConfiguration(
        name: "ask",
        abstract: "Answer a question from your notes, with the notes it comes from.",
        discussion: """
            The reading model (NOTES_READER_MODEL, else Qwen2.5-Coder-1.5B) searches your notes
            by words and by meaning, reads them and lists the tasks with their due days, then
            answers and names its sources: only notes it was shown while answering. When the
            notes do not say, it says so and cites nothing; an answer whose notes do not speak
            of what the question asks (another person's, another thing's) is withdrawn.
            Everything runs on this machine; nothing is written to the notebook. Text in a note
            is data to the model, never an instruction.
            """,
        options: [Common.json],
        arguments: [question]
    )

    let question: String
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        question = arguments.all(Self.question).joined(separator: " ").trimmingWhitespace()
        guard !question.isEmpty else { throw UsageError(message: "missing <question>") }
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        _ = try context.notebook()
        let questions = try NotebookQuestions.open(home: context.notebookHome, environment: context.environment, now: Timestamp.current)
        let terminal = context.terminal
        let live = !json && terminal.out.isTerminal
        let progress = !json && terminal.err.isTerminal
        let writer = AnswerWriter()
        let question = question
        let answer = try waitFor {
            try await questions.prewarm()
            return try await questions.ask(question) { event in
                switch event {
                case .toolCall(let name, let arguments):
                    if progress { writer.note("(\(name) \(arguments))") }
                case .answerText(let text):
                    if live { writer.show(text) }
                case .checking(let words):
                    if progress { writer.note("(checking that the notes speak of: \(words.joined(separator: ", ")))") }
                case .answered:
                    break
                }
            }
        }
        if json {
            terminal.emit(answer.json)
            return
        }
        if live { writer.finish(answer.text) } else { terminal.print(answer.text) }
        if live { terminal.print() }
        guard !answer.sources.isEmpty else { return }
        let short = try context.handles(for: answer.sources.map(\.id))
        terminal.print(terminal.dim("Sources:"))
        for source in answer.sources {
            terminal.print("  " + terminal.yellow(short[source.id] ?? source.id.rawValue) + "  " + source.title)
        }
    }
}

/// Writes the answer as it grows (only what is new each time) to standard output, and the tool
/// calls to standard error, unbuffered: a terminal sees them at once.
final class AnswerWriter: @unchecked Sendable {
    private let out = OutputStream(descriptor: 1)
    private let err = OutputStream(descriptor: 2)
    private var shown = ""

    func show(_ text: String) {
        guard text.hasPrefix(shown), text.count > shown.count else { return }
        out.write(String(text.dropFirst(shown.count)))
        out.flush()
        shown = text
    }

    /// The whole answer: the rest of what was shown, or on a line of its own when the answer
    /// shown was withdrawn (its notes did not speak of what the question asks).
    func finish(_ text: String) {
        if !shown.isEmpty, !text.hasPrefix(shown) {
            out.write("\n")
            shown = ""
        }
        show(text)
    }

    func note(_ line: String) {
        err.write(line + "\n")
        err.flush()
    }
}
