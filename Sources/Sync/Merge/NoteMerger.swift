// The note-level 3-way merge: which version of a note survives when two machines changed it.
import Notes

public struct NoteMergeResult: Hashable, Sendable {
    public var state: NoteState
    public var conflict: ConflictKind?
    /// The losing version of a both-edited conflict, as a note of its own.
    public var copy: Note?
}

public enum NoteMerger {
    /// Appended to a conflict copy's title so the two versions tell apart in a list.
    static let copyTitleSuffix = " (conflict copy)"

    /// Rules: a side that is absent brings no information (base stands in for it); a side
    /// equal to base takes the other; deletes against deletes keep the later time; an edit
    /// beats a delete (flagged); two edits merge title 3-way, tags as a 3-way set and body by
    /// 3-way lines. When the title or the body cannot merge, the later-updated version (ties
    /// broken by content, so every machine picks the same) keeps the note and the other
    /// becomes a conflict copy with an id derived from its content: two machines that merge
    /// the same pair produce the same copy.
    public static func merge(base: NoteState, ours: NoteState, theirs: NoteState) -> NoteMergeResult {
        let o = ours == .absent ? base : ours
        let t = theirs == .absent ? base : theirs
        if o == t || t == base { return NoteMergeResult(state: o) }
        if o == base { return NoteMergeResult(state: t) }
        switch (o, t) {
        case let (.deleted(a), .deleted(b)):
            return NoteMergeResult(state: .deleted(at: max(a, b)))
        case let (.live(note), .deleted), let (.deleted, .live(note)):
            return NoteMergeResult(state: .live(note), conflict: .editBeatDelete)
        case let (.live(x), .live(y)):
            var baseNote: Note?
            if case let .live(note) = base { baseNote = note }
            return mergeEdits(base: baseNote, x, y)
        case (.absent, _), (_, .absent):
            // Unreachable: an absent side was replaced by base, and base == either side returned.
            return NoteMergeResult(state: o == .absent ? t : o)
        }
    }

    static func mergeEdits(base: Note?, _ x: Note, _ y: Note) -> NoteMergeResult {
        let title = mergeValue(base: base?.title, x.title, y.title)
        let body = LineMerge.merge(base: base?.body ?? "", ours: x.body, theirs: y.body)
        let tags = mergeSet(base: base?.tags ?? [], x.tags, y.tags)
        let xWins = x.updated != y.updated ? x.updated > y.updated : NoteDocument.render(x) >= NoteDocument.render(y)
        let (winner, loser) = xWins ? (x, y) : (y, x)
        var merged = winner
        merged.tags = tags
        merged.created = min(x.created, y.created)
        merged.updated = max(x.updated, y.updated)
        switch (title, body) {
        case let (title?, .merged(text)):
            merged.title = title
            merged.body = text
            return NoteMergeResult(state: .live(merged))
        default:
            if let title { merged.title = title }
            if case let .merged(text) = body { merged.body = text }
            let copy = conflictCopy(of: loser)
            return NoteMergeResult(state: .live(merged), conflict: .editedOnBoth(copy: copy.id), copy: copy)
        }
    }

    /// The merged value, or nil when both sides changed it differently.
    static func mergeValue<T: Equatable>(base: T?, _ x: T, _ y: T) -> T? {
        if x == y || y == base { return x }
        if x == base { return y }
        return nil
    }

    /// A tag stays when both sides kept it; one side's addition or removal applies.
    static func mergeSet(base: [String], _ x: [String], _ y: [String]) -> [String] {
        let b = Set(base), sx = Set(x), sy = Set(y)
        return Array(sx.intersection(sy).union(sx.subtracting(b)).union(sy.subtracting(b))).sorted()
    }

    static func conflictCopy(of loser: Note) -> Note {
        let text = NoteDocument.render(loser)
        let first = ContentHash.of("conflict-copy\u{0}" + loser.id.rawValue + "\u{0}" + text)
        let second = ContentHash.of(first + text)
        let stamp = NoteID.hexDigits(loser.id.rawValue)!.prefix(12)
        let hex = stamp + "7" + first.prefix(3) + "8" + first.dropFirst(3).prefix(13) + second.prefix(2)
        let title = loser.title.hasSuffix(copyTitleSuffix) ? loser.title : loser.title + copyTitleSuffix
        return Note(id: NoteID(String(hex))!, title: title, body: loser.body, tags: loser.tags,
                    created: loser.created, updated: loser.updated)
    }
}
