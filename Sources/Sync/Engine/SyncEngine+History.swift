// `notes log ID`: a note's versions, read from the sync repository's history.
import Notes
extension SyncEngine {
    /// Every commit on the local branch that changed the note, newest first.
    public func history(of id: NoteID) throws -> [NoteRevision] {
        guard let head = try repository.reference(Self.branch) else { return [] }
        var revisions: [NoteRevision] = []
        for commitID in try repository.history(from: head) {
            let commit = try repository.commit(commitID)
            let files = try noteFiles(id, tree: commit.tree)
            let before = try commit.parents.first.map { parent throws in
                try noteFiles(id, tree: try repository.commit(parent).tree)
            } ?? [nil, nil]
            guard files != before else { continue }
            var tree = NotebookTree()
            tree[.notes, id] = files[0]
            tree[.deleted, id] = files[1]
            revisions.append(NoteRevision(commit: commitID.hex, time: commit.time, message: commit.message,
                                          state: try tree.state(of: id, in: repository)))
        }
        return revisions
    }

    private func noteFiles(_ id: NoteID, tree: ObjectID) throws -> [ObjectID?] {
        try [RepositoryFormat.Folder.notes, .deleted].map { folder throws -> ObjectID? in
            guard let directory = try repository.treeEntry(tree, named: folder.rawValue), directory.isTree else { return nil }
            return try repository.treeEntry(directory.id, named: folder.fileName(id))?.id
        }
    }
}
