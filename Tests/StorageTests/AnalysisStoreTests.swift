// Stored analyses: pending notes, stale results refused, done marks and user corrections kept.
import Notes
import Testing
@testable import Storage

struct AnalysisStoreTests {
    func analysis(of note: Note, category: Category = .health, urgency: Int = 4, tasks: [String] = ["call the dentist"], version: String = "v1") -> Analysis {
        Analysis(category: category, urgency: urgency, tasks: tasks.map { TaskItem(text: $0) }, summary: "A dentist call.",
                 model: "test", analyzedAt: Timestamp(milliseconds: 5), analyzerVersion: version, contentHash: note.contentHash)
    }

    @Test func pendingUntilAnalysedThenAgainAfterAnEditOrANewVersion() throws {
        let store = try inMemoryStore()
        var note = try makeNote("call the dentist")
        try store.insert(note)
        #expect(try store.pendingAnalysis(analyzerVersion: "v1") == [note.id])
        #expect(try store.saveAnalysis(analysis(of: note), for: note.id))
        #expect(try store.pendingAnalysis(analyzerVersion: "v1").isEmpty)
        #expect(try store.pendingAnalysis(analyzerVersion: "v2") == [note.id])
        note.body = "call the dentist and the vet"
        try store.update(note)
        #expect(try store.pendingAnalysisCount(analyzerVersion: "v1") == 1)
    }

    /// The listing reads notes, tags, analyses and tasks in two queries: the same values as
    /// reading each note and its analysis on its own, with a few analysed notes or many.
    @Test(arguments: [10, 150])
    func listingWithAnalysesIsWhatEachNoteReadsAlone(count: Int) throws {
        let store = try inMemoryStore()
        for index in 0..<count {
            let note = try makeNote("note \(index) #t\(index % 3) #all", at: 1_764_000_000_000 + Int64(index % 20))
            try store.insert(note)
            if index % 3 != 0 {
                try store.saveAnalysis(analysis(of: note, urgency: 1 + index % 5, tasks: (0..<(index % 4)).map { "task \($0) of \(index)" }), for: note.id)
            }
        }
        let withTasks = try #require(try store.notesWithAnalyses().first { $0.analysis?.tasks.isEmpty == false })
        try store.setTaskDone(withTasks.note.id, index: 0, done: true)
        #expect(try store.notesWithAnalyses().first { $0.note.id == withTasks.note.id }?.analysis?.tasks[0].done == true)
        for filter in [NoteFilter(), NoteFilter(tag: "t1"), NoteFilter(urgency: 3), NoteFilter(limit: 7)] {
            let listing = try store.notesWithAnalyses(matching: filter)
            #expect(listing.map(\.note) == (try store.notes(matching: filter)))
            #expect(listing.count == (try store.notes(matching: filter)).count)
            for (note, analysis) in listing {
                #expect(note == (try store.note(note.id)))
                #expect(analysis == (try store.analysis(for: note.id)))
            }
        }
        #expect(try store.notesWithAnalyses().filter { $0.analysis != nil }.count == count - (count + 2) / 3)
        // For one line a note: the same notes and analyses without bodies and tasks.
        for ((note, analysis), (full, fullAnalysis)) in zip(try store.notesWithAnalyses(forLines: true), try store.notesWithAnalyses()) {
            #expect(note.body.isEmpty && note.id == full.id && note.title == full.title && note.tags == full.tags && note.updated == full.updated)
            #expect(analysis?.tasks.isEmpty != false)
            #expect(analysis?.category == fullAnalysis?.category && analysis?.urgency == fullAnalysis?.urgency)
        }
    }

    @Test func refusesAnAnalysisOfContentThatChangedMeanwhile() throws {
        let store = try inMemoryStore()
        var note = try makeNote("call the dentist")
        try store.insert(note)
        let result = analysis(of: note)
        note.body = "edited while analysing"
        try store.update(note)
        #expect(try store.saveAnalysis(result, for: note.id) == false)
        #expect(try store.analysis(for: note.id) == nil)
    }

    @Test func doneMarksSurviveReanalysisWhenTheTextDoes() throws {
        let store = try inMemoryStore()
        let note = try makeNote("call the dentist, buy floss")
        try store.insert(note)
        try store.saveAnalysis(analysis(of: note, tasks: ["call the dentist", "buy floss"]), for: note.id)
        try store.setTaskDone(note.id, index: 1, done: true)
        try store.saveAnalysis(analysis(of: note, tasks: ["Buy floss", "book a cleaning"], version: "v2"), for: note.id)
        let tasks = try #require(try store.analysis(for: note.id)).tasks
        #expect(tasks == [TaskItem(text: "Buy floss", done: true), TaskItem(text: "book a cleaning", done: false)])
        #expect(try store.tasks().map(\.task.text) == ["book a cleaning"])
        #expect(throws: NoteStoreError.self) { try store.setTaskDone(note.id, index: 7, done: true) }
    }

    @Test func userCorrectionsWinOverLaterAnalyses() throws {
        let store = try inMemoryStore()
        let note = try makeNote("call the dentist")
        try store.insert(note)
        #expect(throws: NoteStoreError.self) { try store.correct(note.id, category: .work, urgency: nil) }
        try store.saveAnalysis(analysis(of: note), for: note.id)
        try store.correct(note.id, category: .personal, urgency: 2)
        try store.saveAnalysis(analysis(of: note, category: .work, urgency: 5, version: "v2"), for: note.id)
        let stored = try #require(try store.analysis(for: note.id))
        #expect(stored.category == .personal)
        #expect(stored.urgency == 2)
        #expect(try store.notes(matching: NoteFilter(category: .personal)).count == 1)
        #expect(try store.notes(matching: NoteFilter(urgency: 2)).count == 1)
    }

    @Test func correctedCategoriesAreListedNewestFirstForTheAnalyzer() throws {
        let store = try inMemoryStore()
        let old = try makeNote("Quarterly numbers for the board", at: 1_764_000_000_000)
        let new = try makeNote("Choir rehearsal schedule", at: 1_764_000_100_000)
        let gone = try makeNote("Old gym plan", at: 1_764_000_200_000)
        let untouched = try makeNote("call the dentist", at: 1_764_000_300_000)
        for note in [old, new, gone, untouched] {
            try store.insert(note)
            try store.saveAnalysis(analysis(of: note), for: note.id)
        }
        try store.correct(old.id, category: .work, urgency: nil)
        try store.correct(new.id, category: .personal, urgency: nil)
        try store.correct(gone.id, category: .health, urgency: nil)
        try store.correct(untouched.id, category: nil, urgency: 1)
        try store.delete(gone.id, at: Timestamp(milliseconds: 1_764_000_400_000))
        let corrections = try store.categoryCorrections(limit: 10)
        #expect(corrections.map(\.text) == ["Choir rehearsal schedule", "Quarterly numbers for the board"])
        #expect(corrections.map(\.category) == [.personal, .work])
        #expect(try store.categoryCorrections(limit: 1).count == 1)
    }

    @Test func summariesAndTasksAreSearchable() throws {
        let store = try inMemoryStore()
        let note = try makeNote("appointment on Monday")
        try store.insert(note)
        try store.saveAnalysis(analysis(of: note, tasks: ["phone the orthodontist"]), for: note.id)
        #expect(try store.search("orthodontist").count == 1)
        #expect(try store.search("dentist").count == 1)
    }

    @Test func tasksAreOrderedByUrgencyThenAge() throws {
        let store = try inMemoryStore()
        let early = try makeNote("early", at: 1_000)
        let late = try makeNote("late", at: 2_000)
        try store.insert(early)
        try store.insert(late)
        try store.saveAnalysis(analysis(of: early, urgency: 2, tasks: ["early task"]), for: early.id)
        try store.saveAnalysis(analysis(of: late, urgency: 5, tasks: ["late task"]), for: late.id)
        #expect(try store.tasks().map(\.task.text) == ["late task", "early task"])
    }

    /// An import of an export puts back the analysis as it was made, its done marks and the
    /// corrections over it; one of another text than the note's stays until the note is analysed
    /// again. A note the import leaves unchanged keeps its own.
    @Test func anImportRestoresAnalysesDoneMarksAndCorrections() throws {
        let source = try inMemoryStore()
        let note = try makeNote("call the dentist and pay the rent")
        try source.insert(note)
        var made = analysis(of: note, tasks: ["call the dentist", "pay the rent"])
        made.stage = .quick
        #expect(try source.saveAnalysis(made, for: note.id))
        try source.setTaskDone(note.id, index: 1, done: true)
        try source.correct(note.id, category: .work, urgency: nil)
        let kept = try #require(try source.analysisAndCorrections(for: note.id))
        #expect(kept.analysis.category == .health && kept.corrections == Corrections(category: .work))

        let target = try inMemoryStore()
        let stale = try makeNote("an older text", at: 1_764_000_000_001)
        var staleAnalysis = analysis(of: stale)
        staleAnalysis.contentHash = "0000000000000000"
        #expect(try target.importNotes([
            ImportedNote(note: note, aliases: [], path: "a", analysis: kept.analysis, corrections: kept.corrections),
            ImportedNote(note: stale, aliases: [], path: "b", analysis: staleAnalysis, corrections: Corrections(urgency: 1)),
        ]) == [.added, .added])
        #expect(try target.analysis(for: note.id) == (try source.analysis(for: note.id)))
        #expect(try target.analysisAndCorrections(for: note.id)?.corrections == Corrections(category: .work))
        #expect(try target.pendingQuickAnalysis() == [stale.id])
        #expect(try target.analysis(for: stale.id)?.urgency == 1)

        // Imported again with another analysis, an unchanged note keeps the one it has.
        #expect(try target.importNotes([ImportedNote(note: note, aliases: [], path: "a", analysis: analysis(of: note))]) == [.unchanged])
        #expect(try target.analysis(for: note.id)?.tasks.map(\.done) == [false, true])
    }
}
