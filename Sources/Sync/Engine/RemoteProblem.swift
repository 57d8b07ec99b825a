// What is wrong with a path remote's directory or disk, found by looking at it when it is added
// and when libgit2 fails on it; `SyncError.unusableRemote` says it in the user's words.
import Notes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum RemoteProblem: Equatable, Sendable {
    /// Nothing at the path: deleted, moved, or on a disk or share that is not mounted.
    case missing
    case notADirectory
    case emptyDirectory
    case notARepository
    /// A repository with a working tree: libgit2 does not push to one.
    case notBare
    case unreadable
    /// The repository belongs to another user, and git trusts none unless told to
    /// (safe.directory): a disk written on another machine, whose user has another uid.
    case ownedByAnotherUser(uid: UInt32)
    case unwritable
    case readOnly
    /// Its disk is full, or the user's quota on it is used up.
    case full

    /// What keeps the directory at `path` from being a remote, or nil when it is a bare
    /// repository this user can read. (Writing is not tried: a remote on a read-only disk still
    /// gives its notes.)
    static func inspect(_ path: String) -> RemoteProblem? {
        if let problem = directoryProblem(path) { return problem }
        let repository: Repository
        do { repository = try Repository.open(at: path) } catch let SyncError.git(error) {
            return ownership(error, at: path) ?? .notARepository
        } catch {
            return .notARepository
        }
        return repository.isBare ? nil : .notBare
    }

    /// What the filesystem alone says is wrong with `path` as a repository's directory.
    private static func directoryProblem(_ path: String) -> RemoteProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable }
        guard info.st_mode & S_IFMT == S_IFDIR else { return .notADirectory }
        guard access(path, R_OK | X_OK) == 0, let names = try? FileSystem.names(in: path) else { return .unreadable }
        return names.isEmpty ? .emptyDirectory : nil
    }

    /// libgit2 opens no repository that another user owns ("config value 'safe.directory' was
    /// not found" in 1.5, "not owned by current user" later).
    private static func ownership(_ error: GitError, at path: String) -> RemoteProblem? {
        guard error.message.contains("safe.directory") || error.message.contains("not owned by current user") else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_uid != geteuid() else { return nil }
        return .ownedByAnotherUser(uid: info.st_uid)
    }

    /// What explains `error`, from reading (a fetch) or writing (a push) the path remote at
    /// `path`, or nil when its directory and disk do not: then the error is shown as libgit2
    /// gave it. A full disk or a read-only one is the remote's only in a write: a fetch writes
    /// on this machine, and a message naming another path is about this machine too.
    static func explaining(_ error: GitError, at path: String, writing: Bool) -> RemoteProblem? {
        if let problem = directoryProblem(path) ?? ownership(error, at: path) { return problem }
        let message = error.message
        if message.contains("could not find repository") { return .notARepository }
        if message.contains("non-bare") { return .notBare }
        // libgit2 names the remote by the path it was given or by its real path.
        let roots = Set([path, FileSystem.realPath(path)]).map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        let named = GitError.quoted(in: message).filter { $0.hasPrefix("/") }
        guard named.allSatisfy({ file in roots.contains { (file + "/").hasPrefix($0) } }) else { return nil }
        func says(_ code: Int32) -> Bool { message.contains(FileSystem.message(errno: code)) }
        if says(EACCES) || says(EPERM) { return writing ? .unwritable : .unreadable }
        guard writing else { return nil }
        if says(ENOSPC) || says(EDQUOT) { return .full }
        if says(EROFS) { return .readOnly }
        return nil
    }
}
