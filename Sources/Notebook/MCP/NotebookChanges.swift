// What changed in the notebook since the server last looked, in the terms MCP notifies: the list
// of notes (one added, removed or retitled) and each note whose resource reads differently now.
// Another process's write (the CLI, the daemon, a sync) and the server's own are seen alike.
import MCP
import Notes
import Storage

/// The notes as the resources show them (title and last change), and the notebook's version:
/// told the records changed since that version, it says which resources changed. An analysis
/// stored by the daemon changes no resource (the Markdown has no analysis), so it notifies
/// nothing.
struct NotebookChanges {
    struct Changes: Equatable {
        var listChanged = false
        /// The notes whose resource reads differently (or is gone), by id.
        var updated: [NoteID] = []
        var isEmpty: Bool { !listChanged && updated.isEmpty }
    }

    private struct Shown: Equatable {
        var title: String
        var updated: Timestamp
    }

    private var shown: [NoteID: Shown]
    private(set) var version: NotebookVersion

    /// The live notes and the version they were read at (one consistent read).
    init(notes: [Note], version: NotebookVersion) {
        shown = Dictionary(notes.map { ($0.id, Shown(title: $0.title, updated: $0.updated)) }, uniquingKeysWith: { first, _ in first })
        self.version = version
    }

    /// Reads the notebook's notes now: the version first, so that a change made meanwhile is
    /// seen again by the next `refresh` rather than missed.
    init(store: NoteStore) throws {
        let version = try store.snapshot(changedSince: NotebookVersion(.max)).version
        self.init(notes: try store.notesWithAnalyses(forLines: true).map(\.note), version: version)
    }

    /// Takes in what changed since `version`.
    mutating func apply(_ snapshot: NotebookSnapshot) -> Changes {
        var changes = Changes()
        for record in snapshot.records {
            switch record.state {
            case .deleted:
                if shown.removeValue(forKey: record.id) != nil {
                    changes.listChanged = true
                    changes.updated.append(record.id)
                }
            case let .live(note):
                let now = Shown(title: note.title, updated: note.updated)
                guard let before = shown.updateValue(now, forKey: note.id) else {
                    changes.listChanged = true
                    continue
                }
                if before.title != now.title { changes.listChanged = true }
                if before != now { changes.updated.append(note.id) }
            }
        }
        version = max(version, snapshot.version)
        return changes
    }

    /// Reads and takes in what changed since the last look.
    mutating func refresh(_ store: NoteStore) throws -> Changes {
        apply(try store.snapshot(changedSince: version))
    }
}
