// The few file operations Sync needs, on Glibc (Foundation would load ICU at start-up).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FileSystem {
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            result += buffer[0..<count]
        }
        return result
    }

    /// Writes a small file atomically (a temporary file, fsync, rename).
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { return false }
        return rename(temporary, path) == 0
    }

    /// Removes git's lock files (`*.lock`) under the git directory: left by a crashed process,
    /// they make every later ref update or index write fail. Called only while the sync lock
    /// is held, so no live notes process can own them. Returns the paths removed.
    @discardableResult
    static func removeStaleGitLocks(in gitDirectory: String) -> [String] {
        var removed: [String] = []
        for name in ["index.lock", "HEAD.lock", "config.lock", "packed-refs.lock"] {
            let path = gitDirectory + "/" + name
            if unlink(path) == 0 { removed.append(path) }
        }
        removeLocks(under: gitDirectory + "/refs", into: &removed)
        return removed
    }

    private static func removeLocks(under directory: String, into removed: inout [String]) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                removeLocks(under: path, into: &removed)
            } else if name.hasSuffix(".lock"), unlink(path) == 0 {
                removed.append(path)
            }
        }
    }
}
