// Access to libgit2's functions, loaded on first use (see CGit2).
import CGit2

public enum GitLibrary {
    /// The function table, or the reason libgit2 could not be loaded.
    public static func load(path: String? = nil) -> Result<notes_git_api, GitLibraryError> {
        var message = [CChar](repeating: 0, count: 512)
        guard let api = notes_git_open(path, &message, message.count) else {
            return .failure(GitLibraryError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(api.pointee)
    }

    /// The table after `git_libgit2_init` has run, once per process, with fsync of the git
    /// directory turned on. libgit2 is never shut down: "git_libgit2_shutdown ... should be
    /// called once for each call to git_libgit2_init", and the process outlives every handle.
    static func initialized() throws -> notes_git_api {
        try shared.mapError(SyncError.git).get()
    }

    // The table is written once, before the first read, and never changed: safe to share.
    nonisolated(unsafe) private static let shared: Result<notes_git_api, GitError> = {
        var message = [CChar](repeating: 0, count: 512)
        guard let pointer = notes_git_open(nil, &message, message.count) else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(GitError(function: "dlopen(libgit2)", code: -1, errorClass: 0, message: text))
        }
        let api = pointer.pointee
        guard api.git_libgit2_init() >= 0 else { return .failure(GitError.last(api, "git_libgit2_init", -1)) }
        let rc = notes_git_enable_fsync(pointer)
        guard rc >= 0 else { return .failure(GitError.last(api, "git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR)", rc)) }
        return .success(api)
    }()
}

public struct GitLibraryError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { "cannot load libgit2: \(message)" }
}
