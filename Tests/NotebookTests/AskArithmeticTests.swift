// Arithmetic by code in `notes ask` (issue 32): the amounts offered for a total, the time a
// question names, the total and the count the tools make, and an answer held to them.
@testable import AI
import Notes
import Storage
import Testing
@testable import Notebook
import Synchronization


struct AskArithmeticTests {
    /// A Tuesday.
    let now = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    @Test func amountsAreNumbersWithAUnit() {
        func texts(_ text: String) -> [String] { AskAmount.amounts(in: text, handle: "N1").map(\.text) }
        #expect(texts("Garage bill for the car: new brake pads, 240 euros.") == ["240 euros"])
        #expect(texts("Train tickets: £120 return, and €48.50 for the taxi") == ["£120", "€48.50"])
        #expect(texts("5 km park run in 26:40, then 23,5 km on Sunday") == ["5 km", "23,5 km"])
        #expect(texts("Room 214, code KX-5521, seat 14C, 3 hours, 1,150 euros") == ["3 hours", "1,150 euros"])
        #expect(texts("Τα παπούτσια κόστισαν 89 ευρώ.") == ["89 ευρώ"])
        #expect(AskAmount.amounts(in: "1,150 euros and 23,5 km and 4.6 kg", handle: "N2").map(\.value) == [1150, 23.5, 4.6])
        #expect(AskAmount.amounts(in: "1,150 euros", handle: "N2").first?.unit == "euros")
        #expect(AskAmount.amounts(in: "£5 and 7 pounds", handle: "N2").map(\.unit) == ["pounds", "pounds"])
        #expect(AskAmount.format(23.5) == "23.5" && AskAmount.format(295) == "295" && AskAmount.format(0.1 + 0.2) == "0.3")
    }

    @Test func theTimeAQuestionNamesIsADaySpanFromToday() throws {
        func span(_ question: String) -> String? {
            AskPeriod.named(in: question, now: now).map { ($0.days?.first ?? "") + ".." + ($0.days?.last ?? "") }
        }
        #expect(span("How many times did I go jogging last month?") == "2026-11-01..2026-11-30")
        #expect(span("How many bad headaches did I have in November?") == "2026-11-01..2026-11-30")
        #expect(span("How many times have I donated blood this year?") == "2026-01-01..2026-12-31")
        // Monday to Sunday around Tuesday 1 December.
        #expect(span("What did I spend this week?") == "2026-11-30..2026-12-06")
        #expect(span("What did I spend last week?") == "2026-11-23..2026-11-29")
        // A month still to come this year is last year's.
        #expect(try #require(AskPeriod("in February", now: Timestamp(iso8601: "2026-01-10T09:00:00Z")!)).days?.first == "2025-02-01")
        #expect(try #require(AskPeriod("in February", now: Timestamp(iso8601: "2028-03-10T09:00:00Z")!)).days?.last == "2028-02-29")
        #expect(try #require(AskPeriod("last month", now: Timestamp(iso8601: "2027-01-04T09:00:00Z")!)).days?.first == "2026-12-01")
        #expect(span("How many jobs have I applied for?") == nil)
        // In the other languages a question is read in: the phrases, and a month in the case "in" takes.
        #expect(span("Kuinka monta kertaa pelasin sulkista marraskuussa?") == "2026-11-01..2026-11-30")
        #expect(span("Ile razy byłem na basenie w listopadzie?") == "2026-11-01..2026-11-30")
        #expect(span("Πόσες φορές πήγα γυμναστήριο τον Νοέμβριο;") == "2026-11-01..2026-11-30")
        #expect(span("Πόσα ξόδεψα φέτος για βενζίνη;") == "2026-01-01..2026-12-31")
        #expect(span("Ile wydałam w zeszłym miesiącu na taksówki?") == "2026-11-01..2026-11-30")
        #expect(span("Paljonko maksoin viime vuonna sähköstä?") == "2025-01-01..2025-12-31")
        #expect(span("Wie oft war ich im Oktober schwimmen?") == "2026-10-01..2026-10-31")
        // Not a month: an abbreviation, or a word that is another word too.
        #expect(span("¿Qué marca es mi bici?") == nil && span("Ile kosztuje mar?") == nil)
        #expect(span("What may I bring?") == nil)
    }

    @Test func whatIsCountedIsSaidWithoutTheTime() {
        #expect(AskPeriod.withoutTime("jogging last month") == "jogging")
        #expect(AskPeriod.withoutTime("runs in November") == "runs")
        #expect(AskPeriod.withoutTime("blood donations this year") == "blood donations")
        #expect(AskPeriod.withoutTime("sulkapallo marraskuussa") == "sulkapallo")
        #expect(AskPeriod.withoutTime("basen w listopadzie") == "basen")
        #expect(AskPeriod.withoutTime("γυμναστήριο τον Νοέμβριο") == "γυμναστήριο")
        // Nothing else left: as it was.
        #expect(AskPeriod.withoutTime("last month") == "last month")
        #expect(AskPeriod.withoutTime("car bills") == "car bills")
    }

    @Test func whetherAnAnswerStatesAFigure() {
        #expect(AskResult.states("295", "You spent 295 euros."))
        #expect(AskResult.states("1150", "1,150 euros in all"))
        #expect(AskResult.states("23.5", "23,5 km"))
        #expect(AskResult.states("3", "Three times."))
        #expect(!AskResult.states("295", "240 + 55 + 84 = 379 euros"))
        #expect(!AskResult.states("3", "2 times"))
    }

    /// Three notes shown by a search in one request, the first two in November.
    func shown() async throws -> (AskNotebook, AskSources, [Note]) {
        let store = try NoteStore(database: Database(path: ":memory:"))
        var notes: [Note] = []
        for (text, day) in [("Brake pads: garage bill, 240 euros", "2026-11-28"), ("Car test: paid 55 euros for the inspection", "2026-11-25"),
                            ("Car wash: 12 euros at the station", "2026-10-30")] {
            let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(iso8601: day + "T10:00:00Z")!)
            try store.insert(note)
            notes.append(note)
        }
        let notebook = AskNotebook(search: NotebookSearch(store: store, embedder: nil), now: now)
        let sources = AskSources()
        return (notebook, sources, notes)
    }

    func search(_ words: String, _ notebook: AskNotebook, _ sources: AskSources) async throws {
        _ = try await SearchNotesTool(notebook: notebook, sources: sources).call(arguments: try .init(GeneratedContent(json: #"{"query": "\#(words)"}"#)))
    }

    @Test func aTotalIsAddedUpByCodeFromTheAmountsPicked() async throws {
        let (notebook, sources, notes) = try await shown()
        sources.beginRequest()
        let addUp = AddUpTool(notebook: notebook, sources: sources)
        #expect(!addUp.isOffered)
        try await search("euros", notebook, sources)
        #expect(addUp.isOffered)
        let choices = sources.amounts.map(addUp.choice)
        #expect(choices.count == 3 && choices.allSatisfy { $0.hasPrefix("N") })
        // The schema offers exactly the amounts shown.
        guard case .object(let object) = addUp.parameters, case .array(let items) = object.properties[0].schema,
              case .string(let item) = items.items else { Issue.record("not a list of strings"); return }
        #expect(item.anyOf == choices && items.minimumCount == 2)
        let pads = try #require(choices.first { $0.contains("240") }), test = try #require(choices.first { $0.contains("55") })
        let output = try await addUp.call(arguments: AskPicks(GeneratedContent(json: #"{"items": ["\#(pads)", "\#(test)"]}"#)))
        #expect(output.hasPrefix("Total: 295 euros, from 240 euros ("), "\(output)")
        let result = try #require(sources.results.last)
        #expect(result.figure == "295" && result.handles.compactMap { sources.note($0)?.id } == [notes[0].id, notes[1].id])
        // A choice no note shown states is refused, not added.
        #expect(try await addUp.call(arguments: AskPicks(GeneratedContent(json: #"{"items": ["N9 Rent: 900 euros", "\#(pads)"]}"#))).hasPrefix("No note shown"))
        // The model's answer with the wrong total is replaced by the code's; its sources become the notes added.
        let wrong = NotebookQuestions.Answer(text: "240 + 55 + 12 = 307 euros", sources: [], searches: [])
        let fixed = NotebookQuestions.stating(result, in: wrong, sources: sources)
        #expect(fixed.text == "295 euros in all: 240 euros (\(notes[0].title)) + 55 euros (\(notes[1].title)).")
        #expect(fixed.sources.map(\.id) == [notes[0].id, notes[1].id])
        let right = NotebookQuestions.Answer(text: "You spent 295 euros on the car.", sources: [], searches: [])
        #expect(NotebookQuestions.stating(result, in: right, sources: sources).text == right.text)
        let declined = NotebookQuestions.Answer(text: AskCheck.declined, sources: [], searches: [])
        #expect(NotebookQuestions.stating(result, in: declined, sources: sources) == declined)
    }

    @Test func aQuestionAsksForATotalInSoManyWords() {
        for question in ["How much did the shower head and the tap cost together?", "What did the kitchen cost in total?",
                         "All told, what is the wedding costing me?", "Paljonko käytin lahjoihin yhteensä?",
                         "Ile razem kosztowały upominki?", "Πόσο κόστισαν συνολικα;"] {
            #expect(AddUpTool.isAskedFor(in: question), "\(question)")
        }
        for question in ["How much was the shower head?", "Who is the tiler?", "Is the totality of the eclipse visible?"] {
            #expect(!AddUpTool.isAskedFor(in: question), "\(question)")
        }
    }

    @Test func eachNoteIsAskedAboutTwoWaysThatShareItsText() {
        let about = AskJudge.prompt(title: "Run 8 Nov", text: "5 km park run.", asked: AskJudge.aboutIt("runs"))
        let counted = AskJudge.prompt(title: "Run 8 Nov", text: "5 km park run.", asked: AskJudge.countedBy("How many times did I go jogging?", "runs"))
        // The note comes first, so that the second way of asking finds it in the cache.
        #expect(about.hasPrefix("Note \"Run 8 Nov\": 5 km park run.\n\n") && counted.hasPrefix("Note \"Run 8 Nov\": 5 km park run.\n\n"))
        #expect(about.hasSuffix("Is this note about runs? Reply yes or no."))
        #expect(counted.contains("Question: How many times did I go jogging?\n") && counted.hasSuffix("the question counts? Reply yes or no."))
    }

    @Test func aQuestionAsksForACountInSoManyWords() {
        for question in ["How many times did I go jogging last month?", "How often have I been to see my sister?",
                         "How many bad headaches did I have in November?", "How many takeaways did we order?",
                         "Kuinka monta kertaa pelasin sulkapalloa?", "Ile razy byłem u dentysty?", "Πόσες φορές πήγα γυμναστήριο;"] {
            #expect(CountNotesTool.isAskedFor(in: question), "\(question)")
        }
        for question in ["How many km did I run in total?", "How many hours did Chloe babysit?", "How many people come to the party?",
                         "When is the dentist?"] {
            #expect(!CountNotesTool.isAskedFor(in: question), "\(question)")
        }
    }

    @Test func aQuestionThatAsksForACountCallsCountNotesBeforeItAnswers() async throws {
        let (notebook, sources, _) = try await shown()
        sources.beginRequest(question: "How many times did I pay for the car?")
        var transcript = Transcript(entries: [.prompt(.init(text: "Question: ..."))])
        func step() -> String {
            switch NotebookQuestions.nextStep(in: transcript, after: 0, sources: sources, asksForATotal: false, asksForACount: true) {
            case .callTool(let only): "call " + (only ?? []).joined(separator: ",")
            case .answer: "answer"
            }
        }
        #expect(step() == "call search_notes")
        let arguments = try GeneratedContent(json: #"{"query": "euros"}"#)
        try await search("euros", notebook, sources)
        transcript.append(.toolCall(.init(toolName: "search_notes", arguments: arguments)))
        transcript.append(.toolOutput(.init(toolName: "search_notes", text: "N1 ...")))
        #expect(step() == "call count_notes")
        transcript.append(.toolCall(.init(toolName: "count_notes", arguments: try GeneratedContent(json: #"{"what": "car bills"}"#))))
        transcript.append(.toolOutput(.init(toolName: "count_notes", text: "2 notes: ...")))
        #expect(step() == "answer")
        // The model's words for a count ("2", "2 notes written") say nothing of what was
        // counted: the count's statement replaces them.
        let result = AskResult(figure: "2", statement: "2 times: Brake pads, Car test.", handles: ["N1", "N2"], askedOfEachNote: true)
        for text in ["2", "2 notes written last month"] {
            let answer = NotebookQuestions.Answer(text: text, sources: [], searches: [])
            #expect(NotebookQuestions.stating(result, in: answer, sources: sources).text == "2 times: Brake pads, Car test.")
        }
    }

    @Test func aQuestionThatAsksForATotalCallsAddUpBeforeItAnswers() async throws {
        let (notebook, sources, _) = try await shown()
        sources.beginRequest(question: "What did the brake pads and the car test cost together?")
        func step(_ transcript: Transcript, total: Bool = true) -> String {
            switch NotebookQuestions.nextStep(in: transcript, after: 0, sources: sources, asksForATotal: total) {
            case .callTool(let only): "call " + (only ?? []).joined(separator: ",")
            case .answer: "answer"
            }
        }
        var transcript = Transcript(entries: [.prompt(.init(text: "Question: ..."))])
        #expect(step(transcript) == "call search_notes")
        let arguments = try GeneratedContent(json: #"{"query": "euros"}"#)
        try await search("euros", notebook, sources)
        transcript.append(.toolCall(.init(toolName: "search_notes", arguments: arguments)))
        transcript.append(.toolOutput(.init(toolName: "search_notes", text: "N1 ...")))
        #expect(sources.amounts.count >= 2)
        #expect(step(transcript) == "call add_up")
        #expect(step(transcript, total: false) == "answer")
        transcript.append(.toolCall(.init(toolName: "add_up", arguments: arguments)))
        transcript.append(.toolOutput(.init(toolName: "add_up", text: "Total: ...")))
        #expect(step(transcript) == "answer")
    }

    @Test func amountsOfDifferentKindsAreNotAdded() async throws {
        let store = try NoteStore(database: Database(path: ":memory:"))
        for text in ["Parking permit for this year: 84 euros", "Park run: 5 km in 26:40"] {
            try store.insert(try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: now))
        }
        let notebook = AskNotebook(search: NotebookSearch(store: store, embedder: nil), now: now)
        let sources = AskSources()
        sources.beginRequest()
        try await search("park", notebook, sources)
        let addUp = AddUpTool(notebook: notebook, sources: sources)
        let all = sources.amounts.map(addUp.choice)
        #expect(all.count == 2)
        let output = try await addUp.call(arguments: AskPicks(GeneratedContent(json: #"{"items": ["\#(all[0])", "\#(all[1])"]}"#)))
        #expect(output.hasPrefix("Not added: ") && output.contains("84 euros") && output.contains("5 km") && output.contains("measure different things"), "\(output)")
        #expect(sources.results.isEmpty)
    }

    @Test func aTotalInATimeAddsOnlyTheNotesWrittenThen() async throws {
        let (notebook, sources, _) = try await shown()
        sources.beginRequest(period: AskPeriod("last month", now: now))
        try await search("euros", notebook, sources)
        let addUp = AddUpTool(notebook: notebook, sources: sources)
        let all = sources.amounts.map(addUp.choice).map { "\"\($0)\"" }.joined(separator: ", ")
        let output = try await addUp.call(arguments: AskPicks(GeneratedContent(json: #"{"items": [\#(all)]}"#)))
        #expect(output.hasPrefix("Total: 295 euros"), "\(output)")
        #expect(output.contains("Not added, written at another time than last month (2026-11-01 to 2026-11-30): 12 euros ("))
    }

    @Test func aCountIsOfTheNotesTheModelSaysTellOfItInTheTimeTheQuestionNames() async throws {
        let (notebook, sources, notes) = try await shown()
        sources.beginRequest(question: "How many times did I pay for the car last month?", period: AskPeriod("last month", now: now))
        let asked = Mutex<[String]>([])
        let judge = AskJudge { question, what, notes in
            #expect(question == "How many times did I pay for the car last month?")
            #expect(what == "car bills")
            asked.withLock { $0 = notes.map(\.title) }
            return notes.map { !($0.title + " " + $0.text).contains("Car test") }
        }
        let count = CountNotesTool(notebook: notebook, sources: sources, judge: judge)
        #expect(!count.isOffered)
        try await search("euros", notebook, sources)
        #expect(count.isOffered)
        let output = try await count.call(arguments: .init(GeneratedContent(json: #"{"what": "car bills"}"#)))
        // Only the notes written last month are put to the model, each by its handle and title.
        #expect(asked.withLock { $0 }.count == 2)
        #expect(output.hasPrefix("1 note written last month (2026-11-01 to 2026-11-30): "), "\(output)")
        #expect(output.contains("Not of it: ") && output.contains("Not counted, written at another time: ") && output.contains("(2026-10-30)"))
        let result = try #require(sources.results.last)
        #expect(result.figure == "1" && result.handles.compactMap { sources.note($0)?.id } == [notes[0].id])
        #expect(result.statement.hasPrefix("1 time last month: "))
    }

    @Test func aSearchThatCopiesANotesWordsIsRefused() async throws {
        let (notebook, sources, _) = try await shown()
        sources.beginRequest(question: "What did the garage bill come to?")
        try await search("euros", notebook, sources)
        #expect(sources.copiesShownText("paid 55 euros for the inspection"))
        #expect(try await SearchNotesTool(notebook: notebook, sources: sources)
            .call(arguments: try .init(GeneratedContent(json: #"{"query": "Paid 55 euros for the inspection"}"#))).hasPrefix("That is the text of a note"))
        // Fewer than five words, or the question's own words, are a search like any other.
        #expect(!sources.copiesShownText("55 euros inspection"))
        sources.beginRequest(question: "What did I pay for the car test: paid 55 euros for the inspection?")
        try await search("euros", notebook, sources)
        #expect(!sources.copiesShownText("paid 55 euros for the inspection"))
    }

    @Test func aNoteShownWholeIsNotOfferedForReading() async throws {
        let (notebook, sources, _) = try await shown()
        sources.beginRequest()
        let read = ReadNoteTool(notebook: notebook, sources: sources)
        #expect(!read.isOffered)
        try await search("euros", notebook, sources)
        // Each note is shorter than a search result's start: there is nothing more to read.
        #expect(!read.isOffered && sources.partlyShown.isEmpty)
        let long = try NoteInput.makeNote(text: "Long note " + String(repeating: "word ", count: 100), title: nil, extraTags: [], at: now)
        try notebook.withSearch { try $0.store.insert(long) }
        try await search("word", notebook, sources)
        #expect(read.isOffered && sources.partlyShown.count == 1)
    }

    @Test func theDaysNotesStateAreTheirCalendarDates() {
        // Written on 2026-11-20: a day and month without the year is the one ahead.
        let written = Timestamp.days(fromCivil: 2026, 11, 20)
        let found = Deadlines.calendarDates(in: "Driving test on 22 February at 10:15; theory passed 2026-10-03, see 3.2.2027.", created: written)
        #expect(found == [Timestamp.days(fromCivil: 2027, 2, 22), Timestamp.days(fromCivil: 2026, 10, 3), Timestamp.days(fromCivil: 2027, 2, 3)])
        // Days relative to the note's own are not calendar dates, nor are times and codes.
        #expect(Deadlines.calendarDates(in: "Call her tomorrow or on Friday, in 3 days at 10:15; room 214.", created: written).isEmpty)
        #expect(Deadlines.calendarDates(in: "Εξετάσεις οδήγησης στις 22 Φεβρουαρίου.", created: written) == [Timestamp.days(fromCivil: 2027, 2, 22)])
    }

    @Test func theDaysUntilOrSinceADayANoteStatesAreCountedByCode() async throws {
        let store = try NoteStore(database: Database(path: ":memory:"))
        for (text, day) in [("Driving test: 22 February at 10:15, at the test centre", "2026-11-20"),
                            ("Gave blood: donation on 12 March, next one in three months", "2026-03-12"),
                            ("Dentist check-up on 14 December at 9:30, before the test results", "2026-11-21")] {
            try store.insert(try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(iso8601: day + "T10:00:00Z")!))
        }
        let notebook = AskNotebook(search: NotebookSearch(store: store, embedder: nil), now: now)
        let sources = AskSources()
        let days = CountDaysTool(notebook: notebook, sources: sources)
        sources.beginRequest(question: "How long until my driving test?")
        #expect(!days.isOffered)
        try await search("test", notebook, sources)
        #expect(days.isOffered)
        // Asked how long until, the model counts by the tool before it may answer.
        var transcript = Transcript(entries: [.prompt(.init(text: "Question: ..."))])
        transcript.append(.toolCall(.init(toolName: "search_notes", arguments: try GeneratedContent(json: #"{"query": "driving test"}"#))))
        transcript.append(.toolOutput(.init(toolName: "search_notes", text: "N1 ...")))
        if case .callTool(let only) = NotebookQuestions.nextStep(in: transcript, after: 0, sources: sources, asksForATotal: false, asksForDays: true) {
            #expect(only == ["count_days"])
        } else {
            Issue.record("answered before counting the days")
        }
        // The schema offers the days of the notes that hold most of the question's words
        // ("driving", "test"), each with its note; not the dentist's, which holds only "test".
        #expect(sources.days.count == 2, "\(sources.days)")
        let choices = days.offered.map(days.choice)
        #expect(choices == ["N1 Driving test: 22 February at 10:15, at the test centre: 22 Feb 2027"], "\(choices)")
        guard case .object(let object) = days.parameters, case .string(let day) = object.properties[0].schema else { Issue.record("not an object"); return }
        #expect(day.anyOf == choices)
        let output = try await days.call(arguments: .init(GeneratedContent(json: #"{"day": "\#(choices[0])"}"#)))
        // Tuesday 1 December 2026 to Monday 22 February 2027.
        #expect(output == "22 Feb 2027, a Monday (Driving test: 22 February at 10:15, at the test centre), is in 83 days (11 weeks and 6 days).", "\(output)")
        let result = try #require(sources.results.last)
        #expect(result.figure == "83" && result.handles == ["N1"])
        #expect(result.statement.hasPrefix("In 83 days: 22 Feb 2027 ("))
        // An answer that counts otherwise is replaced by code's count; one that says it stays.
        let wrong = NotebookQuestions.Answer(text: "Your driving test is in 84 days.", sources: [], searches: [])
        #expect(NotebookQuestions.stating(result, in: wrong, sources: sources).text == result.statement)
        let right = NotebookQuestions.Answer(text: "In 83 days, on 22 February.", sources: [], searches: [])
        #expect(NotebookQuestions.stating(result, in: right, sources: sources).text == right.text)
        // A day past, asked in Polish: said in Polish.
        sources.beginRequest(question: "Ile dni temu oddałem krew?")
        try await search("blood donation", notebook, sources)
        let blood = try #require(sources.days.first)
        _ = try await days.call(arguments: .init(GeneratedContent(json: #"{"day": "\#(days.choice(blood))"}"#)))
        #expect(sources.results.last?.statement.hasPrefix("264 dni temu: 2026-03-12 (") == true, "\(sources.results.last?.statement ?? "")")
        // Asked in other words than the notes', every day shown is offered.
        sources.beginRequest(question: "Kuinka monta päivää on ajokokeeseen?")
        try await search("test centre", notebook, sources)
        try await search("dentist", notebook, sources)
        #expect(days.offered.count == 2 && days.offered == sources.days)
        // A day that was not offered is refused.
        let refused = try await days.call(arguments: .init(GeneratedContent(json: #"{"day": "N9 Dentist: 3 Jan 2027"}"#)))
        #expect(refused.hasPrefix("No note shown in this question states"))
    }

    @Test func whichQuestionsAskForTheDaysUntilOrSince() {
        for question in ["How long until my driving test?", "How many days ago did I give blood?", "How many weeks until the wedding?",
                         "Kuinka monta päivää on ajokokeeseen?", "Ile dni zostało do egzaminu?", "Πόσες μέρες μένουν μέχρι το ταξίδι;",
                         "Wie viele Tage noch bis zum Umzug?", "How soon is the visa appointment?"] {
            #expect(CountDaysTool.isAskedFor(in: question), "\(question)")
        }
        // How many days I did something is a count of notes; when, a day, not a span.
        for question in ["How many days did I work from home last month?", "When is my driving test?", "How long is the lease?"] {
            #expect(!CountDaysTool.isAskedFor(in: question), "\(question)")
        }
    }

    @Test func aQuestionThatAsksForTheDaysCallsCountDaysOnceADayIsShown() async throws {
        let (notebook, sources, _) = try await shown()
        sources.beginRequest(question: "How many days since the car test?")
        var transcript = Transcript(entries: [.prompt(.init(text: "Question: ..."))])
        func step() -> String {
            switch NotebookQuestions.nextStep(in: transcript, after: 0, sources: sources, asksForATotal: false, asksForDays: true) {
            case .callTool(let only): "call " + (only ?? []).joined(separator: ",")
            case .answer: "answer"
            }
        }
        #expect(step() == "call search_notes")
        try await search("car test", notebook, sources)
        transcript.append(.toolCall(.init(toolName: "search_notes", arguments: try GeneratedContent(json: #"{"query": "car test"}"#))))
        transcript.append(.toolOutput(.init(toolName: "search_notes", text: "N1 ...")))
        // The notes shown state no calendar day: nothing to count to, so it answers.
        #expect(sources.days.isEmpty && step() == "answer")
    }
}
