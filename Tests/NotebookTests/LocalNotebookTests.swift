// The notebook opened in a home, in-process: deleting notes (all named before any goes), marking
// several tasks, correcting an analysis, and the messages its failures are told in.
import Notes
import Storage
import Testing
import TestSupport
@testable import Notebook

struct LocalNotebookTests {
    static let environment = ["NOTES_EMBEDDING_MODEL": "none", "NOTES_READER_MODEL": "none", "NOTES_MODEL": "/nonexistent/model.gguf"]
    static let today = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    func open(_ directory: TemporaryDirectory) throws -> LocalNotebook {
        try LocalNotebook.open(NotebookHome(environment: ["NOTES_HOME": directory.path + "/notes"]))
    }

    func note(_ text: String, at milliseconds: Int64) throws -> Note { try seededNote(text, at: milliseconds) }

    @Test func aRemovalNamesEveryNoteBeforeAnyIsDeletedAndSaysWhichNotesLinkToThem() throws {
        let directory = TemporaryDirectory()
        let notebook = try open(directory)
        let dentist = try note("Dentist\nTuesday at 9:30", at: 1_764_000_000_000)
        let plan = try note("Plan\nsee [[Dentist]] and [[Boiler]]", at: 1_764_000_000_001)
        let boiler = try note("Boiler\ncall the plumber", at: 1_764_000_000_002)
        for note in [dentist, plan, boiler] { try notebook.add(note) }
        let handles = try notebook.handles(for: [dentist.id, boiler.id])

        #expect(throws: NoteStoreError.notFound("ffffff")) { try notebook.removal(of: [handles[dentist.id]!, "ffffff"]) }
        #expect(try notebook.allIDs().count == 3, "a reference that names no note deletes nothing")

        // A link from a note deleted with its target is no one's concern.
        #expect(try notebook.removal(of: [handles[dentist.id]!, plan.id.rawValue]).linkingNotes.isEmpty)

        // Named twice, deleted once; the plan, which stays, links to both.
        let removal = try notebook.removal(of: [handles[dentist.id]!, dentist.id.rawValue, handles[boiler.id]!])
        #expect(removal.notes.map(\.id) == [dentist.id, boiler.id])
        #expect(removal.linkingNotes == [plan.id])
        var deleted: [String] = []
        try notebook.delete(removal, at: Timestamp(milliseconds: 1_764_000_001_000)) { note, handle in deleted.append(handle + " " + note.title) }
        #expect(deleted == [handles[dentist.id]! + " Dentist", handles[boiler.id]! + " Boiler"])
        #expect(try notebook.allIDs() == [plan.id])
        #expect(try notebook.brokenLinks().map(\.target) == ["Dentist", "Boiler"])

    }

    @Test func markingTasksGoesOnPastOneThatFails() throws {
        let directory = TemporaryDirectory()
        let notebook = try open(directory)
        let shopping = try note("Shopping\n- [ ] buy milk\n- [ ] call mum", at: 1_764_000_000_000)
        try notebook.add(shopping)
        let handle = try notebook.handle(of: shopping.id)
        #expect(throws: NoteStoreError.notAnalysed(handle)) { try notebook.markTasks([(handle, 1)], done: true, clock: { Self.today }).first!.get() }

        // A correction gives the note its quick analysis first, with the checklist's tasks.
        let analysis = try notebook.correct(handle, category: .personal, urgency: nil, environment: Self.environment, today: Self.today)
        #expect(analysis.category == .personal && analysis.tasks.map(\.text) == ["buy milk", "call mum"])

        let outcomes = try notebook.markTasks([(handle, 1), (handle, 9), (handle, 2)], done: true, clock: { Self.today }).map { try? $0.get().text }
        #expect(outcomes == ["buy milk", nil, "call mum"])
        #expect(try notebook.tasks(includeDone: false).isEmpty)
        #expect(try notebook.note(handle).body.hasSuffix("- [x] buy milk\n- [x] call mum"))
    }

    @Test func aCorrectionOfTheUrgencyAloneKeepsTheAnalysedCategory() throws {
        let directory = TemporaryDirectory()
        let notebook = try open(directory)
        let meeting = try note("Budget meeting #work\nprepare the slides", at: 1_764_000_000_000)
        try notebook.add(meeting)
        let analysis = try notebook.correct(meeting.id.rawValue, category: nil, urgency: 5, environment: Self.environment, today: Self.today)
        #expect(analysis.urgency == 5)
        #expect(try notebook.analysis(for: meeting.id)?.category == analysis.category)
    }

    @Test func failuresAreToldInTheNotebooksWords() throws {
        let directory = TemporaryDirectory()
        let home = NotebookHome(environment: ["NOTES_HOME": directory.path])
        try FileSystem.writeAtomically(Array(repeating: UInt8(ascii: "x"), count: 4096), to: home.database)
        let damaged = #expect(throws: (any Error).self) { try LocalNotebook.open(home) }
        #expect(ErrorMessage.describe(damaged!, home: home).hasPrefix("\(home.database) is not a notes database or is damaged."))

        let busy = { (waited: Duration?) in DatabaseError(extendedCode: DatabaseError.SQLITE_BUSY.rawValue, message: "database is locked", waited: waited) }
        #expect(ErrorMessage.describe(busy(.milliseconds(250)), home: home).contains("through the 250 ms this command waited"))
        #expect(ErrorMessage.describe(busy(.milliseconds(1_600)), home: home).contains("through the 2 s this command waited"))
        #expect(ErrorMessage.describe(busy(nil), home: home).hasPrefix("the notebook was busy: another process was changing it at that moment"))
        #expect(ErrorMessage.describe(MigrationError.missingMigration(version: 9), home: home)
            == "cannot open the notebook \(home.database): the database records migration 9, which this notes does not have. Nothing was changed.")
        #expect(ErrorMessage.describe(NoteStoreError.notFound("abcd"), home: home) == "no note matches 'abcd'")
    }
}
