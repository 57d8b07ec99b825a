// `notes conflicts`: the flagged notes, both versions, and resolving one. A resolution is a
// local commit made like a sync's: notebook first, then the branch.
import Notes

extension SyncEngine {
    /// The flagged notes as of the last sync (or resolution).
    public func conflicts() throws -> [NoteConflict] {
        let head = try repository.reference(Self.branch)
        let tree = try NotebookTree.read(repository, commit: head)
        var result: [NoteConflict] = []
        for (id, blob) in (tree.files[.conflicts] ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let kind = RepositoryFormat.conflict(fromFile: try repository.blob(blob)) else { continue }
            var copy: Note?
            if case let .editedOnBoth(copyID) = kind, case let .live(note) = try tree.state(of: copyID, in: repository) { copy = note }
            var note: Note?
            if case let .live(kept) = try tree.state(of: id, in: repository) { note = kept }
            result.append(NoteConflict(id: id, kind: kind, note: note, copy: copy))
        }
        return result
    }

    public func resolveConflict(_ id: NoteID, _ resolution: ConflictResolution, at time: Timestamp) throws {
        let lock = try holdingSyncLock()
        defer { withExtendedLifetime(lock) {} }
        clearLocalLocks()
        let (head, since) = try recoverCheckpoint()
        let snapshot = try call { try notebook.snapshot(changedSince: since) }
        var tree = try NotebookTree.read(repository, commit: head)
        // Unsynced local edits go into the same commit, so the checkpoint stays truthful.
        _ = try export(snapshot.records, into: &tree)
        guard let flag = tree[.conflicts, id],
              let kind = RepositoryFormat.conflict(fromFile: try repository.blob(flag))
        else { throw SyncError.noSuchConflict(id.rawValue) }
        var records: [NoteRecord] = []
        var copy: Note?
        if case let .editedOnBoth(copyID) = kind, case let .live(note) = try tree.state(of: copyID, in: repository) {
            copy = note
            records.append(NoteRecord(id: copyID, state: .deleted(at: time)))
        }
        if case var .live(note) = try tree.state(of: id, in: repository) {
            switch resolution {
            case .keepNote:
                break
            case .keepCopy:
                if let copy {
                    note.title = copy.title.hasSuffix(NoteMerger.copyTitleSuffix)
                        ? String(copy.title.dropLast(NoteMerger.copyTitleSuffix.count)) : copy.title
                    note.body = copy.body
                    note.tags = copy.tags
                    note.updated = NoteRules.editTime(of: note, now: time)
                    records.append(NoteRecord(note))
                }
            case let .edited(title, body, tags):
                note.title = title
                note.body = body
                note.tags = Tags.normalized(tags)
                note.updated = NoteRules.editTime(of: note, now: time)
                records.append(NoteRecord(note))
            }
        }
        _ = try export(records, into: &tree)
        tree[.conflicts, id] = nil
        let commit = try repository.createCommit(tree: try tree.write(repository), parents: head.map { [$0] } ?? [],
                                                 message: "notes: resolve conflict on \(id)")
        try repository.writeObjects()
        do {
            _ = try notebook.apply(records, expected: snapshot.version, syncedCommit: commit.hex)
        } catch {
            throw SyncError.notebook(String(describing: error))
        }
        try repository.setReference(Self.branch, to: commit, message: "notes: resolve conflict")
    }
}
