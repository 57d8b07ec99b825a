// `notes remote add|remove` and the list: remotes live in the sync repository's git config,
// so plain git sees them too.
import Notes

extension SyncEngine {
    public func remotes() throws -> [RemoteInfo] {
        try repository.remotes()
    }

    /// `url`: a path or `file://` URL of a bare repository, or `ssh://[user@]host[:port]/path`.
    public func addRemote(name: String, url: String) throws {
        let lock = try holdingSyncLock()
        defer { withExtendedLifetime(lock) {} }
        try checkNewRemote(name: name, url: url)
        try repository.addRemote(name: name, url: url)
    }

    /// Refuses a name that is taken, and a path that is not a bare repository this user can
    /// read, before anything is written: a remote added is one a sync can use. An ssh remote is
    /// not reached here; its first sync says what is wrong with it.
    func checkNewRemote(name: String, url: String) throws {
        if let existing = try remotes().first(where: { $0.name == name }) {
            throw SyncError.remoteExists(name: name, url: existing.url)
        }
        if let path = Self.localPath(of: url), let problem = RemoteProblem.inspect(path) {
            throw SyncError.unusableRemote(remote: name, path: path, problem: problem, use: .adding)
        }
    }

    /// Forgets the remote and what we last synced with it; the notes stay.
    public func removeRemote(name: String) throws {
        guard try remotes().contains(where: { $0.name == name }) else { throw SyncError.noSuchRemote(name) }
        let lock = try holdingSyncLock()
        defer { withExtendedLifetime(lock) {} }
        try forgetRemote(name)
    }
}
