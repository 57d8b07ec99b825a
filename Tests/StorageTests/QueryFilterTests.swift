// Filters in the query: each field's forms, negation, combination with words, and every
// malformed value an error that says what was expected (never an SQL or FTS error).
import Notes
import Testing
@testable import Storage

struct QueryFilterTests {
    // 2026-11-30T09:00:00Z
    let now = Timestamp(iso8601: "2026-11-30T09:00:00Z")!

    func store() throws -> (NoteStore, [String: NoteID]) {
        let store = try inMemoryStore()
        var ids: [String: NoteID] = [:]
        let notes: [(String, String, Category, Int, String?)] = [
            ("Pay the rent #home", "2026-11-02T10:00:00Z", .finance, 4, "2026-12-01"),
            ("Team offsite plan #work", "2026-10-15T10:00:00Z", .work, 2, "2026-12-20"),
            ("Buy milk #home", "2026-11-29T10:00:00Z", .personal, 5, nil),
        ]
        for (text, created, category, urgency, due) in notes {
            let note = try makeNote(text, at: Timestamp(iso8601: created)!.milliseconds)
            try store.insert(note)
            ids[note.title] = note.id
            try store.saveAnalysis(Analysis(category: category, urgency: urgency, tasks: [TaskItem(text: "do it", due: due)], summary: "",
                                            model: "test", analyzedAt: now, analyzerVersion: "v1", contentHash: note.contentHash), for: note.id)
        }
        return (store, ids)
    }

    func titles(_ store: NoteStore, _ query: String) throws -> Set<String> {
        Set(try store.search(query, now: now).map(\.title))
    }

    @Test func eachFieldFilters() throws {
        let (store, _) = try store()
        #expect(try titles(store, "tag:home") == ["Pay the rent", "Buy milk"])
        #expect(try titles(store, "-tag:home") == ["Team offsite plan"])
        #expect(try titles(store, "category:finance") == ["Pay the rent"])
        #expect(try titles(store, "category:WORK") == ["Team offsite plan"])
        #expect(try titles(store, "urgency:>=4") == ["Pay the rent", "Buy milk"])
        #expect(try titles(store, "urgency:2") == ["Team offsite plan"])
        #expect(try titles(store, "urgency:<2").isEmpty)
        #expect(try titles(store, "created:2026-11") == ["Pay the rent", "Buy milk"])
        #expect(try titles(store, "created:2026-10-15") == ["Team offsite plan"])
        #expect(try titles(store, "created:<2026-11") == ["Team offsite plan"])
        #expect(try titles(store, "created:>=2026-11-02") == ["Pay the rent", "Buy milk"])
        #expect(try titles(store, "created:<7d") == ["Buy milk"])
        #expect(try titles(store, "created:>30d") == ["Team offsite plan"])
        #expect(try titles(store, "created:yesterday") == ["Buy milk"])
        #expect(try titles(store, "created:2026") == ["Pay the rent", "Buy milk", "Team offsite plan"])
        #expect(try titles(store, "due:<7d") == ["Pay the rent"])
        #expect(try titles(store, "due:tomorrow") == ["Pay the rent"])
        #expect(try titles(store, "due:>=2026-12-15") == ["Team offsite plan"])
        #expect(try titles(store, "due:2026-12") == ["Pay the rent", "Team offsite plan"])
        #expect(try titles(store, "due:4w") == ["Pay the rent", "Team offsite plan"])
    }

    @Test func filtersCombineWithWordsAndEachOther() throws {
        let (store, _) = try store()
        #expect(try titles(store, "rent tag:home") == ["Pay the rent"])
        #expect(try titles(store, "milk urgency:<3").isEmpty)
        #expect(try titles(store, "tag:home urgency:5 created:2026-11") == ["Buy milk"])
        #expect(try titles(store, "\"tag:home\"").isEmpty, "inside quotes it is words")
    }

    @Test func aMalformedFilterSaysWhatWasExpected() throws {
        let (store, _) = try store()
        for (query, expected) in [("urgency:high", "a number from 1 to 5"), ("urgency:>=9", "a number from 1 to 5"), ("urgency:", "a number"),
                                  ("category:wrk", "one of work, personal"), ("tag:", "a tag name"), ("created:2026-13", "a date"),
                                  ("created:2026-02-30", "a date"), ("due:<7x", "days or weeks"), ("due:yesterday", "a date"),
                                  ("tag:=>home", "a tag name"), ("created:<<7d", "a date")] {
            #expect(throws: SearchQueryError.self, "\(query)") { try store.search(query, now: now) }
            #expect(SearchQuery(query).invalidFilter?.description.contains(expected) == true, "\(query): \(SearchQuery(query).invalidFilter?.description ?? "")")
        }
        #expect(try titles(store, "note:rent").isEmpty, "an unknown key is a word")
        #expect(SearchQuery("https://example.org").invalidFilter == nil)
    }

    @Test func theMeaningTextLeavesOutFiltersOperatorsAndExcludedTerms() {
        let query = SearchQuery("cat vet tag:pets -dog OR \"crown check\" NOT budget")
        #expect(query.meaningText == "cat vet crown check")
        #expect(query.excludedTerms == ["dog", "budget"])
        #expect(query.filters.count == 1)
    }
}
