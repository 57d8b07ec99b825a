// Search: ranking, query syntax, filters, and hostile input that must never be a syntax error.
import Notes
import Testing
@testable import Storage

struct SearchTests {
    func sampleStore() throws -> NoteStore {
        let store = try inMemoryStore()
        let texts = [
            "Dentist appointment\nCall the dentist on Monday about the crown #health",
            "Meeting notes\nBudget meeting with Ana; dentist mentioned once #work",
            "Groceries\nmilk, eggs, bread, café au lait #home",
            "Reading list\nThe Pragmatic Programmer, Designing Data-Intensive Applications #study",
            "Trip to Zürich\nbook the train, pack the charger #travel",
        ]
        for (index, text) in texts.enumerated() { try store.insert(try makeNote(text, at: 1_764_000_000_000 + Int64(index) * 1000)) }
        return store
    }

    @Test func ranksTitleMatchesFirstAndHighlights() throws {
        let hits = try sampleStore().search("dentist")
        #expect(hits.map(\.title) == ["Dentist appointment", "Meeting notes"])
        #expect(hits[0].score > hits[1].score)
        #expect(hits[0].snippet.contains(SearchHit.highlightStart + "dentist" + SearchHit.highlightEnd))
        #expect(hits[0].snippet.hasPrefix("Call the"), "the title is shown above the snippet, not in it")
    }

    @Test func aSnippetDoesNotRepeatTheTitle() {
        let start = SearchHit.highlightStart, end = SearchHit.highlightEnd
        #expect(Snippet.withoutTitle("\(start)Dentist\(end) appointment\nCall the \(start)dentist\(end)", title: "Dentist appointment")
                == "Call the \(start)dentist\(end)")
        #expect(Snippet.withoutTitle("Trip to \(start)Zürich and Basel\(end) soon", title: "Trip to Zürich") == "\(start)and Basel\(end) soon")
        #expect(Snippet.withoutTitle("Groceries", title: "Groceries") == "Groceries", "a note that is only its title keeps it")
        #expect(Snippet.withoutTitle("\(start)Dentist\(end) on Monday #health", title: "Dentist on Monday") == "\(start)Dentist\(end) on Monday #health")
        #expect(Snippet.withoutTitle("…budget meeting…", title: "Meeting notes") == "…budget meeting…")
    }

    @Test func supportsPrefixPhraseBooleanAndStemming() throws {
        let store = try sampleStore()
        #expect(try store.search("dent*").count == 2)
        #expect(try store.search("\"budget meeting\"").map(\.title) == ["Meeting notes"])
        #expect(try store.search("\"meeting budget\"").isEmpty)
        #expect(try store.search("milk OR train").count == 2)
        #expect(try store.search("dentist NOT budget").map(\.title) == ["Dentist appointment"])
        #expect(try store.search("dentist -budget").map(\.title) == ["Dentist appointment"])
        #expect(try store.search("meetings").map(\.title) == ["Meeting notes"])
        #expect(try store.search("zurich").map(\.title) == ["Trip to Zürich"])
        #expect(try store.search("CAFE").count == 1)
    }

    @Test func filtersByTagAndTime() throws {
        let store = try sampleStore()
        #expect(try store.search("dentist", filter: NoteFilter(tag: "work")).map(\.title) == ["Meeting notes"])
        #expect(try store.search("dentist", filter: NoteFilter(since: Timestamp(milliseconds: 1_764_000_000_500))).map(\.title) == ["Meeting notes"])
        #expect(try store.search("dentist", filter: NoteFilter(until: Timestamp(milliseconds: 1_764_000_000_500))).map(\.title) == ["Dentist appointment"])
    }

    @Test(arguments: [
        "\"", "\"\"", "'", "*", "**", "AND", "OR", "NOT", "NOT NOT", "a AND", "OR b", "(", ")", "(dentist",
        "dentist)", "title:dentist", "^dentist", "dent\"ist", "-", "--", "-dentist", "NEAR(a b)", "{a b}", ":", "+", "\\",
        "dentist\u{0}", "🦷", "日本語", "Ünïcödé", "a\"b\"c", "'; DROP TABLE notes; --", "%", "_", "dentist*\"*",
        String(repeating: "dentist ", count: 300), "\u{202E}evil", "\t\n", "",
    ])
    func hostileInputNeverFails(query: String) throws {
        let store = try sampleStore()
        _ = try store.search(query)
        #expect(try store.counts().notes == 5)
    }

    @Test func queryTranslation() {
        #expect(SearchQuery("").matchExpression == nil)
        #expect(SearchQuery("AND OR NOT").matchExpression == nil)
        #expect(SearchQuery("a b").matchExpression == "\"a\" AND \"b\"")
        #expect(SearchQuery("a OR b").matchExpression == "\"a\" OR \"b\"")
        #expect(SearchQuery("NOT a b").matchExpression == "\"b\"")
        #expect(SearchQuery("pre*").matchExpression == "\"pre\"*")
        #expect(SearchQuery("\"two words\"").matchExpression == "\"two words\"")
        #expect(SearchQuery("say \"hi").matchExpression == "\"say\" AND \"hi\"")
    }
}
