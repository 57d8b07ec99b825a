// The notebook as the sync engine sees it: note values in and out, no SQL. Storage implements
// it over SQLite; tests implement it in memory. Sync depends on nothing else of the notebook.

/// A note or its tombstone, with the analysis that goes beside it in the sync repository.
public struct NoteRecord: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case live(Note)
        /// Deleted at this time. Tombstones are kept: a deletion is a fact that must reach the
        /// other machines, and a note missing from a snapshot is never read as deleted.
        case deleted(at: Timestamp)
    }

    public var id: NoteID
    public var state: State
    /// Live notes only; nil when there is none for the note's current content.
    public var analysis: Analysis?

    public init(id: NoteID, state: State, analysis: Analysis? = nil) {
        self.id = id
        self.state = state
        self.analysis = analysis
    }

    public init(_ note: Note, analysis: Analysis? = nil) {
        self.init(id: note.id, state: .live(note), analysis: analysis)
    }

    var note: Note? {
        if case let .live(note) = state { return note }
        return nil
    }
}

/// The notebook's change counter: it grows with every write to a note, a tombstone or an analysis.
public struct NotebookVersion: Hashable, Comparable, Sendable {
    public let rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public static func < (lhs: NotebookVersion, rhs: NotebookVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}

public struct NotebookSnapshot: Sendable {
    public var records: [NoteRecord]
    public var version: NotebookVersion

    public init(records: [NoteRecord], version: NotebookVersion) {
        self.records = records
        self.version = version
    }
}

/// What the last successful import recorded: the sync repository commit the notebook now
/// reflects, and the notebook version right after that import.
public struct SyncCheckpoint: Hashable, Sendable {
    /// A git commit id (40 hex digits).
    public var commit: String
    public var version: NotebookVersion

    public init(commit: String, version: NotebookVersion) {
        self.commit = commit
        self.version = version
    }
}

public enum NotebookPortError: Error, Equatable, Sendable {
    /// `apply` found a write newer than the snapshot the merge was computed from.
    case changedSinceSnapshot
}

/// Requirements (each one is relied on by the sync engine for "never lose a note"):
public protocol NotebookPort: AnyObject {
    /// In one read transaction: every note and tombstone written after `version` (all of them
    /// when nil), live notes with their current analysis, and the notebook's current version.
    func snapshot(changedSince version: NotebookVersion?) throws -> NotebookSnapshot

    /// In one write transaction, all or nothing:
    /// - if the notebook's version is no longer `expected`, throw
    ///   `NotebookPortError.changedSinceSnapshot` and write nothing (the user edited meanwhile;
    ///   the engine merges again rather than overwrite that edit);
    /// - write each record exactly as given: a live note replaces the stored one (timestamps
    ///   included, `updated` is not bumped) and its analysis is stored when non-nil; a deleted
    ///   record removes the note and keeps a tombstone with that time. Notes not in `records`
    ///   are untouched;
    /// - store `SyncCheckpoint(commit: syncedCommit, version: <the version after these writes>)`.
    /// Returns that new version only after the transaction has committed durably: the engine
    /// advances its git refs only after `apply` returns.
    func apply(_ records: [NoteRecord], expected version: NotebookVersion, syncedCommit: String) throws -> NotebookVersion

    /// The checkpoint the last successful `apply` stored, or nil before the first sync.
    func checkpoint() throws -> SyncCheckpoint?
}
