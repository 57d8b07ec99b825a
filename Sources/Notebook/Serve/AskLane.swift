// The ask page's questions: answered one at a time by the reading model, off the thread that
// serves the pages, each written into its page as the model writes it.
import Foundation
import Notes
import Synchronization

/// What answers the ask page: the notebook's conversation (`NotebookQuestions`), or a test's.
public protocol QuestionAnswering: Sendable {
    func prewarm() async throws
    func ask(_ question: String, onEvent: @escaping @Sendable (NotebookQuestions.Event) -> Void) async throws -> NotebookQuestions.Answer
}

extension NotebookQuestions: QuestionAnswering {}

final class AskLane: Sendable {
    private let open: @Sendable () throws -> any QuestionAnswering
    /// The conversation opened once (the model stays loaded), for the day it was opened on: it
    /// judges "tomorrow" by that day.
    private let opened = Mutex<(day: String, conversation: any QuestionAnswering)?>(nil)
    private let home: NotebookHome
    /// One question at a time (they share the model and the conversation's turns), on a thread
    /// of the lane's own: an answer never waits for a thread of Swift's cooperative pool, which
    /// the rest of the process may keep busy. Started by the first question.
    private let lane = Mutex<(executor: ThreadExecutor, questions: AsyncStream<@Sendable () async -> Void>.Continuation)?>(nil)
    typealias Question = @Sendable (ThreadExecutor) async -> Void

    init(home: NotebookHome, open: @escaping @Sendable () throws -> any QuestionAnswering) {
        self.home = home
        self.open = open
    }

    deinit {
        lane.withLock { $0?.questions.finish() }
    }

    private func enqueue(_ work: @escaping Question) throws {
        try lane.withLock { lane in
            if lane == nil {
                let executor = try ThreadExecutor()
                let (questions, continuation) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
                Task(executorPreference: executor) {
                    defer { executor.stop() }
                    for await question in questions { await question() }
                }
                lane = (executor, continuation)
            }
            let executor = lane!.executor
            lane!.questions.yield { await work(executor) }
        }
    }

    func conversation(day: String) throws -> any QuestionAnswering {
        try opened.withLock { opened in
            if let opened, opened.day == day { return opened.conversation }
            let conversation = try open()
            opened = (day, conversation)
            return conversation
        }
    }

    /// A new conversation in place of `old` (unless another question replaced it already).
    private func reopen(_ old: any QuestionAnswering) throws -> any QuestionAnswering {
        try opened.withLock { opened in
            guard let current = opened else { return try open() }
            if current.conversation as AnyObject !== old as AnyObject { return current.conversation }
            let fresh = try open()
            opened = (current.day, fresh)
            return fresh
        }
    }

    /// Writes into `stream`, as they come: what the model looked up, the answer's words, then the
    /// answer as checked with its sources, then `pageEnd`. A reader that goes away cancels it.
    func answer(_ question: String, with conversation: any QuestionAnswering, into stream: HTTPBodyStream, pageEnd: String) {
        let home = self.home
        let page = AnswerPage(stream)
        let answering: Question = { [self] executor in
            func answered(by conversation: any QuestionAnswering) async -> Result<NotebookQuestions.Answer, any Error> {
                let answer = Task(executorPreference: executor) {
                    try await conversation.prewarm()
                    return try await conversation.ask(question) { page.show($0) }
                }
                stream.onClose { answer.cancel() }
                return await answer.result
            }
            var result = await answered(by: conversation)
            // Its transcript is never cut: a conversation that outgrew the model's context
            // gives way to a new one, and the question is asked there.
            if case let .failure(error) = result, NotebookQuestions.outgrewContext(error), let fresh = try? reopen(conversation) {
                page.note("A new conversation: the one before outgrew the model's context.")
                result = await answered(by: fresh)
            }
            switch result {
            case let .success(answer): page.finish(answer)
            case let .failure(error): page.fail(ErrorMessage.describe(error, home: home))
            }
            stream.write(pageEnd)
            stream.finish()
        }
        do {
            try enqueue(answering)
        } catch {
            page.fail(ErrorMessage.describe(error, home: home))
            stream.write(pageEnd)
            stream.finish()
        }
    }
}

/// The answer's part of the ask page, written as the events come. The draft (the answer's text
/// as generated) is hidden by the style once the final answer follows it: a withdrawn draft
/// (the check found that its notes do not speak of what was asked) stays out of sight without
/// a script.
final class AnswerPage: @unchecked Sendable {
    private let stream: HTTPBodyStream
    private let state = Mutex((shown: "", inDraft: false))

    init(_ stream: HTTPBodyStream) {
        self.stream = stream
        stream.write("<section class=\"answer\">")
    }

    func show(_ event: NotebookQuestions.Event) {
        state.withLock { state in
            switch event {
            case let .toolCall(name, arguments):
                guard !state.inDraft else { return }
                stream.write("<p class=\"how\">" + HTML.escape(Self.describe(tool: name, arguments: arguments)) + "</p>")
            case let .answerText(text):
                guard text.hasPrefix(state.shown), text.count > state.shown.count else { return }
                if !state.inDraft { stream.write("<p class=\"draft\">") }
                stream.write(HTML.escape(String(text.dropFirst(state.shown.count))))
                state = (text, true)
            case let .checking(words):
                let line = NotebookQuestions.checkingLine(words)
                stream.write((state.inDraft ? "</p>" : "") + "<p class=\"how\">" + HTML.escape(line.prefix(1).uppercased() + line.dropFirst()) + "</p>")
                state.inDraft = false
            case .answered:
                break
            }
        }
    }

    func finish(_ answer: NotebookQuestions.Answer) {
        var html = closeDraft() + "<div class=\"final\"><p>\(HTML.escape(answer.text))</p>"
        func list(_ heading: String, _ notes: [NotebookQuestions.Source]) -> String {
            "<h2>" + heading + "</h2><ul>" + notes.map { "<li><a href=\"/note/\($0.id)\">\(HTML.escape($0.title))</a></li>" }.joined() + "</ul>"
        }
        if !answer.sources.isEmpty { html += list("Sources", answer.sources) } else if !answer.seeAlso.isEmpty { html += list("See also", answer.seeAlso) }
        stream.write(html + "</div></section>")
    }

    /// A line about the answer's course, in the place of the draft.
    /// The draft so far stays as written; what comes next starts a new one.
    func note(_ text: String) {
        stream.write(closeDraft() + "<p class=\"how\">" + HTML.escape(text) + "</p>")
        state.withLock { $0.shown = "" }
    }

    func fail(_ reason: String) {
        stream.write(closeDraft() + "<p class=\"conflict\">Cannot answer: \(HTML.escape(reason))</p></section>")
    }

    private func closeDraft() -> String {
        state.withLock { state in
            defer { state.inDraft = false }
            return state.inDraft ? "</p>" : ""
        }
    }

    /// A tool call in the user's words: what the model looked at while answering.
    static func describe(tool: String, arguments: String) -> String {
        let fields = (try? JSONSerialization.jsonObject(with: Data(arguments.utf8))) as? [String: Any] ?? [:]
        switch tool {
        case "search_notes": return "Searched the notes for “\(fields["query"] as? String ?? arguments)”"
        case "read_note": return "Read note " + (fields["id"] as? String ?? "")
        case "list_tasks": return "Listed the tasks"
        case "add_up": return "Added up " + ((fields["items"] as? [String])?.joined(separator: " + ") ?? "amounts")
        case "count_notes": return "Counted the notes of " + (fields["what"] as? String ?? "it")
        default: return "Used \(tool)"
        }
    }
}
