// A failed libgit2 call: which function, its return code, and git_error_last() read at once.
import CGit2

public struct GitError: Error, CustomStringConvertible, Sendable {
    /// The C function that failed, e.g. `git_remote_fetch`.
    public let function: String
    /// The return code (`git_error_code`): GIT_ENOTFOUND is -3, GIT_ENONFASTFORWARD -11, ...
    public let code: Int32
    /// `git_error_t`: the subsystem (GIT_ERROR_NET, GIT_ERROR_SSH, ...), 0 when none.
    let errorClass: Int32
    public let message: String

    public var description: String { "\(function) failed (\(code)): \(message)" }

    /// Another writer holds (or a dead one left) a lock file that this call needed.
    var isLocked: Bool { code == GIT_ELOCKED.rawValue }

    /// The network connection to a remote ended before the fetch or push did: libssh2's
    /// session failed (GIT_ERROR_SSH: "Failed getting banner", "Unable to exchange encryption
    /// keys", "Failed to open SSH channel", "SSH could not read data", ...) or the stream ended
    /// early (GIT_ERROR_NET: "early EOF"). Not an authentication or host key failure: those stop
    /// in our callbacks with their own `SyncError`.
    var isConnectionLost: Bool {
        !isUnreachable && (errorClass == Int32(GIT_ERROR_SSH.rawValue) || errorClass == Int32(GIT_ERROR_NET.rawValue))
    }

    /// No connection was made: "failed to connect to HOST: Connection refused" (or no route, a
    /// timeout; GIT_ERROR_OS in libgit2 1.5), "failed to resolve address for HOST: ..."
    /// (GIT_ERROR_NET).
    var isUnreachable: Bool {
        [GIT_ERROR_OS, GIT_ERROR_NET].contains { errorClass == Int32($0.rawValue) }
            && (message.hasPrefix("failed to connect") || message.hasPrefix("failed to resolve address"))
    }

    /// What `message` quotes, in order: libgit2 puts paths and names between single quotes
    /// ("failed to lock file '/r/refs/heads/main.lock' for writing").
    static func quoted(in message: String) -> [String] {
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        return parts.indices.filter { $0 % 2 == 1 && $0 < parts.count - 1 }.map { String(parts[$0]) }
    }

    /// Reads the calling thread's last error: "The error message is thread-local. The
    /// git_error_last call must happen on the same thread as the error in order to get the
    /// message", so call this right after the failing call.
    static func last(_ api: notes_git_api, _ function: String, _ code: Int32) -> GitError {
        if let error = api.git_error_last() {
            let text = error.pointee.message.map { String(cString: $0) } ?? "no message"
            return GitError(function: function, code: code, errorClass: error.pointee.klass, message: text)
        }
        return GitError(function: function, code: code, errorClass: 0, message: "no message")
    }
}

/// Throws `SyncError.git` for a negative libgit2 return code: the wrapper speaks the module's
/// one error type, so that its callers need no conversion.
@inline(__always)
func check(_ api: notes_git_api, _ function: String, _ rc: Int32) throws {
    if rc < 0 { throw SyncError.git(GitError.last(api, function, rc)) }
}
