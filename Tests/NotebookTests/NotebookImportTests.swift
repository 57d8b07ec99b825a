// `notes import`'s work in-process: which files become notes, which are skipped and why, and
// that importing the same folder again changes nothing.
import Foundation
import Notes
import Storage
import Testing
import TestSupport
@testable import Notebook

struct NotebookImportTests {
    @Test func aFolderBecomesNotesAndWhatIsNotANoteIsSaidSo() throws {
        let directory = TemporaryDirectory()
        let folder = directory.path + "/vault"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/.hidden", withIntermediateDirectories: true)
        try "# Dentist\nTuesday at 9:30 #health".write(toFile: folder + "/dentist.md", atomically: true, encoding: .utf8)
        try "Ο λέβητας χτυπάει, να καλέσω τον υδραυλικό".write(toFile: folder + "/sub/boiler.txt", atomically: true, encoding: .utf8)
        try "not a note".write(toFile: folder + "/.hidden/secret.md", atomically: true, encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: folder + "/picture.png"))
        try Data([0x66, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: folder + "/broken.md"))

        let plan = try NotebookImport.plan(folder) { String(describing: $0) }
        // A heading titles a note; a file without one is titled by its name.
        #expect(Set(plan.notes.map(\.note.title)) == ["Dentist", "boiler"])
        #expect(plan.skipped.map(\.file) == ["broken.md"], "invalid UTF-8 is skipped, with its reason")
        #expect(plan.otherFiles == 1, "the picture is left out and counted")

        let store = try NoteStore(database: Database(path: ":memory:"))
        var reported: [Int] = []
        #expect(try NotebookImport.run(plan, into: store) { reported.append($0) } == NotebookImport.Summary(added: 2, updated: 0, unchanged: 0))
        #expect(reported == [0], "told every 500 notes, from the first")
        let again = try NotebookImport.plan(folder) { String(describing: $0) }
        #expect(try NotebookImport.run(again, into: store) == NotebookImport.Summary(added: 0, updated: 0, unchanged: 2))
    }

    @Test func aSingleFileIsNamedByItsFileNameAndAMissingPathIsAnError() throws {
        let directory = TemporaryDirectory()
        try "plain words".write(toFile: directory.path + "/Shopping list.md", atomically: true, encoding: .utf8)
        let plan = try NotebookImport.plan(directory.path + "/Shopping list.md") { String(describing: $0) }
        #expect(plan.notes.map(\.note.title) == ["Shopping list"] && plan.otherFiles == 0)
        #expect(throws: NotebookImport.Missing.self) { try NotebookImport.plan(directory.path + "/nothing") { String(describing: $0) } }
    }
}
