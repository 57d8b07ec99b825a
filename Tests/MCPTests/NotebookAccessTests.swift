// How `notes mcp` opens the notebook: created first, then read-only unless writes are allowed.
@testable import MCP
@testable import Notebook
import Notes
import Storage
import Testing
import TestSupport

struct NotebookAccessTests {
    @Test func withoutWritesTheServerReadsANotebookItCannotChange() throws {
        let directory = TemporaryDirectory()
        let home = NotebookHome(environment: ["NOTES_HOME": directory.path + "/notes"])
        let note = try NoteInput.makeNote(text: "Dentist on Tuesday", title: nil, extraTags: [], at: Timestamp(milliseconds: 1_764_000_000_000))

        let reading = try NotebookAccess.open(home: home, environment: [:], allowWrite: false)
        #expect(FileSystem.exists(home.database), "created, and brought to the current schema, before the read-only connection")
        #expect(!reading.allowWrite)
        let refused = #expect(throws: DatabaseError.self) { try reading.store.insert(note) }
        #expect(refused?.code == DatabaseError.SQLITE_READONLY.rawValue)

        let writing = try NotebookAccess.open(home: home, environment: [:], allowWrite: true)
        try writing.store.insert(note)
        #expect(try reading.store.note(note.id) == note)
    }
}
