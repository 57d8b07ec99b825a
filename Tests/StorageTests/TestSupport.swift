// Shared helpers for Storage tests: sample notes and stores (temporary directories come from
// TestSupport).
import Foundation
import Notes
@testable import Storage

func makeNote(_ text: String, at milliseconds: Int64 = 1_764_000_000_000, tags: [String] = []) throws -> Note {
    var generator = SeededGenerator(text: text + String(milliseconds))
    let id = NoteID(milliseconds: milliseconds, using: &generator)
    return try NoteInput.makeNote(text: text, title: nil, extraTags: tags, at: Timestamp(milliseconds: milliseconds), id: id)
}

/// Notes as an import gives them to the store, each from a file named after its title.
func imported(_ notes: Note...) -> [ImportedNote] {
    notes.map { ImportedNote(note: $0, aliases: [], path: $0.title) }
}

func inMemoryStore() throws -> NoteStore {
    try NoteStore(database: Database(path: ":memory:"))
}

let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
