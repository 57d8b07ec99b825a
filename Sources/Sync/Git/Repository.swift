// The one owner of a git_repository handle, with the object, ref and history calls Sync uses.
// Not Sendable: one thread at a time, like the handle it wraps.
import CGit2
import Notes

package final class Repository {
    let api: notes_git_api
    let handle: OpaquePointer
    /// The git directory (a bare repository: there is no work tree to check out).
    package let path: String
    /// New objects collect here until `writeObjects()` stores them as one pack: one file and
    /// one fsync instead of one per object (10,000 loose objects with fsync take over a minute).
    private let pending: UnsafeMutablePointer<git_odb_backend>
    private let odb: OpaquePointer
    /// Objects written since the last `writeObjects()` (some may exist on disk already).
    private var created: Set<ObjectID> = []

    private init(api: notes_git_api, handle: OpaquePointer, path: String) throws {
        var odb: OpaquePointer?
        try check(api, "git_repository_odb", api.git_repository_odb(&odb, handle))
        var backend: UnsafeMutablePointer<git_odb_backend>?
        do {
            try check(api, "git_mempack_new", api.git_mempack_new(&backend))
            // Writes go to the backend of highest priority; the loose and pack backends are 1 and 2.
            try check(api, "git_odb_add_backend", api.git_odb_add_backend(odb, backend, 1000))
        } catch {
            api.git_odb_free(odb)
            api.git_repository_free(handle)
            throw error
        }
        self.api = api
        self.handle = handle
        self.path = path
        self.odb = odb!
        pending = backend!
    }

    /// Objects not yet written by `writeObjects()` are dropped: no ref can point to them, as
    /// refs move only after the objects they name are on disk.
    deinit {
        api.git_odb_free(odb)
        api.git_repository_free(handle)
    }

    /// Stores every object created since the last call as one pack file, durably. Call it
    /// before anything outside this process (the notebook's checkpoint, a ref, a push) names
    /// one of them. (git_mempack_dump is not used: it packs every object reachable from the
    /// new commits, the whole notebook each time.)
    func writeObjects() throws {
        guard !created.isEmpty else { return }
        var builder: OpaquePointer?
        try check(api, "git_packbuilder_new", api.git_packbuilder_new(&builder, handle))
        defer { api.git_packbuilder_free(builder) }
        _ = api.git_packbuilder_set_threads(builder, 0)
        for id in created {
            var oid = id.oid
            try check(api, "git_packbuilder_insert", api.git_packbuilder_insert(builder, &oid, nil))
        }
        // NULL path: the repository's pack directory. The indexer fsyncs the pack and its index
        // when GIT_OPT_ENABLE_FSYNC_GITDIR is on.
        try check(api, "git_packbuilder_write", api.git_packbuilder_write(builder, nil, 0, nil, nil))
        try check(api, "git_mempack_reset", api.git_mempack_reset(pending))
        created.removeAll(keepingCapacity: true)
    }

    /// Opens the bare repository at `path`, creating it (HEAD on `main`) when there is none.
    static func openOrCreate(at path: String) throws -> Repository {
        let api = try GitLibrary.initialized()
        var handle: OpaquePointer?
        var rc = api.git_repository_open(&handle, path)
        if rc == GIT_ENOTFOUND.rawValue {
            var options = git_repository_init_options()
            try check(api, "git_repository_init_options_init",
                      api.git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)))
            options.flags = GIT_REPOSITORY_INIT_BARE.rawValue | GIT_REPOSITORY_INIT_MKPATH.rawValue
            rc = "main".withCString { head in
                options.initial_head = head
                return api.git_repository_init_ext(&handle, path, &options)
            }
            try check(api, "git_repository_init_ext", rc)
        } else {
            try check(api, "git_repository_open", rc)
        }
        return try Repository(api: api, handle: handle!, path: path)
    }

    /// Opens an existing repository (bare or not); never creates one.
    package static func open(at path: String) throws -> Repository {
        let api = try GitLibrary.initialized()
        var handle: OpaquePointer?
        try check(api, "git_repository_open", api.git_repository_open(&handle, path))
        return try Repository(api: api, handle: handle!, path: path)
    }

    /// No working tree: the only kind libgit2 pushes to.
    var isBare: Bool { api.git_repository_is_bare(handle) == 1 }

    // MARK: Objects

    func writeBlob(_ bytes: [UInt8]) throws -> ObjectID {
        var oid = git_oid()
        let rc = bytes.withUnsafeBytes { api.git_blob_create_from_buffer(&oid, handle, $0.baseAddress, $0.count) }
        try check(api, "git_blob_create_from_buffer", rc)
        return recordCreated(ObjectID(oid))
    }

    private func recordCreated(_ id: ObjectID) -> ObjectID {
        created.insert(id)
        return id
    }

    /// The id `bytes` would have as a blob, without writing anything.
    func blobID(of bytes: [UInt8]) throws -> ObjectID {
        var oid = git_oid()
        let rc = bytes.withUnsafeBytes { api.git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
        try check(api, "git_odb_hash", rc)
        return ObjectID(oid)
    }

    package func blob(_ id: ObjectID) throws -> [UInt8] {
        var oid = id.oid
        var blob: OpaquePointer?
        try check(api, "git_blob_lookup", api.git_blob_lookup(&blob, handle, &oid))
        defer { api.git_blob_free(blob) }
        let size = Int(api.git_blob_rawsize(blob))
        guard size > 0, let raw = api.git_blob_rawcontent(blob) else { return [] }
        return Array(UnsafeRawBufferPointer(start: raw, count: size))
    }

    /// A tree's entries by name: blobs and subtrees alike.
    func treeEntries(_ id: ObjectID) throws -> [String: TreeEntry] {
        var oid = id.oid
        var tree: OpaquePointer?
        try check(api, "git_tree_lookup", api.git_tree_lookup(&tree, handle, &oid))
        defer { api.git_tree_free(tree) }
        let count = api.git_tree_entrycount(tree)
        var result: [String: TreeEntry] = [:]
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let entry = api.git_tree_entry_byindex(tree, index), let cName = api.git_tree_entry_name(entry),
                  let entryID = api.git_tree_entry_id(entry) else { continue }
            let name = String(cString: cName)
            let isTree = api.git_tree_entry_type(entry) == GIT_OBJECT_TREE
            result[name] = TreeEntry(id: ObjectID(entryID.pointee), isTree: isTree)
        }
        return result
    }

    /// The entries that differ between two trees (nil on the side that lacks one), found by
    /// walking both sorted entry lists in step: only the differing names become Swift values,
    /// so two 10,000-entry folders that differ in 10 files cost 10 strings, not 20,000.
    func treeDifferences(_ old: ObjectID, _ new: ObjectID) throws -> [(name: String, old: TreeEntry?, new: TreeEntry?)] {
        guard old != new else { return [] }
        var oldOID = old.oid, newOID = new.oid
        var oldTree: OpaquePointer?, newTree: OpaquePointer?
        try check(api, "git_tree_lookup", api.git_tree_lookup(&oldTree, handle, &oldOID))
        defer { api.git_tree_free(oldTree) }
        try check(api, "git_tree_lookup", api.git_tree_lookup(&newTree, handle, &newOID))
        defer { api.git_tree_free(newTree) }
        let oldCount = api.git_tree_entrycount(oldTree), newCount = api.git_tree_entrycount(newTree)
        func entry(_ tree: OpaquePointer?, _ index: Int) -> (name: UnsafePointer<CChar>, value: TreeEntry)? {
            guard let entry = api.git_tree_entry_byindex(tree, index), let name = api.git_tree_entry_name(entry),
                  let id = api.git_tree_entry_id(entry) else { return nil }
            return (name, TreeEntry(id: ObjectID(id.pointee), isTree: api.git_tree_entry_type(entry) == GIT_OBJECT_TREE))
        }
        var result: [(name: String, old: TreeEntry?, new: TreeEntry?)] = []
        var i = 0, j = 0
        while i < oldCount || j < newCount {
            let left = i < oldCount ? entry(oldTree, i) : nil
            let right = j < newCount ? entry(newTree, j) : nil
            // Git sorts a tree's entries by name, a subtree's name read as if it ended in '/'.
            let order: Int32
            if let left, let right {
                order = Self.gitOrder(left.name, left.value.isTree, right.name, right.value.isTree)
            } else {
                order = left == nil ? 1 : -1
            }
            if order == 0, let left, let right {
                if left.value != right.value { result.append((String(cString: left.name), left.value, right.value)) }
                i += 1; j += 1
            } else if order < 0, let left {
                result.append((String(cString: left.name), left.value, nil))
                i += 1
            } else if let right {
                result.append((String(cString: right.name), nil, right.value))
                j += 1
            } else {
                break
            }
        }
        return result
    }

    /// -1, 0 or 1 as git orders two tree entries; equal names of a file and a folder differ.
    private static func gitOrder(_ a: UnsafePointer<CChar>, _ aIsTree: Bool, _ b: UnsafePointer<CChar>, _ bIsTree: Bool) -> Int32 {
        var index = 0
        while true {
            let x = UInt8(bitPattern: a[index]), y = UInt8(bitPattern: b[index])
            if x == 0 || y == 0 {
                // Where a name ends, a folder's reads '/' and a file's reads nothing.
                let endA: UInt8 = x != 0 ? x : (aIsTree ? UInt8(ascii: "/") : 0)
                let endB: UInt8 = y != 0 ? y : (bIsTree ? UInt8(ascii: "/") : 0)
                return endA == endB ? 0 : endA < endB ? -1 : 1
            }
            if x != y { return x < y ? -1 : 1 }
            index += 1
        }
    }

    func treeEntryCount(_ id: ObjectID) throws -> Int {
        var oid = id.oid
        var tree: OpaquePointer?
        try check(api, "git_tree_lookup", api.git_tree_lookup(&tree, handle, &oid))
        defer { api.git_tree_free(tree) }
        return api.git_tree_entrycount(tree)
    }

    /// One entry of a tree by name, or nil.
    func treeEntry(_ tree: ObjectID, named name: String) throws -> TreeEntry? {
        var oid = tree.oid
        var object: OpaquePointer?
        try check(api, "git_tree_lookup", api.git_tree_lookup(&object, handle, &oid))
        defer { api.git_tree_free(object) }
        // "The returned entry is owned by the tree": copied out before the tree is freed.
        guard let entry = api.git_tree_entry_byname(object, name), let id = api.git_tree_entry_id(entry) else { return nil }
        return TreeEntry(id: ObjectID(id.pointee), isTree: api.git_tree_entry_type(entry) == GIT_OBJECT_TREE)
    }

    /// Writes a tree from entries by name (blobs as regular files, subtrees as directories).
    func writeTree(_ entries: [String: TreeEntry]) throws -> ObjectID {
        var builder: OpaquePointer?
        try check(api, "git_treebuilder_new", api.git_treebuilder_new(&builder, handle, nil))
        defer { api.git_treebuilder_free(builder) }
        for (name, entry) in entries {
            var oid = entry.id.oid
            let mode = entry.isTree ? GIT_FILEMODE_TREE : GIT_FILEMODE_BLOB
            try check(api, "git_treebuilder_insert", api.git_treebuilder_insert(nil, builder, name, &oid, mode))
        }
        var out = git_oid()
        try check(api, "git_treebuilder_write", api.git_treebuilder_write(&out, builder))
        return recordCreated(ObjectID(out))
    }

    /// Writes `source` with some entries replaced (nil removes one). libgit2 copies the
    /// unchanged entries itself, so a 10,000-note folder costs little when 100 notes change.
    func writeTree(updating source: ObjectID, with changes: [String: TreeEntry?]) throws -> ObjectID {
        var sourceOID = source.oid
        var tree: OpaquePointer?
        try check(api, "git_tree_lookup", api.git_tree_lookup(&tree, handle, &sourceOID))
        defer { api.git_tree_free(tree) }
        var builder: OpaquePointer?
        try check(api, "git_treebuilder_new", api.git_treebuilder_new(&builder, handle, tree))
        defer { api.git_treebuilder_free(builder) }
        for (name, entry) in changes {
            if let entry {
                var oid = entry.id.oid
                let mode = entry.isTree ? GIT_FILEMODE_TREE : GIT_FILEMODE_BLOB
                try check(api, "git_treebuilder_insert", api.git_treebuilder_insert(nil, builder, name, &oid, mode))
            } else if api.git_treebuilder_get(builder, name) != nil {
                try check(api, "git_treebuilder_remove", api.git_treebuilder_remove(builder, name))
            }
        }
        var out = git_oid()
        try check(api, "git_treebuilder_write", api.git_treebuilder_write(&out, builder))
        return recordCreated(ObjectID(out))
    }

    package func commit(_ id: ObjectID) throws -> CommitInfo {
        var oid = id.oid
        var commit: OpaquePointer?
        try check(api, "git_commit_lookup", api.git_commit_lookup(&commit, handle, &oid))
        defer { api.git_commit_free(commit) }
        let tree = ObjectID(api.git_commit_tree_id(commit)!.pointee)
        var parents: [ObjectID] = []
        for index in 0..<api.git_commit_parentcount(commit) {
            if let parent = api.git_commit_parent_id(commit, index) { parents.append(ObjectID(parent.pointee)) }
        }
        let message = api.git_commit_message(commit).map { String(cString: $0) } ?? ""
        return CommitInfo(id: id, tree: tree, parents: parents,
                          time: Timestamp(milliseconds: Int64(api.git_commit_time(commit)) * 1000),
                          timeOffset: api.git_commit_time_offset(commit), message: message)
    }

    /// Writes a commit object without moving any ref; `time` (seconds and minutes east of UTC)
    /// is now when nil. Author and committer are both "notes <notes@localhost>".
    func createCommit(tree: ObjectID, parents: [ObjectID], message: String,
                             time: (seconds: Int64, offset: Int32)? = nil) throws -> ObjectID {
        var treeOID = tree.oid
        var treeObject: OpaquePointer?
        try check(api, "git_tree_lookup", api.git_tree_lookup(&treeObject, handle, &treeOID))
        defer { api.git_tree_free(treeObject) }
        var parentObjects: [OpaquePointer?] = []
        defer { for parent in parentObjects { api.git_commit_free(parent) } }
        for parent in parents {
            var oid = parent.oid
            var object: OpaquePointer?
            try check(api, "git_commit_lookup", api.git_commit_lookup(&object, handle, &oid))
            parentObjects.append(object)
        }
        var signature: UnsafeMutablePointer<git_signature>?
        if let time {
            try check(api, "git_signature_new", api.git_signature_new(&signature, "notes", "notes@localhost", time.seconds, time.offset))
        } else {
            try check(api, "git_signature_now", api.git_signature_now(&signature, "notes", "notes@localhost"))
        }
        defer { api.git_signature_free(signature) }
        var out = git_oid()
        let rc = parentObjects.withUnsafeMutableBufferPointer { buffer in
            api.git_commit_create(&out, handle, nil, signature, signature, nil, message, treeObject,
                                  buffer.count, buffer.baseAddress)
        }
        try check(api, "git_commit_create", rc)
        return recordCreated(ObjectID(out))
    }

    // MARK: Refs and history

    /// The commit a ref points to, or nil when the ref does not exist.
    package func reference(_ name: String) throws -> ObjectID? {
        var oid = git_oid()
        let rc = api.git_reference_name_to_id(&oid, handle, name)
        if rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(api, "git_reference_name_to_id", rc)
        return ObjectID(oid)
    }

    func setReference(_ name: String, to id: ObjectID, message: String) throws {
        var oid = id.oid
        var reference: OpaquePointer?
        try check(api, "git_reference_create", api.git_reference_create(&reference, handle, name, &oid, 1, message))
        api.git_reference_free_if_needed(reference)
    }

    /// What a compare-and-swap of a ref did.
    package enum ReferenceUpdate: Equatable, Sendable {
        case updated
        /// The ref no longer points where the caller expected: another writer moved it.
        case moved
        /// Another writer, live or dead, holds the ref's lock file (its path is given).
        case locked(String)
    }

    /// Compare-and-swap: moves `name` to `id` only if it still points to `expected` (or, for
    /// nil, does not exist). "It will return GIT_EMODIFIED if the reference's value at the time
    /// of updating does not match the one passed through current_id"; the check and the write
    /// happen under the ref's lock file.
    func updateReference(_ name: String, to id: ObjectID, expecting expected: ObjectID?, message: String) throws -> ReferenceUpdate {
        var oid = id.oid
        var reference: OpaquePointer?
        let rc: Int32
        if var old = expected?.oid {
            rc = api.git_reference_create_matching(&reference, handle, name, &oid, 1, &old, message)
        } else {
            rc = api.git_reference_create(&reference, handle, name, &oid, 0, message)
        }
        if rc == GIT_EMODIFIED.rawValue || rc == GIT_EEXISTS.rawValue { return .moved }
        if rc == GIT_ELOCKED.rawValue {
            let error = GitError.last(api, "git_reference_create", rc)
            return .locked(GitLocks.lockPath(in: error.message) ?? path + "/" + name + ".lock")
        }
        try check(api, expected == nil ? "git_reference_create" : "git_reference_create_matching", rc)
        api.git_reference_free_if_needed(reference)
        return .updated
    }

    /// Every ref's full name (`refs/heads/main`, ...).
    func referenceNames() throws -> [String] {
        var names = git_strarray()
        try check(api, "git_reference_list", api.git_reference_list(&names, handle))
        defer { api.git_strarray_dispose(&names) }
        return (0..<names.count).compactMap { names.strings[$0].map { String(cString: $0) } }
    }

    /// Points HEAD at `branch`, which may not exist yet ("the HEAD will be attached to an
    /// unborn branch").
    func setHead(_ branch: String) throws {
        try check(api, "git_repository_set_head", api.git_repository_set_head(handle, branch))
    }

    func removeReference(_ name: String) throws {
        let rc = api.git_reference_remove(handle, name)
        if rc == GIT_ENOTFOUND.rawValue { return }
        try check(api, "git_reference_remove", rc)
    }

    func mergeBase(_ a: ObjectID, _ b: ObjectID) throws -> ObjectID? {
        var out = git_oid()
        var one = a.oid
        var two = b.oid
        let rc = api.git_merge_base(&out, handle, &one, &two)
        if rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(api, "git_merge_base", rc)
        return ObjectID(out)
    }

    /// True when `commit` is `ancestor` or has it in its history.
    package func contains(_ commit: ObjectID, ancestor: ObjectID) throws -> Bool {
        if commit == ancestor { return true }
        var descendant = commit.oid
        var older = ancestor.oid
        let rc = api.git_graph_descendant_of(handle, &descendant, &older)
        try check(api, "git_graph_descendant_of", rc)
        return rc == 1
    }

    /// Commits reachable from `start`, newest first (topological, then by time).
    package func history(from start: ObjectID) throws -> [ObjectID] {
        var walker: OpaquePointer?
        try check(api, "git_revwalk_new", api.git_revwalk_new(&walker, handle))
        defer { api.git_revwalk_free(walker) }
        try check(api, "git_revwalk_sorting", api.git_revwalk_sorting(walker, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue))
        var oid = start.oid
        try check(api, "git_revwalk_push", api.git_revwalk_push(walker, &oid))
        var result: [ObjectID] = []
        var next = git_oid()
        while true {
            let rc = api.git_revwalk_next(&next, walker)
            if rc == GIT_ITEROVER.rawValue { break }
            try check(api, "git_revwalk_next", rc)
            result.append(ObjectID(next))
        }
        return result
    }
}

public struct TreeEntry: Hashable, Sendable {
    public var id: ObjectID
    var isTree: Bool

    public init(id: ObjectID, isTree: Bool) {
        self.id = id
        self.isTree = isTree
    }
}

public struct CommitInfo: Sendable {
    public let id: ObjectID
    public let tree: ObjectID
    public let parents: [ObjectID]
    public let time: Timestamp
    /// Minutes east of UTC of the commit's time.
    let timeOffset: Int32
    public let message: String
}

extension notes_git_api {
    /// git_reference_create hands back a reference the caller owns; Sync never needs it.
    func git_reference_free_if_needed(_ reference: OpaquePointer?) {
        if let reference { git_reference_free(reference) }
    }
}
