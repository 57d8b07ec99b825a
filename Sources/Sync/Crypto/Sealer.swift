// Seals plaintext commits for an encrypted remote and opens the remote's sealed commits, so
// that the merge runs on plaintext exactly as with a plain remote.
//
// A sealed commit mirrors its plaintext commit: the same graph (parents sealed in turn), every
// file name and every file sealed where it stands (a name with its folder's path as context, a
// file with its own path, so nothing can be moved unnoticed), the commit's message and time
// sealed into its message, and `notes-encrypted` (salt, cost, key check) at the root, the only
// plain file. Sealing is deterministic (nonces are keyed hashes of the content), so an
// unchanged note keeps its sealed object, and opening a sealed commit gives back the very
// plaintext commit it came from, on every machine. Both directions work from the nearest
// commit already mapped, touching only what changed.
import Notes

final class Sealer {
    let key: RemoteKey
    private let repository: Repository
    private let mapPath: String
    /// Plaintext commit by sealed commit and back; kept in `notes-keys/<remote>.map`, a cache
    /// (each pair can be recomputed) that saves re-walking the whole history on every sync.
    private var plainOf: [ObjectID: ObjectID] = [:]
    private var sealedOf: [ObjectID: ObjectID] = [:]
    private var unsaved: [(sealed: ObjectID, plain: ObjectID)] = []
    private var sealedTrees: [ObjectID: ObjectID] = [:]
    private var openedTrees: [ObjectID: ObjectID] = [:]

    static let messageTitle = "notes (encrypted)"

    init(key: RemoteKey, repository: Repository, remote: String) {
        self.key = key
        self.repository = repository
        mapPath = RemoteKey.cachePath(repository: repository.path, remote: remote) + ".map"
        for line in String(decoding: (try? FileSystem.read(mapPath)) ?? [], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let sealed = ObjectID(hex: String(parts[0])), let plain = ObjectID(hex: String(parts[1])) else { continue }
            plainOf[sealed] = plain
            sealedOf[plain] = sealed
        }
    }

    /// Records the pairs made since the last call; call it once their objects are on disk.
    func save() {
        guard !unsaved.isEmpty else { return }
        let text = unsaved.map { "\($0.sealed.hex) \($0.plain.hex)\n" }.joined()
        if (try? FileSystem.append(Array(text.utf8), to: mapPath)) != nil { unsaved.removeAll() }
    }

    private func remember(sealed: ObjectID, plain: ObjectID) {
        plainOf[sealed] = plain
        sealedOf[plain] = sealed
        unsaved.append((sealed, plain))
    }

    // MARK: Commits

    func seal(_ commit: ObjectID) throws -> ObjectID {
        try walk(commit, known: { sealedOf[$0] }) { info throws in
            let parents = info.parents.map { sealedOf[$0]! }
            let previous = try info.parents.first.map { parent throws in
                (plain: try tree(of: parent), sealed: try tree(of: sealedOf[parent]!))
            }
            let sealedTree = try sealTree(info.tree, path: "", previous: previous)
            let payload = "\(info.time.milliseconds / 1000) \(info.timeOffset)\n" + info.message
            let sealedMessage = try key.seal(Array(payload.utf8), context: Array("commit".utf8))
            let sealed = try repository.createCommit(tree: sealedTree, parents: parents,
                                                     message: Self.messageTitle + "\n\n" + Base64.encode(sealedMessage) + "\n",
                                                     time: (info.time.milliseconds / 1000, info.timeOffset))
            remember(sealed: sealed, plain: info.id)
            return sealed
        }
    }

    func open(_ commit: ObjectID) throws -> ObjectID {
        try walk(commit, known: { plainOf[$0] }) { info throws in
            let parents = info.parents.map { plainOf[$0]! }
            let lines = info.message.split(separator: "\n")
            guard lines.count == 2, lines[0] == Self.messageTitle, let sealed = Base64.decode(String(lines[1])),
                  let payload = try key.open(sealed, context: Array("commit".utf8)) else {
                throw SyncError.tampered(object: info.id.hex, what: "the message of a commit")
            }
            let text = String(decoding: payload, as: UTF8.self)
            guard let newline = text.firstIndex(of: "\n") else { throw SyncError.tampered(object: info.id.hex, what: "the message of a commit") }
            let stamp = text[..<newline].split(separator: " ")
            guard stamp.count == 2, let seconds = Int64(stamp[0]), let offset = Int32(stamp[1]) else {
                throw SyncError.tampered(object: info.id.hex, what: "the time of a commit")
            }
            let previous = try info.parents.first.map { parent throws in
                (sealed: try tree(of: parent), plain: try tree(of: plainOf[parent]!))
            }
            let plainTree = try openTree(info.tree, path: "", previous: previous)
            let plain = try repository.createCommit(tree: plainTree, parents: parents, message: String(text[text.index(after: newline)...]),
                                                    time: (seconds, offset))
            remember(sealed: info.id, plain: plain)
            return plain
        }
    }

    /// Maps `start` and every ancestor not mapped yet, parents first, without recursion (a
    /// history can be thousands of commits long).
    private func walk(_ start: ObjectID, known: (ObjectID) -> ObjectID?,
                      _ map: (CommitInfo) throws -> ObjectID) throws -> ObjectID {
        var stack = [start]
        while let top = stack.last {
            if known(top) != nil { stack.removeLast(); continue }
            let info = try repository.commit(top)
            let missing = info.parents.filter { known($0) == nil }
            if !missing.isEmpty { stack += missing; continue }
            _ = try map(info)
            stack.removeLast()
        }
        return known(start)!
    }

    private func tree(of commit: ObjectID) throws -> ObjectID {
        try repository.commit(commit).tree
    }

    // MARK: Trees

    /// The context a name is sealed with: its folder's path, so a name cannot be moved to
    /// another folder; a file's is its full path, so contents cannot be swapped.
    private static func nameContext(_ folder: String) -> [UInt8] { Array(("name:" + folder).utf8) }
    private static func fileContext(_ path: String) -> [UInt8] { Array(("file:" + path).utf8) }

    func sealName(_ name: String, in folder: String) throws -> String {
        Base64.encodeURL(try key.seal(Array(name.utf8), context: Self.nameContext(folder)))
    }

    private func openName(_ sealed: String, in folder: String, tree: ObjectID) throws -> String {
        guard let bytes = Base64.decodeURL(sealed), let name = try key.open(bytes, context: Self.nameContext(folder)),
              let text = String(validating: name, as: UTF8.self), !text.isEmpty, !text.contains("/") else {
            throw SyncError.tampered(object: tree.hex, what: "a file name in folder '\(folder.isEmpty ? "/" : folder)'")
        }
        return text
    }

    private func sealEntry(_ name: String, _ entry: TreeEntry, in folder: String,
                           previous: (plain: ObjectID, sealed: ObjectID)?) throws -> TreeEntry {
        if entry.isTree {
            return TreeEntry(id: try sealTree(entry.id, path: folder + name + "/", previous: previous), isTree: true)
        }
        let bytes = try repository.blob(entry.id)
        let sealed = try key.seal(bytes, context: Self.fileContext(folder + name))
        return TreeEntry(id: try repository.writeBlob(sealed), isTree: false)
    }

    private func openEntry(_ name: String, _ entry: TreeEntry, in folder: String,
                           previous: (sealed: ObjectID, plain: ObjectID)?) throws -> TreeEntry {
        if entry.isTree {
            return TreeEntry(id: try openTree(entry.id, path: folder + name + "/", previous: previous), isTree: true)
        }
        let bytes = try repository.blob(entry.id)
        guard let plain = try key.open(bytes, context: Self.fileContext(folder + name)) else {
            throw SyncError.tampered(object: entry.id.hex, what: "the file \(folder + name)")
        }
        return TreeEntry(id: try repository.writeBlob(plain), isTree: false)
    }

    /// Seals `tree` (at `path`, "" for the root); with `previous` (a plaintext tree and its
    /// sealed tree) only the entries that differ from it are sealed.
    private func sealTree(_ tree: ObjectID, path: String, previous: (plain: ObjectID, sealed: ObjectID)?) throws -> ObjectID {
        if let done = sealedTrees[tree] { return done }
        let result: ObjectID
        if let previous {
            var changes: [String: TreeEntry?] = [:]
            for change in try repository.treeDifferences(previous.plain, tree) {
                let sealedName = try sealName(change.name, in: path)
                guard let entry = change.new else {
                    changes.updateValue(nil, forKey: sealedName)
                    continue
                }
                // A folder that was a folder before is sealed from its previous version.
                var before: (plain: ObjectID, sealed: ObjectID)?
                if entry.isTree, let old = change.old, old.isTree,
                   let sealedOld = try sealedEntry(previous.sealed, named: sealedName, path: path), sealedOld.isTree {
                    before = (old.id, sealedOld.id)
                }
                changes[sealedName] = try sealEntry(change.name, entry, in: path, previous: before)
            }
            result = changes.isEmpty ? previous.sealed : try updateSealed(previous.sealed, with: changes, path: path)
        } else {
            var sealed: [String: TreeEntry] = [:]
            for (name, entry) in try repository.treeEntries(tree) {
                sealed[try sealName(name, in: path)] = try sealEntry(name, entry, in: path, previous: nil)
            }
            if path.isEmpty {
                let header = try repository.writeBlob(key.parameters.file)
                sealed[KeyParameters.fileName] = TreeEntry(id: header, isTree: false)
            }
            result = try writeSealed(sealed, path: path)
        }
        sealedTrees[tree] = result
        openedTrees[result] = tree
        return result
    }

    private func openTree(_ tree: ObjectID, path: String, previous: (sealed: ObjectID, plain: ObjectID)?) throws -> ObjectID {
        if let done = openedTrees[tree] { return done }
        let result: ObjectID
        if let previous {
            var changes: [String: TreeEntry?] = [:]
            for change in try sealedDifferences(previous.sealed, tree, path: path) {
                // The root's key file changes only with the key, which fetch has checked.
                if path.isEmpty, change.name == KeyParameters.fileName { continue }
                let name = try openName(change.name, in: path, tree: change.new == nil ? previous.sealed : tree)
                guard let entry = change.new else {
                    changes.updateValue(nil, forKey: name)
                    continue
                }
                var before: (sealed: ObjectID, plain: ObjectID)?
                if entry.isTree, let old = change.old, old.isTree,
                   let plainOld = try repository.treeEntry(previous.plain, named: name), plainOld.isTree {
                    before = (old.id, plainOld.id)
                }
                changes[name] = try openEntry(name, entry, in: path, previous: before)
            }
            result = changes.isEmpty ? previous.plain
                : try repository.writeTree(updating: previous.plain, with: changes)
        } else {
            var entries = try readSealed(tree, path: path)
            if path.isEmpty { entries[KeyParameters.fileName] = nil }
            var plain: [String: TreeEntry] = [:]
            for (sealedName, entry) in entries {
                let name = try openName(sealedName, in: path, tree: tree)
                plain[name] = try openEntry(name, entry, in: path, previous: nil)
            }
            result = try repository.writeTree(plain)
        }
        openedTrees[tree] = result
        sealedTrees[result] = tree
        return result
    }

    // MARK: The layout of a sealed folder

    // A sealed folder other than the root keeps its entries in up to 64 buckets, subtrees named
    // by the first character of the sealed names they hold (uniform: it comes from the nonce).
    // A sync that changes 10 notes of 10,000 then rewrites 10 small buckets and a 64-entry
    // tree, not a 10,000-entry tree of long names: the cost stays with what changed.

    private static func bucket(of sealedName: String) -> String { String(sealedName.prefix(1)) }

    private func tamperedFolder(_ tree: ObjectID, _ path: String) -> SyncError {
        .tampered(object: tree.hex, what: "the layout of folder '\(path.isEmpty ? "/" : path)'")
    }

    /// A bucket's entries, each checked to belong there.
    private func bucketEntries(_ bucket: String, _ tree: TreeEntry?, path: String) throws -> [String: TreeEntry] {
        guard let tree else { return [:] }
        guard tree.isTree, bucket.count == 1 else { throw tamperedFolder(tree.id, path) }
        let entries = try repository.treeEntries(tree.id)
        guard !entries.isEmpty, entries.keys.allSatisfy({ Self.bucket(of: $0) == bucket }) else { throw tamperedFolder(tree.id, path) }
        return entries
    }

    private func readSealed(_ tree: ObjectID, path: String) throws -> [String: TreeEntry] {
        let top = try repository.treeEntries(tree)
        guard !path.isEmpty else { return top }
        var entries: [String: TreeEntry] = [:]
        for (bucket, entry) in top { entries.merge(try bucketEntries(bucket, entry, path: path)) { $1 } }
        return entries
    }

    private func writeSealed(_ entries: [String: TreeEntry], path: String) throws -> ObjectID {
        guard !path.isEmpty else { return try repository.writeTree(entries) }
        var buckets: [String: [String: TreeEntry]] = [:]
        for (name, entry) in entries { buckets[Self.bucket(of: name), default: [:]][name] = entry }
        var top: [String: TreeEntry] = [:]
        for (bucket, contents) in buckets {
            top[bucket] = TreeEntry(id: try repository.writeTree(contents), isTree: true)
        }
        return try repository.writeTree(top)
    }

    private func sealedEntry(_ tree: ObjectID, named name: String, path: String) throws -> TreeEntry? {
        guard !path.isEmpty else { return try repository.treeEntry(tree, named: name) }
        guard let bucket = try repository.treeEntry(tree, named: Self.bucket(of: name)), bucket.isTree else { return nil }
        return try repository.treeEntry(bucket.id, named: name)
    }

    private func updateSealed(_ tree: ObjectID, with changes: [String: TreeEntry?], path: String) throws -> ObjectID {
        guard !path.isEmpty else {
            return try repository.writeTree(updating: tree, with: changes)
        }
        var byBucket: [String: [String: TreeEntry?]] = [:]
        for (name, entry) in changes { byBucket[Self.bucket(of: name), default: [:]].updateValue(entry, forKey: name) }
        var top: [String: TreeEntry?] = [:]
        for (bucket, bucketChanges) in byBucket {
            let updated = if let old = try repository.treeEntry(tree, named: bucket), old.isTree {
                try repository.writeTree(updating: old.id, with: bucketChanges)
            } else {
                try repository.writeTree(bucketChanges.compactMapValues { $0 })
            }
            // An emptied bucket goes, as a folder sealed whole would not have it.
            let empty = try repository.treeEntryCount(updated) == 0
            top.updateValue(empty ? nil : TreeEntry(id: updated, isTree: true), forKey: bucket)
        }
        return try repository.writeTree(updating: tree, with: top)
    }

    /// The sealed names whose entries differ between two sealed folders.
    private func sealedDifferences(_ old: ObjectID, _ new: ObjectID, path: String) throws -> [(name: String, old: TreeEntry?, new: TreeEntry?)] {
        let top = try repository.treeDifferences(old, new)
        guard !path.isEmpty else { return top }
        var result: [(name: String, old: TreeEntry?, new: TreeEntry?)] = []
        for bucket in top {
            if let before = bucket.old, let after = bucket.new, before.isTree, after.isTree {
                let changes = try repository.treeDifferences(before.id, after.id)
                guard changes.allSatisfy({ Self.bucket(of: $0.name) == bucket.name }) else { throw tamperedFolder(after.id, path) }
                result += changes
                continue
            }
            let before = try bucketEntries(bucket.name, bucket.old, path: path)
            let after = try bucketEntries(bucket.name, bucket.new, path: path)
            for (name, entry) in before where after[name] != entry { result.append((name, entry, after[name])) }
            for (name, entry) in after where before[name] == nil { result.append((name, nil, entry)) }
        }
        return result
    }
}

extension Base64 {
    /// The URL and file name alphabet (`-` and `_`), without padding: a sealed file name.
    static func encodeURL(_ bytes: [UInt8]) -> String {
        String(encode(bytes, padded: false).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    static func decodeURL(_ text: String) -> [UInt8]? {
        guard !text.contains("+"), !text.contains("/") else { return nil }
        return decode(String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }))
    }
}
