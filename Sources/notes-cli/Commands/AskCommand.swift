// `notes ask`: a question answered from the notes by the local model, with its sources.
import Notebook
import Notes

struct AskCommand: NotesCommand {
    static let question = Argument("question", type: .text("question"), help: "What you want to know (none, on a terminal: a conversation).",
                                   optional: true, repeating: true)
    static let continuing = Flag("--continue", help: "Go on from the last conversation of today (a follow-up: \"and the one before?\").")

    static let configuration = CommandConfiguration(
        name: "ask",
        abstract: "Answer a question from your notes, with the notes it comes from.",
        discussion: """
            The reading model (NOTES_READER_MODEL, else Qwen2.5-Coder-1.5B) searches your notes
            by words and by meaning, reads them and lists the tasks with their due days, then
            answers and names its sources: only notes it was shown while answering. When the
            notes do not say, it says so and cites nothing, and lists the notes closest to the
            question under "See also"; an answer whose notes do not speak of what the question
            asks (another person's, another thing's) is withdrawn.
            Everything runs on this machine; no note is changed (the newest notes lacking a
            vector get one first, as a search gives them). Text in a note
            is data to the model, never an instruction.

            Without a question, on a terminal, it is a conversation: each question sees the
            ones before and their sources ("and the one before that?"); an empty line ends it.
            Every question and answer is kept in the notebook's cache (never synced), so that
            --continue goes on from the last one asked today, from a script too; --json then
            lists the conversation's turns.
            """,
        options: [Common.json, continuing],
        arguments: [question]
    )

    let question: String
    let json: Bool
    let continues: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        question = arguments.all(Self.question).joined(separator: " ").trimmingWhitespace()
        json = arguments[Common.json]
        continues = arguments[Self.continuing]
        guard !question.isEmpty || (StandardInput.isTerminal && !json) else {
            throw UsageError(message: "missing <question> (on a terminal, 'notes ask' alone is a conversation)")
        }
    }

    func run(_ context: Context) throws {
        _ = try context.notebook()
        let now = Timestamp.current
        var questions = try NotebookQuestions.open(home: context.notebookHome, environment: context.environment, now: now)
        let file = AskConversationFile(home: context.notebookHome)
        if continues {
            let earlier = file.load(day: now.day), resumed = questions
            try waitFor { await resumed.resume(earlier) }
        }
        // The answer stands whether or not it can be kept for --continue.
        func keep() {
            let current = questions
            do { try file.save(day: now.day, waitFor { await current.saved() }) } catch {
                context.terminal.printError("notes ask: the conversation is not kept for --continue: \(ErrorMessage.describe(error, home: context.notebookHome))")
            }
        }
        // A conversation that no longer fits the model's context goes on in a new one, from its last turn.
        func ask(_ line: String) throws {
            do {
                try answer(line, with: questions, context)
            } catch where NotebookQuestions.outgrewContext(error) {
                let old = questions
                let last = try waitFor { await old.saved(turns: 1) }
                let fresh = try NotebookQuestions.open(home: context.notebookHome, environment: context.environment, now: now)
                try waitFor { await fresh.resume(last) }
                questions = fresh
                context.terminal.printError("(the conversation outgrew the model's context: it goes on from the last question)")
                try answer(line, with: fresh, context)
            }
            keep()
        }
        guard question.isEmpty else { return try ask(question) }
        // A conversation on the terminal: a question a line, until an empty one (or end of input).
        let terminal = context.terminal
        let prompt = OutputStream(descriptor: 2)
        while true {
            terminal.flush()
            prompt.write("? ")
            prompt.flush()
            let line = StandardInput.readLine().trimmingWhitespace()
            if line.isEmpty { break }
            // A question that fails is said so; the conversation goes on.
            do { try ask(line) } catch {
                terminal.printError("notes ask: " + ErrorMessage.describe(error, home: context.notebookHome))
            }
            terminal.print()
        }
    }

    private func answer(_ question: String, with questions: NotebookQuestions, _ context: Context) throws {
        let terminal = context.terminal
        let live = !json && terminal.out.isTerminal
        let progress = !json && terminal.err.isTerminal
        let writer = AnswerWriter()
        let answer = try waitFor {
            try await questions.prewarm()
            return try await questions.ask(question) { event in
                switch event {
                case .toolCall(let name, let arguments):
                    if progress { writer.note("(\(name) \(arguments))") }
                case .answerText(let text):
                    if live { writer.show(text) }
                case .checking(let words):
                    if progress { writer.note("(" + NotebookQuestions.checkingLine(words) + ")") }
                case .answered:
                    break
                }
            }
        }
        if json {
            // A conversation's answer comes with its turns, the earlier ones first.
            guard questions.turns.count > 1, case .object(var fields) = answer.json else { return terminal.emit(answer.json) }
            fields.append(("turns", .array(questions.turns.map(\.json))))
            return terminal.emit(.object(fields))
        }
        if live { writer.finish(answer.text) } else { terminal.print(answer.text) }
        if live { terminal.print() }
        // Notes without a vector are not found by meaning: after an import with no daemon, most
        // of the notebook (ask makes only the newest notes' vectors). Said last, on stderr.
        defer {
            if let notice = context.pendingVectorsNotice(embedderVersion: questions.embedderVersion) { terminal.printError(notice) }
        }
        // Sources hold the answer; "see also" are the closest notes to an answer that has none.
        let (heading, notes) = answer.sources.isEmpty ? ("See also:", answer.seeAlso) : ("Sources:", answer.sources)
        guard !notes.isEmpty else { return }
        let short = try context.handles(for: notes.map(\.id))
        terminal.print(terminal.dim(heading))
        for note in notes {
            terminal.print("  " + terminal.yellow(short[note.id] ?? note.id.rawValue) + "  " + note.title)
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
