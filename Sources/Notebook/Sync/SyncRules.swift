// The rules of `notes sync` and `notes conflicts` that are not the engine's: which remote a sync
// without a name uses (the command's and the daemon's), and how a conflict is found by what the
// user typed and resolved by a merged text. Values in, values out, so the tests need no binary.
import Notes
import Sync

/// A choice the user has to make, or a text that cannot be used: said as the CLI prints it.
public struct SyncChoiceError: Error, CustomStringConvertible, Equatable {
    public let description: String
}

public enum SyncRules {
    /// The remote of a sync that names none: the only one, else `origin` among several.
    public static func defaultRemote(among names: [String]) throws(SyncChoiceError) -> String {
        if names.isEmpty { throw SyncChoiceError(description: "no remote to sync with; add one with: notes remote add origin /path/to/notes.git") }
        if names.count == 1 { return names[0] }
        if names.contains("origin") { return "origin" }
        throw SyncChoiceError(description: "several remotes (\(names.joined(separator: ", "))): name the one to sync with")
    }

    /// The flagged note that `reference` (a handle, or a start or end of the id) names.
    public static func conflict(_ reference: String, among conflicts: [NoteConflict]) throws(SyncChoiceError) -> NoteConflict {
        let hex = NoteID.hexDigits(reference) ?? ""
        let matches = conflicts.filter { !hex.isEmpty && NoteHandle.matches(hex, $0.id) }
        guard matches.count == 1, let conflict = matches.first else {
            throw SyncChoiceError(description: matches.isEmpty ? "no conflict for '\(reference)'; see 'notes conflicts'"
                                                              : "'\(reference)' matches several conflicts; type more of the id")
        }
        return conflict
    }

    /// What the user edits to merge a conflict by hand: both versions, one after the other.
    public static func mergeDraft(_ conflict: NoteConflict) -> String {
        [conflict.note?.body, conflict.copy?.body].compactMap { $0 }.joined(separator: "\n\n") + "\n"
    }

    /// The resolution of a conflict by the user's merged `text`: a new text typed for the note,
    /// whose explicit tags are both versions' tags. An empty text resolves nothing.
    public static func resolution(of conflict: NoteConflict, mergedText text: String, at now: Timestamp) throws -> ConflictResolution {
        guard !NoteInput.normalizedBody(text).isEmpty else { throw SyncChoiceError(description: "the merged note is empty; nothing was resolved") }
        let note = try NoteRules.note(id: conflict.id, body: text, title: nil, tags: (conflict.note?.tags ?? []) + (conflict.copy?.tags ?? []),
                                      created: now, updated: now, fallbackTime: now, origin: .typed)
        return .edited(title: note.title, body: note.body, tags: note.tags)
    }

    /// Whether the conflict has another version to show (an edit on both sides) or only the
    /// note that was kept (an edit that beat a delete).
    public static func hasCopy(_ kind: ConflictKind) -> Bool {
        if case .editedOnBoth = kind { return true }
        return false
    }

    public static func describe(_ kind: ConflictKind) -> String {
        switch kind {
        case .editedOnBoth: "edited on two machines"
        case .editBeatDelete: "edited on one machine, deleted on another (the edit was kept)"
        }
    }
}
