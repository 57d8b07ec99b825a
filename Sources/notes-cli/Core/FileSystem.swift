// The few file operations export and import need, over the C library.
#if canImport(Glibc)
import Glibc
#endif
import Notes

/// The C library's message for an errno value.
func systemError(_ code: Int32) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    return String(validatingCString: message) ?? "error \(code)"
}

enum FileSystem {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func lastError(_ path: String) -> Failure { Failure(path: path, reason: systemError(errno)) }

    static func read(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw lastError(path) }
        defer { close(descriptor) }
        return readAll(descriptor: descriptor)
    }

    /// Writes through a temporary file and rename, so a crash never leaves half a file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-notes"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw lastError(temporary) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let failure = lastError(temporary)
                close(descriptor)
                unlink(temporary)
                throw failure
            }
            offset += written
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw lastError(path) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Last modification time, in Unix milliseconds.
    static func modificationTime(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
    }

    static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw lastError(prefix) }
        }
    }

    /// Regular files under `root`, recursively, skipping hidden entries (.git, .obsidian, ...),
    /// as paths relative to `root`, sorted.
    static func files(under root: String) throws -> [String] {
        var result: [String] = []
        func walk(_ relative: String) throws {
            let path = relative.isEmpty ? root : root + "/" + relative
            guard let directory = opendir(path) else { throw lastError(path) }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasPrefix(".") { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                if isDirectory(root + "/" + child) {
                    try walk(child)
                } else {
                    result.append(child)
                }
            }
        }
        try walk("")
        return result.sorted()
    }
}
