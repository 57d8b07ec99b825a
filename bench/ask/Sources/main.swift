// `ask-bench`: the `notes ask` flow over one notebook, question by question, for bench/ask/run.py.
// Reads one JSON object a line on stdin ({"question": ...}) and writes one a line on stdout:
// the answer, its sources, the searches, the transcript, the time to the first answer word and
// to the whole answer (milliseconds from the question). The model is loaded once; every
// question is a new conversation, as `notes ask` is, but for {"question": ..., "continue": true}:
// a follow-up, asked in the conversation of the question before (its transcript then has this
// request's entries only).
import AI
import Analysis
import Foundation
import Notebook
import Notes
import Storage

let environment = ProcessInfo.processInfo.environment
guard let home = environment["NOTES_HOME"], let model = NoteReader.model(environment: environment) else {
    FileHandle.standardError.write(Data("set NOTES_HOME, and a reader model\n".utf8))
    exit(2)
}
// As `notes ask` makes it (NotebookQuestions.open): the model `notes analyze` made the vectors
// with (multilingual-e5 by default), or the query's vectors match none of the notes'.
let embedder = TextEmbeddings.fromEnvironment(environment)

final class Clockwork: @unchecked Sendable {
    let start = DispatchTime.now()
    var firstWord: Double?
    /// When the grounding check began, and the words it asked about.
    var checkStart: Double?
    var checkedWords: [String] = []
    func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6 }
}

func describe(_ entry: Transcript.Entry) -> [String: String] {
    switch entry {
    case .instructions: ["instructions": ""]
    case .prompt(let prompt): ["prompt": prompt.text]
    case .toolCall(let call): ["call": call.toolName + " " + call.arguments.jsonString]
    case .toolOutput(let output): ["output": output.text]
    case .response(let response): ["response": response.text]
    }
}

let now = environment["ASK_NOW"].flatMap { Timestamp(iso8601: $0) } ?? Timestamp.current
/// The conversation of the last question asked, which a follow-up continues: in the same
/// session (as `notes ask` on a terminal), or with ASK_FOLLOWUP=resume in a new one that is given
/// the turns (as `notes ask --continue` in another process).
var conversation: NotebookQuestions?
/// ASK_FOLLOWUP=fresh asks every turn in a conversation of its own (the baseline: no follow-ups).
let resumes = environment["ASK_FOLLOWUP"] == "resume"
let fresh = environment["ASK_FOLLOWUP"] == "fresh"
while let line = readLine() {
    guard let data = line.data(using: .utf8), let request = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let question = request["question"] as? String else { continue }
    let continued = request["continue"] as? Bool == true && !fresh ? conversation : nil
    let questions: NotebookQuestions
    if let continued, !resumes {
        questions = continued
    } else {
        let store = try NoteStore.open(home: home, mode: .readOnly)
        questions = NotebookQuestions(search: NotebookSearch(store: store, embedder: embedder), model: model, now: now)
        // As `notes ask --continue` goes on in a new process: from the turns alone.
        if let continued { await questions.resume(continued.saved()) }
    }
    conversation = questions
    let before = continued == nil || resumes ? 0 : await questions.transcript.count
    let clock = Clockwork()
    var result: [String: Any] = ["question": question]
    // {"question", "check": {"answer", "sources": [{"id", "title"}]}}: only the grounding check
    // of an answer given (a run's rows again, to see what the check keeps without asking anew).
    if let check = request["check"] as? [String: Any], let text = check["answer"] as? String,
       let cited = check["sources"] as? [[String: String]] {
        let sources = cited.compactMap { source in source["id"].flatMap(NoteID.init).map { NotebookQuestions.Source(id: $0, title: source["title"] ?? "") } }
        do {
            let kept = try await questions.checked(NotebookQuestions.Answer(text: text, sources: sources, searches: []), question: question)
            result["answer"] = kept.text
            result["sources"] = kept.sources.map { ["id": $0.id.rawValue, "title": $0.title] }
        } catch {
            result["error"] = String(describing: error)
        }
        result["total_ms"] = clock.elapsed()
        FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]) + Data("\n".utf8))
        continue
    }
    do {
        // A follow-up's context already holds the conversation so far: the prefix is a new one's.
        if continued == nil || resumes { try await questions.prewarm() }
        let answer = try await questions.ask(question) { event in
            if case .answerText(let text) = event, clock.firstWord == nil, text.contains(where: { $0.isLetter || $0.isNumber }) {
                clock.firstWord = clock.elapsed()
            }
            if case .checking(let words) = event {
                clock.checkStart = clock.elapsed()
                clock.checkedWords = words
            }
        }
        result["answer"] = answer.text
        result["sources"] = answer.sources.map { ["id": $0.id.rawValue, "title": $0.title] }
        result["searches"] = answer.searches
        result["first_word_ms"] = clock.firstWord ?? clock.elapsed()
        result["total_ms"] = clock.elapsed()
        if let start = clock.checkStart {
            result["check_ms"] = clock.elapsed() - start
            result["checked_words"] = clock.checkedWords
        }
    } catch {
        result["error"] = String(describing: error)
    }
    result["transcript"] = await questions.transcript.dropFirst(before).map(describe)
    let output = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    FileHandle.standardOutput.write(output + Data("\n".utf8))
}
