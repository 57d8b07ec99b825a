// A note across machines: its state in one commit of the sync repository, the conflicts a
// merge flags for the user and how one is resolved, and its synced history (`notes log`).

/// A note as one commit of the sync repository has it.
public enum NoteState: Hashable, Sendable {
    /// No file: no information. Never read as a deletion.
    case absent
    case live(Note)
    case deleted(at: Timestamp)
}

/// Why a note is flagged for the user.
public enum ConflictKind: Hashable, Sendable {
    /// Both machines changed the same lines (or the title): the note keeps one version and
    /// `copy` holds the other, complete.
    case editedOnBoth(copy: NoteID)
    /// One machine deleted the note while the other edited it: the edit won.
    case editBeatDelete
}

/// A note a sync flagged (`notes conflicts`).
public struct NoteConflict: Hashable, Sendable {
    public let id: NoteID
    public let kind: ConflictKind
    /// The version the note kept (nil if it was deleted since).
    public let note: Note?
    /// The other version, for `.editedOnBoth` (nil once the copy is deleted).
    public let copy: Note?

    package init(id: NoteID, kind: ConflictKind, note: Note?, copy: Note?) {
        self.id = id
        self.kind = kind
        self.note = note
        self.copy = copy
    }
}

/// What the user chose for a flagged note.
public enum ConflictResolution: Hashable, Sendable {
    /// Keep the note as it is; the conflict copy is deleted.
    case keepNote
    /// The note takes the copy's title, body and tags; the copy is deleted.
    case keepCopy
    /// The note takes this title, body and tags (an edited merge); the copy is deleted.
    case edited(title: String, body: String, tags: [String])
}

/// One synced version of a note (`notes log`).
public struct NoteRevision: Hashable, Sendable {
    public let commit: String
    public let time: Timestamp
    public let message: String
    /// The note as this commit left it (`.deleted` for a deletion).
    public let state: NoteState

    package init(commit: String, time: Timestamp, message: String, state: NoteState) {
        self.commit = commit
        self.time = time
        self.message = message
        self.state = state
    }
}
