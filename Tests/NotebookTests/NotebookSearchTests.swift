// Vectors in the quick stage and hybrid search, with a fake embedder whose "meaning" is a fixed
// table of synonyms: made once per text, stored only if the note is unchanged, words first.
import Foundation
import NotebookTestSupport
import Notes
import Storage
import Testing
@testable import Notebook

struct NotebookSearchTests {
    let store: NoteStore
    let embedder = FakeEmbedder()
    let clock = { Timestamp(iso8601: "2026-11-30T09:00:00Z")! }

    init() throws { store = try NoteStore(database: Database(path: ":memory:")) }

    @discardableResult
    func add(_ text: String, at minute: Int64) throws -> Note {
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(milliseconds: 1_800_000_000_000 + minute * 60_000))
        try store.insert(note)
        return note
    }

    func queue(_ events: @escaping (AnalysisEvent) -> Void = { _ in }) -> AnalysisQueue {
        AnalysisQueue(store: store, analyzer: FakeAnalyzer(), embedder: embedder, clock: clock, report: events)
    }

    @Test func vectorsComeInBatchesAfterABacklogsQuickStageAndAreNeverMadeTwiceForTheSameText() async throws {
        for minute in 0..<20 { try add("note number \(minute) about the vet", at: Int64(minute)) }
        var batches: [Int] = []
        let queue = queue { if case let .embedded(ids, _) = $0 { batches.append(ids.count) } }
        #expect(try queue.lackingVectorCount() == 20)
        try await queue.step()
        #expect(batches.isEmpty, "a backlog of 20 gets its quick stage (without the model) first")
        try await queue.step()
        #expect(batches == [AnalysisQueue.embeddingBatch])
        #expect(embedder.embedded.first?.contains("19") == true, "newest first")
        while try await queue.step() {}
        #expect(batches == [AnalysisQueue.embeddingBatch, 4])
        #expect(try queue.lackingVectorCount() == 0)
        // A new queue (a daemon restart) finds nothing to embed.
        let again = self.queue()
        #expect(try !again.embedNext())
        #expect(embedder.embedded.count == 20)
    }

    @Test func anEditedNoteIsEmbeddedAgainAndAFailureIsNotRetriedUntilThen() throws {
        var note = try add("Take the cat to the vet", at: 1)
        let queue = queue()
        embedder.failing = true
        #expect(try queue.embedNext())
        #expect(try !queue.embedNext(), "a failed note waits for an edit")
        embedder.failing = false
        note.body = "Take the cat to the vet on Friday"
        try store.update(note)
        #expect(try queue.embedNext())
        #expect(embedder.embedded.count == 1)
        #expect(embedder.embedded.first?.hasSuffix("on Friday") == true, "the edited text, once")
    }

    @Test func aNoteEditedWhileItWasEmbeddedKeepsNoStaleVector() throws {
        var note = try add("Take the cat to the vet", at: 1)
        let queue = queue()
        let notes = try store.notesLackingVectors(model: embedder.version)
        note.body = "The hoover broke"
        try store.update(note)
        #expect(try store.saveVectors([(id: notes[0].id, contentHash: notes[0].contentHash, chunks: [[1]])], model: embedder.version).isEmpty)
        #expect(try queue.lackingVectorCount() == 1)
    }

    @Test func hybridFindsOtherWordsAndKeepsExactWordsFirst() throws {
        let vet = try add("Vet appointment for the cat", at: 1)
        let jabs = try add("Kitty jabs are due", at: 2)
        let vacuum = try add("Buy a vacuum cleaner", at: 3)
        try add("Call the landlord about the flat", at: 4)
        while try queue().embedNext() {}
        let search = NotebookSearch(store: store, embedder: embedder)

        let results = try search.search("hoover")
        #expect(results.map(\.hit.id) == [vacuum.id])
        #expect(results.map(\.match) == [.meaning])

        // "jabs" is in one note: it ranks above the note that only means the same.
        let exact = try search.search("jabs")
        #expect(exact.map(\.hit.id) == [jabs.id, vet.id])
        #expect(exact.map(\.match) == [.both, .meaning])
        #expect(exact[0].hit.score > exact[1].hit.score)

        #expect(try search.search("jabs", mode: .words).map(\.hit.id) == [jabs.id])
        #expect(try search.search("jabs", mode: .words).map(\.match) == [.words])
        #expect(try search.search("kitty -vet").map(\.hit.id) == [jabs.id], "an excluded word excludes meaning-only notes too")
        #expect(try search.search("teeth").isEmpty, "nothing close enough")
        #expect(try NotebookSearch(store: store, embedder: nil).search("hoover").isEmpty, "without an embedder, words only")
    }

    @Test func relatedNotesAreTheNearestOthers() throws {
        let vet = try add("Vet appointment for the cat", at: 1)
        let jabs = try add("Kitty jabs are due", at: 2)
        try add("Buy a vacuum cleaner", at: 3)
        let search = NotebookSearch(store: store, embedder: embedder)
        #expect(try search.related(to: vet.id, computeIfMissing: false) == nil, "no vector yet, none made")
        #expect(try search.related(to: vet.id, limit: 2) == [], "its vector is made now; the others have none yet")
        #expect(try store.vectors(for: vet.id, model: embedder.version) != nil)
        while try queue().embedNext() {}
        #expect(try search.related(to: vet.id, limit: 2)?.map(\.id).first == jabs.id)
        let related = try #require(try search.related(to: vet.id, limit: 5))
        #expect(related.map(\.id) == [jabs.id], "the vacuum cleaner is below the embedder's floor: not about the same thing")
        #expect(related.allSatisfy { $0.similarity >= embedder.relatedFloor })
    }
}

extension NotebookSearchTests {
    @Test func aNoteWithARareWordOfTheQueryRanksAboveMeaningAlone() throws {
        let okafor = try add("Book Okafor for a crown", at: 1)
        try add("Okafor's garden party", at: 9)
        let teeth = try add("Teeth cleaning at the hygienist", at: 2)
        for minute in 3..<8 { try add("Unrelated note \(minute) about the garden", at: Int64(minute)) }
        while try queue().embedNext() {}
        let search = NotebookSearch(store: store, embedder: embedder)
        // No note has both words; "okafor" is rare, so the note that has it and is about the same
        // thing ranks by words; the one that only shares the name does not rank at all.
        let results = try search.search("okafor dentist")
        #expect(results.map(\.hit.id) == [okafor.id, teeth.id])
        #expect(results.map(\.match) == [.both, .meaning])
        #expect(try search.search("okafor dentist", mode: .words).isEmpty, "--exact keeps every word required")
        #expect(try search.search("okafor dentist -crown").map(\.hit.id) == [teeth.id])
    }
}
