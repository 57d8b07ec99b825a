// One commit of the sync repository in memory: each folder's files by note id, plus whatever
// else a user put there with plain git (kept as it is).
import Notes

struct NotebookTree {
    private(set) var files: [RepositoryFormat.Folder: [NoteID: ObjectID]] = [:]
    /// Root entries that are not ours (a README, an .obsidian folder ...), carried over.
    var otherRootEntries: [String: TreeEntry] = [:]
    /// Files in our folders whose names are not a note id, carried over.
    var otherFolderEntries: [RepositoryFormat.Folder: [String: TreeEntry]] = [:]
    var formatVersion: Int?
    /// Each folder's tree as read, and the ids changed since: `write` rewrites only those.
    private var sources: [RepositoryFormat.Folder: ObjectID] = [:]
    private var changed: [RepositoryFormat.Folder: Set<NoteID>] = [:]

    subscript(folder: RepositoryFormat.Folder, id: NoteID) -> ObjectID? {
        get { files[folder]?[id] }
        set {
            guard files[folder]?[id] != newValue else { return }
            files[folder, default: [:]][id] = newValue
            changed[folder, default: []].insert(id)
        }
    }

    /// Ids whose files differ between the two trees in any of `folders`, found with
    /// dictionary lookups only (no parsing, no sorting): the few a sync has to look at.
    static func differingIDs(_ a: NotebookTree, _ b: NotebookTree,
                             in folders: [RepositoryFormat.Folder] = RepositoryFormat.Folder.allCases) -> Set<NoteID> {
        var result = Set<NoteID>()
        for folder in folders {
            let left = a.files[folder] ?? [:], right = b.files[folder] ?? [:]
            for (id, blob) in left where right[id] != blob { result.insert(id) }
            for id in right.keys where left[id] == nil { result.insert(id) }
        }
        return result
    }

    var liveNoteCount: Int { files[.notes]?.count ?? 0 }

    static func read(_ repository: Repository, commit: ObjectID?, cache: FolderCache? = nil) throws -> NotebookTree {
        guard let commit else { return NotebookTree() }
        var tree = NotebookTree()
        let root = try repository.treeEntries(try repository.commit(commit).tree)
        for (name, entry) in root {
            if name == RepositoryFormat.markerName, !entry.isTree {
                tree.formatVersion = RepositoryFormat.version(ofMarker: try repository.blob(entry.id))
            } else if let folder = RepositoryFormat.Folder(rawValue: name), entry.isTree {
                let parsed: FolderCache.Folder
                if let cached = cache?.folders[entry.id] {
                    parsed = cached
                } else {
                    parsed = try readFolder(folder, entry.id, repository)
                    cache?.remember(entry.id, parsed)
                }
                tree.files[folder] = parsed.byID
                if !parsed.others.isEmpty { tree.otherFolderEntries[folder] = parsed.others }
                tree.sources[folder] = entry.id
            } else {
                tree.otherRootEntries[name] = entry
            }
        }
        return tree
    }

    private static func readFolder(_ folder: RepositoryFormat.Folder, _ id: ObjectID,
                                   _ repository: Repository) throws -> FolderCache.Folder {
        var parsed = FolderCache.Folder()
        for (fileName, file) in try repository.treeEntries(id) {
            if !file.isTree, let noteID = folder.id(fromFileName: fileName) {
                parsed.byID[noteID] = file.id
            } else {
                parsed.others[fileName] = file
            }
        }
        return parsed
    }

    /// Writes the folders and the root tree, with the format marker of this version.
    func write(_ repository: Repository) throws -> ObjectID {
        var root = otherRootEntries
        root[RepositoryFormat.markerName] = TreeEntry(id: try repository.writeBlob(RepositoryFormat.marker), isTree: false)
        for folder in RepositoryFormat.Folder.allCases {
            if let source = sources[folder] {
                let ids = changed[folder] ?? []
                var changes: [String: TreeEntry?] = [:]
                for id in ids {
                    // updateValue: assigning nil through the subscript would drop the removal.
                    changes.updateValue(files[folder]?[id].map { TreeEntry(id: $0, isTree: false) }, forKey: folder.fileName(id))
                }
                let id = changes.isEmpty ? source : try repository.writeTree(updating: source, with: changes)
                if !(files[folder]?.isEmpty ?? true) || !(otherFolderEntries[folder]?.isEmpty ?? true) {
                    root[folder.rawValue] = TreeEntry(id: id, isTree: true)
                }
                continue
            }
            var entries = otherFolderEntries[folder] ?? [:]
            for (id, blob) in files[folder] ?? [:] { entries[folder.fileName(id)] = TreeEntry(id: blob, isTree: false) }
            if !entries.isEmpty { root[folder.rawValue] = TreeEntry(id: try repository.writeTree(entries), isTree: true) }
        }
        return try repository.writeTree(root)
    }

    /// The note a tree holds under `id`: a note file wins over a tombstone (edit beats delete).
    func state(of id: NoteID, in repository: Repository) throws -> NoteState {
        if let blob = self[.notes, id] {
            return .live(try RepositoryFormat.note(fromFile: try repository.blob(blob), id: id))
        }
        if let blob = self[.deleted, id] {
            return .deleted(at: RepositoryFormat.tombstone(fromFile: try repository.blob(blob)))
        }
        return .absent
    }

    /// The analysis file's content when it describes `note`'s current content.
    func analysis(of note: Note, in repository: Repository) throws -> Analysis? {
        guard let blob = self[.analysis, note.id] else { return nil }
        let analysis = RepositoryFormat.analysis(fromFile: try repository.blob(blob))
        return analysis?.contentHash == note.contentHash ? analysis : nil
    }
}

/// Folders already read, by tree id (trees never change): a sync reads the same 10,000-entry
/// folder as "ours", as the merge base and as the import's starting point.
final class FolderCache {
    struct Folder {
        var byID: [NoteID: ObjectID] = [:]
        var others: [String: TreeEntry] = [:]
    }

    private(set) var folders: [ObjectID: Folder] = [:]
    private var order: [ObjectID] = []
    private let capacity = 8

    func remember(_ id: ObjectID, _ folder: Folder) {
        guard folders[id] == nil else { return }
        folders[id] = folder
        order.append(id)
        if order.count > capacity { folders[order.removeFirst()] = nil }
    }
}
