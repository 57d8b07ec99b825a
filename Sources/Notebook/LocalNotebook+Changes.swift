// The notebook's changes that are more than one write: deleting notes (all named before any
// goes), marking several tasks, correcting an analysis.
import Notes
import Storage

/// Notes to delete, each resolved before any is deleted, so that a typo deletes nothing.
public struct NoteRemoval {
    /// In the order named, each once.
    public let notes: [Note]
    /// The notes that stay and link to one of these: their links will point at nothing.
    public let linkingNotes: Set<NoteID>
}

extension LocalNotebook {
    /// The notes `references` name; fails, deleting nothing, when one names no note or several.
    public func removal(of references: [String]) throws -> NoteRemoval {
        var notes: [Note] = []
        for reference in references {
            let id = try store.resolve(reference)
            if let note = try store.note(id), !notes.contains(where: { $0.id == id }) { notes.append(note) }
        }
        let removed = Set(notes.map(\.id))
        var linking = Set<NoteID>()
        for note in notes {
            for link in try store.backlinks(to: note.id) where !removed.contains(link.source) { linking.insert(link.source) }
        }
        return NoteRemoval(notes: notes, linkingNotes: linking)
    }

    /// Deletes the notes, leaving tombstones for sync; `deleted` is told of each, with the
    /// handle it had.
    public func delete(_ removal: NoteRemoval, at time: Timestamp, deleted: (Note, String) -> Void) throws {
        let handles = try store.handles(for: removal.notes.map(\.id))
        for note in removal.notes {
            try store.delete(note.id, at: time)
            deleted(note, handles[note.id] ?? note.id.rawValue)
        }
    }

    /// Marks each task (a note's reference and the task's number, from 1) done or open again
    /// (`NoteEdits.markTask`), at `clock`'s time: one that fails leaves the others marked.
    /// The outcomes are in the order given.
    public func markTasks(_ tasks: [(note: String, number: Int)], done: Bool, clock: () -> Timestamp) -> [Result<TaskItem, any Error>] {
        tasks.map { task in
            Result { try NoteEdits.markTask(task.note, number: task.number, done: done, in: store, at: clock()) }
        }
    }

    /// Sets the note's category or urgency: the user's correction (`NoteEdits.correct`).
    /// Returns the analysis as it now stands.
    public func correct(_ reference: String, category: Category?, urgency: Int?, environment: [String: String], today: Timestamp) throws -> Analysis {
        // A category given is the user's: the quick analysis's own is not needed, nor the vote.
        let analyzer = category == nil ? try Analyzers.make(environment: environment, store: store)
            : try Analyzers.make(environment: environment, corrections: [], voting: false)
        return try NoteEdits.correct(reference, category: category, urgency: urgency, in: store, analyzer: analyzer, today: today)
    }
}
