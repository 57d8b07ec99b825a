// Merges two commits' notebooks note by note, by path, against their merge base: no rename
// detection, so one note's edit can never land in another note.
import Notes

struct TreeMerger {
    let repository: Repository

    func merge(base: NotebookTree, ours: NotebookTree, theirs: NotebookTree) throws -> SyncEngine.MergeOutcome {
        var result = ours
        var outcome = SyncEngine.MergeOutcome(tree: ours)
        var copies: [Note] = []
        for (name, entry) in theirs.otherRootEntries where result.otherRootEntries[name] == nil {
            result.otherRootEntries[name] = entry
        }
        // An id whose files are the same on both sides keeps ours: nothing to merge.
        for id in NotebookTree.differingIDs(ours, theirs) {
            // The note itself: its file and its tombstone move together.
            let noteFolders: [RepositoryFormat.Folder] = [.notes, .deleted]
            let o = noteFolders.map { ours[$0, id] }, t = noteFolders.map { theirs[$0, id] }, b = noteFolders.map { base[$0, id] }
            var noteChangedHere = false
            if o != t, t != b {
                if o == b {
                    for folder in noteFolders { result[folder, id] = theirs[folder, id] }
                } else {
                    let merged = NoteMerger.merge(base: try base.state(of: id, in: repository),
                                                  ours: try ours.state(of: id, in: repository),
                                                  theirs: try theirs.state(of: id, in: repository))
                    try write(merged.state, id: id, into: &result)
                    outcome.merged += 1
                    noteChangedHere = true
                    if let kind = merged.conflict {
                        result[.conflicts, id] = try blob(RepositoryFormat.conflictFile(kind))
                        outcome.conflicted += 1
                    }
                    if let copy = merged.copy { copies.append(copy) }
                }
            }
            if !noteChangedHere {
                result[.conflicts, id] = pick(base[.conflicts, id], ours[.conflicts, id], theirs[.conflicts, id])
            }
            if noteChangedHere || ours[.analysis, id] != theirs[.analysis, id] {
                try mergeAnalysis(id: id, base: base, ours: ours, theirs: theirs, into: &result)
            } else if result[.notes, id] == nil {
                result[.analysis, id] = nil
            }
        }
        for copy in copies where result[.notes, copy.id] == nil && result[.deleted, copy.id] == nil {
            try write(.live(copy), id: copy.id, into: &result)
        }
        outcome.tree = result
        return outcome
    }

    /// A flag file: one side's change applies; two different changes keep a flag (the later
    /// in id order, so every machine keeps the same one), never silently drop both.
    private func pick(_ base: ObjectID?, _ ours: ObjectID?, _ theirs: ObjectID?) -> ObjectID? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        guard let ours, let theirs else { return ours ?? theirs }
        return ours.hex > theirs.hex ? ours : theirs
    }

    /// Analyses never conflict: keep the one describing the merged note's content (the side
    /// that changed it first), else none and the note is analysed again.
    private func mergeAnalysis(id: NoteID, base: NotebookTree, ours: NotebookTree, theirs: NotebookTree,
                               into result: inout NotebookTree) throws {
        guard case let .live(note) = try result.state(of: id, in: repository) else {
            result[.analysis, id] = nil
            return
        }
        let candidates = ours[.analysis, id] == base[.analysis, id] ? [theirs, ours] : [ours, theirs]
        if ours[.analysis, id] == theirs[.analysis, id], result[.notes, id] == ours[.notes, id] {
            result[.analysis, id] = ours[.analysis, id]
            return
        }
        result[.analysis, id] = nil
        for tree in candidates {
            if try tree.analysis(of: note, in: repository) != nil {
                result[.analysis, id] = tree[.analysis, id]
                return
            }
        }
    }

    private func write(_ state: NoteState, id: NoteID, into tree: inout NotebookTree) throws {
        switch state {
        case .absent:
            break
        case let .live(note):
            tree[.notes, id] = try blob(RepositoryFormat.noteFile(note))
            tree[.deleted, id] = nil
        case let .deleted(time):
            tree[.notes, id] = nil
            tree[.analysis, id] = nil
            tree[.deleted, id] = try blob(RepositoryFormat.tombstoneFile(time))
        }
    }

    private func blob(_ bytes: [UInt8]) throws -> ObjectID {
        try repository.writeBlob(bytes)
    }
}
