// FileSystem: its errors (path and errno) and its mode policy (0700 directories, 0600 files).
import Glibc
@testable import Notes
import Testing
import TestSupport

struct FileSystemTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func createdDirectoriesAndWrittenFilesAreTheUsersAlone() throws {
        let directory = TemporaryDirectory()
        let nested = directory.path + "/a/b"
        try FileSystem.createDirectories(nested)
        #expect(mode(directory.path + "/a") == 0o700)
        #expect(mode(nested) == 0o700)
        try FileSystem.writeAtomically(Array("x".utf8), to: nested + "/f")
        try FileSystem.append(Array("y".utf8), to: nested + "/g")
        #expect(mode(nested + "/f") == 0o600)
        #expect(mode(nested + "/g") == 0o600)
        #expect(try FileSystem.names(in: nested).sorted() == ["f", "g"])
    }

    @Test func anExistingDirectoryKeepsItsModeUnlessItHoldsASecret() throws {
        let directory = TemporaryDirectory()
        let shared = directory.path + "/shared"
        mkdir(shared, 0o755)
        chmod(shared, 0o755)
        try FileSystem.createDirectories(shared)
        #expect(mode(shared) == 0o755)
        try FileSystem.makePrivate(shared)
        #expect(mode(shared) == 0o700)
    }

    @Test func aLinkResolvesToItsFileAndAMissingPathStaysAsItIs() throws {
        let directory = TemporaryDirectory()
        try FileSystem.writeAtomically(Array("x".utf8), to: directory.path + "/real.gguf")
        #expect(symlink(directory.path + "/real.gguf", directory.path + "/link.gguf") == 0)
        #expect(FileSystem.realPath(directory.path + "/link.gguf").hasSuffix("/real.gguf"))
        #expect(FileSystem.realPath(directory.path + "/missing.gguf") == directory.path + "/missing.gguf")
    }

    @Test func failuresCarryThePathAndErrno() throws {
        let missing = TemporaryDirectory().path + "/missing/file"
        #expect(throws: FileSystemError(path: missing, code: ENOENT)) { try FileSystem.read(missing) }
        #expect(FileSystemError(path: missing, code: ENOENT).description == missing + ": No such file or directory")
        try FileSystem.remove(missing)
        #expect(throws: FileSystemError.self) { try FileSystem.writeAtomically([1], to: missing) }
    }

    @Test func readsWholeFilesPrefixesAndFilesWithoutASize() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/f"
        let bytes = (0..<10_000).map { UInt8($0 % 251) }
        try FileSystem.writeAtomically(bytes, to: path, durable: true)
        #expect(try FileSystem.read(path) == bytes)
        #expect(try FileSystem.read(path, limit: 4) == Array(bytes.prefix(4)))
        #expect(try !FileSystem.read("/proc/self/statm").isEmpty)
        #expect(FileSystem.identity(of: path)?.size == 10_000)
        #expect(FileSystem.isRegularFile(path) && !FileSystem.isDirectory(path) && FileSystem.isDirectory(directory.path))
    }

    @Test func filesUnderAFolderSkipHiddenOnesAndAreSorted() throws {
        let directory = TemporaryDirectory()
        for file in ["b.md", "a/c.md", ".obsidian/x.json", "a/.hidden.md"] {
            let path = directory.path + "/" + file
            try FileSystem.createDirectories(String(path[..<path.lastIndex(of: "/")!]))
            try FileSystem.writeAtomically([], to: path)
        }
        #expect(try FileSystem.files(under: directory.path) == ["a/c.md", "b.md"])
    }
}
