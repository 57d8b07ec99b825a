// The language of a question to `notes ask` (issue 32): told from its words, told to the
// reader, and the one code's own answers (a decline, a total, a count) are said in.
@testable import AI
import Notes
import Storage
import Testing
@testable import Notebook

struct AskLanguageTests {
    let now = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    @Test func aQuestionsLanguageIsToldByItsWordsAndLetters() {
        let asked: [(String, AskLanguage)] = [
            ("When is the piano lesson now?", .english),
            ("What did the kitchen cost in total?", .english),
            ("Wifi password?", .english),
            ("Πόσα θέλει ο διαχειριστής για τη θέρμανση;", .greek),
            ("ποτε ειναι το ραντεβου", .greek),
            ("Mistä löydän mökin avaimen?", .finnish),
            ("Kuinka monta kertaa pelasin sulkista marraskuussa?", .finnish),
            ("Ile płacę pani Annie za jedne zajęcia?", .polish),
            ("Jakie ciasto mam zabrać do rodziców Marty?", .polish),
            ("Was kostet die Miete im Januar?", .german),
            ("Wann ist der Zahnarzttermin?", .german),
            ("Combien coûte le loyer ?", .french),
            ("¿Cuándo es la cita con el dentista?", .spanish),
            ("Quanto costa l'assicurazione della macchina?", .italian),
            ("Quanto custou o voo para Lisboa?", .portuguese),
            ("Hoeveel kost de huur?", .dutch),
            ("När börjar kursen?", .swedish),
            ("Koľko stojí nájom?", .slovak),
            ("Kolik stojí nájem?", .czech),
            ("Bao nhiêu tiền thuê nhà?", .vietnamese),
        ]
        for (question, language) in asked {
            #expect(AskLanguage.of(question) == language, "\(question)")
        }
    }

    @Test func theReaderIsToldToAnswerInTheQuestionsLanguage() throws {
        let store = try NoteStore(database: Database(path: ":memory:"))
        let model = LanguageModel(configuration: ModelConfiguration(modelPath: "/nonexistent", contextSize: 512, threads: 1))
        let questions = NotebookQuestions(search: NotebookSearch(store: store, embedder: nil), model: model, now: now)
        #expect(questions.prompt(for: "Πότε έχει γενέθλια η γιαγιά;", in: .of("Πότε έχει γενέθλια η γιαγιά;")).hasSuffix("γιαγιά;\nAnswer in Greek."))
        #expect(questions.prompt(for: "When is Gran's birthday?", in: .of("When is Gran's birthday?")).hasSuffix("Question: When is Gran's birthday?"))
        #expect(AskLanguage.english.declined == AskCheck.declined)
        #expect(["The notes do not say.", "Your notes don’t say", " your notes do not say. "].allSatisfy(AskCheck.isDecline))
        #expect(!AskCheck.isDecline("The notes do not say when, but the lesson is at 5pm."))
        #expect(Set(AskLanguage.allCases.map(\.declined)).count == AskLanguage.allCases.count)
    }

    @Test func aCountAndATotalAreSaidInTheQuestionsLanguage() async throws {
        let store = try NoteStore(database: Database(path: ":memory:"))
        for text in ["Sulkapallo Ainon kanssa, 40 euroa kenttävuokra", "Sulkapallo taas, 35 euroa", "Kirjasto: palautin kirjat"] {
            try store.insert(try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: now))
        }
        let notebook = AskNotebook(search: NotebookSearch(store: store, embedder: nil), now: now)
        let sources = AskSources()
        sources.beginRequest(question: "Kuinka monta kertaa pelasin sulkapalloa?")
        #expect(sources.language == .finnish)
        _ = try await SearchNotesTool(notebook: notebook, sources: sources).call(arguments: try .init(GeneratedContent(json: #"{"query": "sulkapallo"}"#)))
        let count = CountNotesTool(notebook: notebook, sources: sources, judge: AskJudge { _, _, notes in notes.map { _ in true } })
        _ = try await count.call(arguments: .init(GeneratedContent(json: #"{"what": "sulkapallo"}"#)))
        #expect(try #require(sources.results.last).statement.hasPrefix("2 kertaa: "), "\(sources.results)")
        let addUp = AddUpTool(notebook: notebook, sources: sources)
        let picks = sources.amounts.map(addUp.choice).map { "\"\($0)\"" }.joined(separator: ", ")
        _ = try await addUp.call(arguments: AskPicks(GeneratedContent(json: #"{"items": [\#(picks)]}"#)))
        #expect(try #require(sources.results.last).statement.hasPrefix("75 euros yhteensä: "), "\(sources.results)")
        #expect(AskLanguage.polish.times(1) == "1 raz" && AskLanguage.english.times(1) == "1 time" && AskLanguage.greek.times(3) == "3 φορές")
    }
}
