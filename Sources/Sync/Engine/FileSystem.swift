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
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) -> Bool {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { return false }
        return rename(temporary, path) == 0
    }

    /// Creates `path` 0700 when missing (and makes it 0700 when it is not).
    static func makePrivateDirectory(_ path: String) -> Bool {
        if mkdir(path, 0o700) != 0, errno != EEXIST { return false }
        return chmod(path, 0o700) == 0
    }

    /// Appends to a file, creating it with `mode`; no fsync (callers keep only what can be recomputed).
    static func append(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    static func remove(_ path: String) { unlink(path) }
}
