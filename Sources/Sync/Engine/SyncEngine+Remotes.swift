// `notes remote add|remove` and the list: remotes live in the sync repository's git config,
// so plain git sees them too.

extension SyncEngine {
    public func remotes() throws -> [RemoteInfo] {
        try repository.remotes()
    }

    /// `url`: a path or `file://` URL of a bare repository, or `ssh://[user@]host[:port]/path`.
    public func addRemote(name: String, url: String) throws {
        let lock = try holdingSyncLock()
        defer { withExtendedLifetime(lock) {} }
        try repository.addRemote(name: name, url: url)
    }

    /// Forgets the remote and what we last synced with it; the notes stay.
    public func removeRemote(name: String) throws {
        guard try remotes().contains(where: { $0.name == name }) else { throw SyncError.noSuchRemote(name) }
        let lock = try holdingSyncLock()
        defer { withExtendedLifetime(lock) {} }
        try forgetRemote(name)
    }
}
