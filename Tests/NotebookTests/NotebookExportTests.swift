// The export's mirror rules: what it removes from a folder it exported to before, and what never.
import Foundation
import Notes
import Storage
import Testing
import TestSupport
@testable import Notebook

/// A note made at `milliseconds`, its id seeded by its text: the same on every run.
func seededNote(_ text: String, at milliseconds: Int64) throws -> Note {
    var generator = SeededGenerator(text: text)
    return try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(milliseconds: milliseconds),
                                  id: NoteID(milliseconds: milliseconds, using: &generator))
}

struct NotebookExportTests {
    func note(_ text: String, at milliseconds: Int64) throws -> Note { try seededNote(text, at: milliseconds) }

    @Test func anExportMirrorsTheNotebookAndRemovesOnlyUnchangedFilesItWrote() throws {
        let directory = TemporaryDirectory()
        let folder = directory.path + "/export"
        let store = try NoteStore(database: Database(path: ":memory:"))
        let notes = try (0..<4).map { try note("note \($0)", at: 1_764_000_000_000 + Int64($0)) }
        for note in notes { try store.insert(note) }
        #expect(try NotebookExport.export(store, to: folder) == NotebookExport.Summary(written: 4, removed: [], keptChanged: []))
        let file = { (note: Note) in folder + "/" + note.id.rawValue + ".md" }

        try store.delete(notes[0].id, at: Timestamp(milliseconds: 1_764_000_001_000))
        try store.delete(notes[1].id, at: Timestamp(milliseconds: 1_764_000_001_000))
        try "changed by hand".write(toFile: file(notes[1]), atomically: true, encoding: .utf8)
        try "someone else's".write(toFile: folder + "/theirs.md", atomically: true, encoding: .utf8)
        let second = try NotebookExport.export(store, to: folder)
        #expect(second == NotebookExport.Summary(written: 2, removed: [notes[0].id.rawValue + ".md"], keptChanged: [notes[1].id.rawValue + ".md"]))
        #expect(!FileManager.default.fileExists(atPath: file(notes[0])))
        #expect(try String(contentsOfFile: file(notes[1]), encoding: .utf8) == "changed by hand")
        #expect(FileManager.default.fileExists(atPath: folder + "/theirs.md"))
        // The kept file stays the export's: restored to what was written, the next export removes it.
        #expect(try NotebookExport.export(store, to: folder).keptChanged == [notes[1].id.rawValue + ".md"])
    }

    /// A manifest someone edited cannot make an export remove files outside its folder.
    @Test func aManifestNamesOnlyFilesInsideItsFolder() throws {
        let directory = TemporaryDirectory()
        let folder = directory.path + "/export"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let outside = directory.path + "/outside.md"
        try "x".write(toFile: outside, atomically: true, encoding: .utf8)
        let fingerprint = ContentHash.of("x")
        let lines = ["../outside.md", outside, "./a.md", "", "sub/ok.md"].map { "\(fingerprint) \($0)\n" }.joined() + "no-space-line\n"
        try lines.write(toFile: folder + "/" + NotebookExport.manifestName, atomically: true, encoding: .utf8)
        #expect(NotebookExport.readManifest(in: folder).map(\.path) == ["sub/ok.md"])
        _ = try NotebookExport.export(try NoteStore(database: Database(path: ":memory:")), to: folder)
        #expect(FileManager.default.fileExists(atPath: outside))
    }
}
