// "When did I last...?" in `notes ask` (issue 32): the notes that tell of it are the model's to
// say, one at a time; the newest is code's, and a count of days since is counted to it.
@testable import AI
import Notes
import Storage
import Testing
@testable import Notebook
import Synchronization

struct AskLastTimeTests {
    /// A Tuesday.
    let now = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    @Test func aQuestionOfTheLastTimeIsToldFromACountOrATotal() {
        for question in ["When did I last work out at the gym?", "How many days has it been since I last gave blood?",
                         "When was the last time we got a takeaway?", "Milloin kävin viimeksi salilla?", "Kiedy ostatnio byłem u dentysty?",
                         "Πότε ήταν η τελευταία φορά που πήγα στο γυμναστήριο;"] {
            #expect(LastTimeTool.isAskedFor(in: question), "\(question)")
        }
        for question in ["How many times did I go jogging last month?", "What did I spend last week?", "When is my dentist appointment?",
                         "How much did the last three takeaways cost in total?",
                         "What did I eat the last time we went to Rosa's?", "Who sorted out the boiler last time?"] {
            #expect(!LastTimeTool.isAskedFor(in: question), "\(question)")
        }
    }

    func notebook() throws -> (AskNotebook, AskSources) {
        let store = try NoteStore(database: Database(path: ":memory:"))
        for (text, day) in [("Gym: leg day, squats and lunges", "2026-11-26"), ("Gym membership: 32 euros a month", "2026-11-13"),
                            ("Gym: 30 minutes on the rowing machine", "2026-11-19"), ("Gym: upper body", "2026-11-10"),
                            ("Gym: booked a session for 4 December", "2026-12-04")] {
            try store.insert(try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(iso8601: day + "T10:00:00Z")!))
        }
        return (AskNotebook(search: NotebookSearch(store: store, embedder: nil), now: now), AskSources())
    }

    @Test func theNewestNoteTheModelSaysTellsOfItIsTheLastTime() async throws {
        let (notebook, sources) = try notebook()
        sources.beginRequest(question: "When did I last work out at the gym?")
        let asked = Mutex<[String]>([])
        // The membership is not a workout; the session booked for 4 December is not yet.
        let judge = AskJudge { question, what, notes in
            #expect(question == "When did I last work out at the gym?" && what == "gym workouts")
            asked.withLock { $0 += notes.map(\.title) }
            return notes.map { !$0.title.contains("membership") }
        }
        let last = LastTimeTool(notebook: notebook, sources: sources, judge: judge)
        #expect(!last.isListed && !last.isOffered)
        _ = try await SearchNotesTool(notebook: notebook, sources: sources).call(arguments: try .init(GeneratedContent(json: #"{"query": "gym"}"#)))
        #expect(last.isOffered)
        var transcript = Transcript(entries: [.prompt(.init(text: "Question: ..."))])
        transcript.append(.toolCall(.init(toolName: "search_notes", arguments: try GeneratedContent(json: #"{"query": "gym"}"#))))
        transcript.append(.toolOutput(.init(toolName: "search_notes", text: "N1 ...")))
        guard case .callTool(let only) = NotebookQuestions.nextStep(in: transcript, after: 0, sources: sources, asksForATotal: false,
                                                                    asksForTheLastTime: true) else { Issue.record("answered first"); return }
        #expect(only == ["last_time"])
        let output = try await last.call(arguments: .init(GeneratedContent(json: #"{"what": "gym workouts last month"}"#)))
        // Newest first, by today, asked one at a time until three tell of it: the booked session is not yet.
        #expect(asked.withLock { $0 } == ["Gym: leg day, squats and lunges", "Gym: 30 minutes on the rowing machine",
                                           "Gym membership: 32 euros a month", "Gym: upper body"])
        #expect(output.hasPrefix("Newest first: N"), "\(output)")
        #expect(output.contains("(written 2026-11-26), ") && output.contains("(written 2026-11-19), ") && output.contains("(written 2026-11-10)."))
        #expect(output.contains("Not of it: ") && output.contains("membership") && !output.contains("4 December"))
        let result = try #require(sources.results.last)
        #expect(result.figure == "26" && result.statement == "on 26 Nov 2026: Gym: leg day, squats and lunges." && result.askedOfEachNote)
        #expect(sources.lastTime == result.handles.first)
    }

    @Test func theDaysSinceTheLastTimeAreCountedToItsNote() async throws {
        let (notebook, sources) = try notebook()
        sources.beginRequest(question: "How many days has it been since I last went to the gym?")
        let days = CountDaysTool(notebook: notebook, sources: sources)
        _ = try await SearchNotesTool(notebook: notebook, sources: sources).call(arguments: try .init(GeneratedContent(json: #"{"query": "gym"}"#)))
        // Before: only the booked session states a day, and it is to come.
        #expect(days.offered.map(\.text) == ["4 Dec 2026"])
        let last = LastTimeTool(notebook: notebook, sources: sources, judge: AskJudge { _, _, notes in notes.map { !$0.title.contains("membership") } })
        _ = try await last.call(arguments: .init(GeneratedContent(json: #"{"what": "gym"}"#)))
        // After: the day the newest workout's note was written, which states none.
        #expect(days.offered.map(\.text) == ["26 Nov 2026"])
        let output = try await days.call(arguments: .init(GeneratedContent(json: #"{"day": "\#(days.choice(days.offered[0]))"}"#)))
        #expect(output.contains("was 5 days ago"), "\(output)")
        // Its note was asked about on its own already: the answer is not checked again word by word.
        #expect(try #require(sources.results.last).askedOfEachNote)
    }

    @Test func theOneBeforeThatIsTheNewestBeforeTheDayTheAnswerBeforeGave() async throws {
        for question in ["And the one before that?", "Entä sitä ennen?", "A wcześniej?", "Και πριν από αυτό;"] {
            #expect(LastTimeTool.asksForTheOneBefore(question), "\(question)")
        }
        #expect(!LastTimeTool.asksForTheOneBefore("When did I last work out at the gym?"))
        let (notebook, sources) = try notebook()
        let legDay = try #require(try notebook.withSearch { try $0.search("squats", now: now).first?.hit.id })
        let before = LastTimeTool.Before(id: legDay, day: "2026-11-26", question: "When did I last work out at the gym?")
        sources.beginRequest(question: "And the one before that?", lastTimeBefore: before)
        _ = try await SearchNotesTool(notebook: notebook, sources: sources).call(arguments: try .init(GeneratedContent(json: #"{"query": "gym"}"#)))
        let asked = Mutex<[String]>([])
        let judge = AskJudge { question, _, notes in
            // Asked of each note as the question of the last time was.
            #expect(question == "When did I last work out at the gym?")
            asked.withLock { $0 += notes.map(\.title) }
            return notes.map { !$0.title.contains("membership") }
        }
        let last = LastTimeTool(notebook: notebook, sources: sources, judge: judge)
        #expect(last.isOffered)
        let output = try await last.call(arguments: .init(GeneratedContent(json: #"{"what": "gym workouts"}"#)))
        #expect(output.hasPrefix("Before 2026-11-26, newest first: N"), "\(output)")
        #expect(!asked.withLock { $0 }.contains("Gym: leg day, squats and lunges"))
        #expect(try #require(sources.results.last).statement == "on 19 Nov 2026: Gym: 30 minutes on the rowing machine.")
    }

    @Test func noNoteOfItSaysSo() async throws {
        let (notebook, sources) = try notebook()
        sources.beginRequest(question: "When did I last go swimming?")
        _ = try await SearchNotesTool(notebook: notebook, sources: sources).call(arguments: try .init(GeneratedContent(json: #"{"query": "gym"}"#)))
        let last = LastTimeTool(notebook: notebook, sources: sources, judge: AskJudge { _, _, notes in notes.map { _ in false } })
        let output = try await last.call(arguments: .init(GeneratedContent(json: #"{"what": "swimming"}"#)))
        #expect(output.hasPrefix("No note shown tells of swimming. Not of it: "), "\(output)")
        #expect(sources.results.isEmpty && sources.lastTime == nil)
    }
}
