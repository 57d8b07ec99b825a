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
}

public struct GitLibraryError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { "cannot load libgit2: \(message)" }
}
