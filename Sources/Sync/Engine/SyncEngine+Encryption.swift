// Encrypted remotes: adding one (a new remote or joining one another machine encrypted), the
// key on this machine, and the fetch that opens the remote's sealed commits into plaintext
// ones, where the merge runs as with a plain remote (see Sealer).
import Notes

extension SyncEngine {
    /// Where an encrypted remote's sealed branch is fetched to; the plaintext it opens to goes
    /// to `trackingRef`, as a plain remote's branch does.
    static func sealedTrackingRef(_ remote: String) -> String { "refs/notes-sealed/\(remote)/main" }
    static func sealedFetchRefspec(_ remote: String) -> String { "+refs/heads/*:refs/notes-sealed/\(remote)/*" }
    /// The sealed commit being pushed (a push sends a local ref).
    static func sealedOutgoingRef(_ remote: String) -> String { "refs/notes-sealed-out/\(remote)" }

    /// Adds `url` as an encrypted remote. An empty remote gets a new key (salt and `cost`
    /// chosen here, stored in it on the first sync); a remote another machine encrypted is
    /// joined with its salt and cost, and the passphrase must pass its key check. Returns true
    /// when it joined. On any failure the remote is not added.
    @discardableResult
    public func addEncryptedRemote(name: String, url: String, cost: KeyCost = .moderate, credentials: RemoteCredentials? = nil,
                                   passphrase: @escaping PassphraseSource) throws -> Bool {
        let lock = try holdingSyncLock()
        defer { withExtendedLifetime(lock) {} }
        _ = try Sodium.api()
        try checkNewRemote(name: name, url: url)
        try repository.addRemote(name: name, url: url, fetchRefspec: Self.sealedFetchRefspec(name))
        do {
            try using(RemoteInfo(name: name, url: url, encrypted: true), .adding) {
                try repository.fetch(remote: name, credentials: credentials)
            }
            let tip = try repository.reference(Self.sealedTrackingRef(name))
            let header = try tip.map { tip throws in try keyParameters(ofSealed: tip, remote: name) }
            let key: RemoteKey
            if let header {
                key = try derive(remote: name, matching: header, passphrase: passphrase)
            } else {
                key = try RemoteKey.new(passphrase: try ask(passphrase, PassphraseRequest(remote: name, isNew: true)), cost: cost)
            }
            try store(key, remote: name)
            return header != nil
        } catch {
            try? forgetRemote(name)
            throw error
        }
    }

    /// Removes everything this machine keeps about a remote: its config and refs, its key and
    /// its commit map. The notes stay.
    func forgetRemote(_ name: String) throws {
        sealers[name] = nil
        let keyFile = RemoteKey.cachePath(repository: repository.path, remote: name)
        try? FileSystem.remove(keyFile)
        try? FileSystem.remove(keyFile + ".map")
        if try repository.remotes().contains(where: { $0.name == name }) { try repository.removeRemote(name: name) }
        for ref in [Self.syncedRef(name), Self.trackingRef(name), Self.sealedTrackingRef(name), Self.sealedOutgoingRef(name)] {
            try repository.removeReference(ref)
        }
    }

    private func ask(_ source: PassphraseSource?, _ request: PassphraseRequest) throws -> [UInt8] {
        let answer: [UInt8]?
        do { answer = try source?(request) } catch let error as SyncError { throw error } catch {
            throw SyncError.passphrase(String(describing: error))
        }
        guard let answer else { throw SyncError.passphraseNeeded(remote: request.remote) }
        guard !answer.isEmpty else { throw SyncError.passphrase("the passphrase is empty") }
        return answer
    }

    private func derive(remote: String, matching header: KeyParameters, passphrase: PassphraseSource?) throws -> RemoteKey {
        let key = try RemoteKey.derive(passphrase: try ask(passphrase, PassphraseRequest(remote: remote, isNew: false)),
                                       salt: header.salt, operations: header.operations, memory: header.memory)
        guard key.matches(header) else { throw SyncError.wrongPassphrase(remote: remote) }
        return key
    }

    /// Caches the key (0600) and drops the commit map made with any earlier key.
    private func store(_ key: RemoteKey, remote: String) throws {
        try key.save(repository: repository.path, remote: remote)
        try? FileSystem.remove(RemoteKey.cachePath(repository: repository.path, remote: remote) + ".map")
        sealers[remote] = nil
    }

    /// The salt, cost and key check at the root of a sealed commit.
    func keyParameters(ofSealed commit: ObjectID, remote: String) throws -> KeyParameters {
        let root = try repository.commit(commit).tree
        guard let entry = try repository.treeEntry(root, named: KeyParameters.fileName),
              !entry.isTree else {
            throw SyncError.remoteIsPlain(remote: remote)
        }
        switch KeyParameters.parse(try repository.blob(entry.id)) {
        case let .success(parameters): return parameters
        case let .failure(problem): throw SyncError.unreadableKeyFile(remote: remote, reason: problem.reason)
        }
    }

    /// The sealer for `remote`, with the key cached here when it matches the remote's
    /// (`header`, nil for an empty remote); else a key derived from the passphrase. A remote
    /// whose key changed after we synced with it is refused; one that another machine
    /// encrypted first, before our first sync, is joined.
    func sealer(for remote: String, header: KeyParameters?, options: SyncOptions) throws -> Sealer {
        if let sealer = sealers[remote], header.map(sealer.key.matches) ?? true { return sealer }
        let key: RemoteKey
        if let cached = try RemoteKey.cached(repository: repository.path, remote: remote), header.map(cached.matches) ?? true {
            key = cached
        } else if let header {
            if try RemoteKey.cached(repository: repository.path, remote: remote) != nil,
               try repository.reference(Self.syncedRef(remote)) != nil {
                throw SyncError.encryptionChanged(remote: remote)
            }
            key = try derive(remote: remote, matching: header, passphrase: options.passphrase)
            try store(key, remote: remote)
        } else {
            key = try RemoteKey.new(passphrase: try ask(options.passphrase, PassphraseRequest(remote: remote, isNew: true)), cost: .moderate)
            try store(key, remote: remote)
        }
        let sealer = Sealer(key: key, repository: repository, remote: remote)
        sealers[remote] = sealer
        return sealer
    }

    /// Fetches `remote` and returns its branch's tip as plaintext. An encrypted remote's
    /// sealed commits are checked and opened here (their objects are stored, and the tracking
    /// ref moved, by `storeObjects`); a remote that is not what it was added as (plain or
    /// encrypted) is refused with the tracking ref as it was.
    func fetch(_ remote: RemoteInfo, options: SyncOptions) throws -> ObjectID? {
        let tracking = Self.trackingRef(remote.name)
        guard remote.encrypted else {
            let before = try repository.reference(tracking)
            try repository.fetch(remote: remote.name, credentials: options.credentials)
            guard let tip = try repository.reference(tracking) else { return nil }
            let root = try repository.commit(tip).tree
            if try repository.treeEntry(root, named: KeyParameters.fileName) != nil {
                if let before { try repository.setReference(tracking, to: before, message: "notes sync: refused") } else {
                    try repository.removeReference(tracking)
                }
                throw SyncError.remoteIsEncrypted(remote: remote.name, url: remote.url)
            }
            return tip
        }
        try repository.fetch(remote: remote.name, credentials: options.credentials)
        guard let sealedTip = try repository.reference(Self.sealedTrackingRef(remote.name)) else {
            _ = try sealer(for: remote.name, header: nil, options: options)
            openedTips[remote.name] = .some(nil)
            return nil
        }
        let header = try keyParameters(ofSealed: sealedTip, remote: remote.name)
        let plain = try sealer(for: remote.name, header: header, options: options).open(sealedTip)
        openedTips[remote.name] = plain
        return plain
    }

    /// Writes the objects made since the last call as one pack, then what names them: an
    /// encrypted remote's commit map and its opened tip's tracking ref.
    func storeObjects(_ remote: RemoteInfo) throws {
        try repository.writeObjects()
        guard remote.encrypted else { return }
        sealers[remote.name]?.save()
        guard let opened = openedTips.removeValue(forKey: remote.name) else { return }
        if let opened { try repository.setReference(Self.trackingRef(remote.name), to: opened, message: "notes sync: opened") } else {
            try repository.removeReference(Self.trackingRef(remote.name))
        }
    }

    /// What a push sends: a plaintext commit to a plain remote; to an encrypted one, its
    /// sealed commit (made now, stored by `storeObjects`), from a ref of its own, replacing the
    /// sealed tip fetched.
    struct Outgoing {
        let source: String
        let commit: ObjectID
        let expected: ObjectID?
    }

    func outgoing(_ commit: ObjectID, to remote: RemoteInfo, replacing expected: ObjectID?) throws -> Outgoing {
        guard remote.encrypted else { return Outgoing(source: Self.branch, commit: commit, expected: expected) }
        let sealed = try sealer(for: remote.name, header: nil, options: SyncOptions()).seal(commit)
        let sealedExpected = try repository.reference(Self.sealedTrackingRef(remote.name))
        return Outgoing(source: Self.sealedOutgoingRef(remote.name), commit: sealed, expected: sealedExpected)
    }
}
extension SyncEngine {
    public func describeRemote(_ name: String) throws -> RemoteDescription {
        guard let remote = try remotes().first(where: { $0.name == name }) else { throw SyncError.noSuchRemote(name) }
        let tip = try repository.reference(remote.encrypted ? Self.sealedTrackingRef(name) : Self.trackingRef(name))
        let files = try tip.map { tip throws in
            try countFiles(in: try repository.commit(tip).tree)
        }
        let synced = try repository.reference(Self.syncedRef(name))
        let lastSync = try synced.map { synced throws in try repository.commit(synced).time }
        guard remote.encrypted else {
            return RemoteDescription(remote: remote, files: files, lastSync: lastSync, keyFile: nil, keyCached: false, cost: nil)
        }
        let path = RemoteKey.cachePath(repository: repository.path, remote: name)
        let cached = try RemoteKey.cached(repository: repository.path, remote: name)
        return RemoteDescription(remote: remote, files: files, lastSync: lastSync, keyFile: path, keyCached: cached != nil,
                                 cost: cached.map { ($0.parameters.operations, $0.parameters.memory) })
    }

    private func countFiles(in tree: ObjectID) throws -> Int {
        var count = 0
        for entry in try repository.treeEntries(tree).values { count += entry.isTree ? try countFiles(in: entry.id) : 1 }
        return count
    }
}
