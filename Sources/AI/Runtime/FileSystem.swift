// The few file operations the runtime needs, on Glibc (Foundation would cost start-up time).
import Glibc

enum FileSystem {
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int64
    }

    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                        modified: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// At most `limit` bytes from the start of the file, or nil when it cannot be read.
    static func read(_ path: String, limit: Int = Int.max) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = min(Int(info.st_size), limit)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, size - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    /// Writes through a temporary file and a rename, so a reader never sees half a file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) -> Bool {
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { close(fd); unlink(temporary); return false }
            done += count
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else { unlink(temporary); return false }
        return true
    }

    static func createDirectories(_ path: String) -> Bool {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    static func remove(_ path: String) { unlink(path) }

    /// The names in a directory, without "." and "..".
    static func names(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Sets the file's modification time to now.
    static func touch(_ path: String) { _ = utimensat(AT_FDCWD, path, nil, 0) }

    /// The resident set size of this process, from /proc.
    static func residentMemoryBytes() -> Int? {
        guard let bytes = read("/proc/self/statm", limit: 256) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
