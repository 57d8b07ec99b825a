// The file operations every module needs, on the C library (Foundation would load ICU at
// start-up). The one I/O helper in Notes: every module depends on Notes, so there is one copy.
import Glibc

/// A file operation that failed: the path it was on and the C library's `errno`.
public struct FileSystemError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let code: Int32

    init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    /// The C library's message for `code` ("Permission denied").
    public var reason: String { FileSystem.message(errno: code) }
    public var description: String { "\(path): \(reason)" }
}

/// Reading, writing and listing files and directories. What can fail throws a
/// `FileSystemError` (untyped, as everything across a module boundary); what only asks
/// (`exists`, `identity`) answers false or nil.
///
/// Modes: everything notes writes is a note or made from notes (the database, the sync
/// repository, caches, the daemon's socket folder, an export), so it is the user's alone.
/// A directory notes creates is 0700 and a file it writes 0600 unless a caller says
/// otherwise; the umask can only narrow them. A directory that already exists keeps the mode
/// its owner gave it, except one that holds a secret, which `makePrivate` narrows to 0700.
public enum FileSystem {
    static let directoryMode: mode_t = 0o700
    public static let fileMode: mode_t = 0o600

    /// The C library's message for an errno value.
    public static func message(errno code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(validatingCString: message) ?? "error \(code)"
    }

    // MARK: Reading

    /// The file's bytes, at most `limit` of them from its start.
    public static func read(_ path: String, limit: Int = Int.max) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(descriptor) }
        return readAll(descriptor: descriptor, limit: limit)
    }

    /// Reads until end of file (or `limit` bytes). Regular files are read straight into a
    /// buffer of their size; files whose size says nothing (`/proc`, pipes) grow one.
    public static func readAll(descriptor: Int32, limit: Int = Int.max) -> [UInt8] {
        var info = stat()
        let expected = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        var result = [UInt8](repeating: 0, count: min(max(expected + 1, 4096), limit))
        var length = 0
        while length < limit {
            if length == result.count { result.append(contentsOf: repeatElement(0, count: min(result.count, limit - length))) }
            let count = result.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + length, $0.count - length) }
            if count > 0 {
                length += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        result.removeLast(result.count - length)
        return result
    }

    /// A file's device, inode, size and modification time; nil when it cannot be examined.
    public struct Identity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        public var modified: Int64
        public var modifiedNanoseconds: Int64

        /// The modification time in Unix milliseconds.
        public var modifiedMilliseconds: Int64 { modified * 1000 + modifiedNanoseconds / 1_000_000 }
    }

    public static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                        modified: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func isDirectory(_ path: String) -> Bool { type(of: path) == S_IFDIR }

    public static func isRegularFile(_ path: String) -> Bool { type(of: path) == S_IFREG }

    /// The path through its symbolic links (set-up links the models to their real files); the
    /// path itself when it cannot be resolved (a missing file).
    public static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func type(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// The names in a directory, without "." and "..", in the directory's order.
    public static func names(in directory: String) throws -> [String] {
        guard let handle = opendir(directory) else { throw FileSystemError(path: directory, code: errno) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Regular files under `root`, recursively, skipping hidden entries (.git, .obsidian, ...),
    /// as paths relative to `root`, sorted.
    public static func files(under root: String) throws -> [String] {
        var result: [String] = []
        func walk(_ relative: String) throws {
            for name in try names(in: relative.isEmpty ? root : root + "/" + relative) where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                if isDirectory(root + "/" + child) { try walk(child) } else { result.append(child) }
            }
        }
        try walk("")
        return result.sorted()
    }

    // MARK: Writing

    /// Writes through a temporary file and a rename, so that a reader or a crash never sees
    /// half a file. `durable` also flushes it to the disk before the rename (for the few
    /// files that must survive a power cut; an export of thousands of notes would crawl).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = fileMode,
                                       durable: Bool = false) throws {
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileSystemError(path: temporary, code: errno) }
        do {
            try writeAll(bytes, to: descriptor, path: temporary)
            if durable, fsync(descriptor) != 0 { throw FileSystemError(path: temporary, code: errno) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let failure = FileSystemError(path: path, code: errno)
            unlink(temporary)
            throw failure
        }
    }

    /// Appends to a file, creating it with `mode`; not flushed (callers keep only what can be
    /// recomputed this way).
    public static func append(_ bytes: [UInt8], to path: String, mode: mode_t = fileMode) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, path: path)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileSystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw FileSystemError(path: path, code: written < 0 ? errno : EIO) }
            offset += written
        }
    }

    /// Creates `path` and its missing parents, each `directoryMode` (0700); existing ones are
    /// left as they are.
    public static func createDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, directoryMode) != 0, errno != EEXIST { throw FileSystemError(path: prefix, code: errno) }
        }
    }

    /// Creates `path` as `createDirectories` does, and narrows it to 0700 if it existed with a
    /// wider mode: for a directory that holds a secret.
    public static func makePrivate(_ path: String) throws {
        try createDirectories(path)
        guard chmod(path, directoryMode) == 0 else { throw FileSystemError(path: path, code: errno) }
    }

    /// Sets the file's modification time to now.
    public static func touch(_ path: String) throws {
        guard utimensat(AT_FDCWD, path, nil, 0) == 0 else { throw FileSystemError(path: path, code: errno) }
    }

    /// Removes a file; one that is already gone is not an error.
    public static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw FileSystemError(path: path, code: errno) }
    }
}
