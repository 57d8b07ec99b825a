// What a path remote's directory and disk can do wrong, at `remote add` and during a sync: each
// refused or stopped in the user's words, with nothing lost, and the next sync after the fix
// finishing the work.
import Foundation
import Notes
import TestSupport
import Testing
@testable import Sync

struct AddingARemote {
    @Test func aTakenNameSaysWhichRemoteHasIt() throws {
        let directory = TemporaryDirectory()
        let first = try makeBareRemote(in: directory), second = try makeBareRemote(in: directory, name: "second.git")
        let engine = try SyncEngine(repositoryPath: directory.path + "/repo", notebook: InMemoryNotebook())
        try engine.addRemote(name: "origin", url: first)
        #expect {
            try engine.addRemote(name: "origin", url: second)
        } throws: { error in
            guard case let SyncError.remoteExists(name, url) = error else { return false }
            return name == "origin" && url == first
                && "\(error)".contains("notes remote remove origin, then notes remote add origin URL")
        }
        #expect(try engine.remotes() == [RemoteInfo(name: "origin", url: first)])
    }

    /// Only a bare repository this user can read is added; anything else is refused with what
    /// it is and how to make one, and nothing is added.
    @Test func aPathThatIsNoBareRepositoryIsRefused() throws {
        let directory = TemporaryDirectory()
        let root = directory.path
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/folder", withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: root + "/folder/todo.md"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: root + "/file"))
        _ = try run(["git", "init", "--quiet", root + "/clone"])
        let engine = try SyncEngine(repositoryPath: root + "/repo", notebook: InMemoryNotebook())
        let cases: [(String, RemoteProblem, String)] = [
            (root + "/absent.git", .missing, "does not exist (if it is on a disk or a share, is it mounted?); no remote was added. To make a new remote there: git init --bare \(root)/absent.git"),
            ("file://" + root + "/empty", .emptyDirectory, "is an empty directory, not a git repository; no remote was added. To make a new remote there: git init --bare \(root)/empty"),
            (root + "/folder", .notARepository, "is not a git repository; no remote was added"),
            (root + "/file", .notADirectory, "is a file, not a git repository; no remote was added"),
            (root + "/clone", .notBare, "is a git repository with a working tree, and a remote must be a bare one"),
        ]
        for (url, expected, words) in cases {
            #expect {
                try engine.addRemote(name: "origin", url: url)
            } throws: { error in
                guard case let SyncError.unusableRemote("origin", path, problem, .adding) = error else { return false }
                return problem == expected && path == SyncEngine.localPath(of: url) && "\(error)".hasPrefix("cannot add the remote 'origin': \(path) ")
                    && "\(error)".contains(words)
            }
        }
        #expect(try engine.remotes().isEmpty)
        // An ssh remote is not reached at add time.
        try engine.addRemote(name: "nas", url: "ssh://me@nas.invalid/srv/notes.git")
        #expect(try engine.remotes().map(\.name) == ["nas"])
    }

    /// git uses no repository another user owns (a disk written on another machine, where the
    /// user has another uid). Only root can give a directory to another user.
    @Test(.enabled(if: getuid() == 0, "only root can make a repository another user's"))
    func anotherUsersRepositoryIsRefusedWithTheWayToTrustIt() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        _ = try run(["chown", "-R", "65534", remote])
        let engine = try SyncEngine(repositoryPath: directory.path + "/repo", notebook: InMemoryNotebook())
        #expect {
            try engine.addRemote(name: "origin", url: remote)
        } throws: { error in
            guard case SyncError.unusableRemote("origin", remote, .ownedByAnotherUser(uid: 65534), .adding) = error else { return false }
            return "\(error)".contains("belongs to another user (uid 65534)")
                && "\(error)".contains("git config --global --add safe.directory \(FileSystem.realPath(remote))")
        }
    }
}

@Suite(.serialized)
struct RemoteFaults {
    @Test func aRemoteThatVanishedSaysSoAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let (a, _, note) = try twoSyncedMachines(in: directory, remote: remote, seed: 700)
        let before = a.notebook.notes
        try FileManager.default.moveItem(atPath: remote, toPath: remote + ".unplugged")
        #expect {
            try a.sync()
        } throws: { error in
            guard case SyncError.unusableRemote("origin", remote, .missing, .reading) = error else { return false }
            return "\(error)" == """
                cannot sync with 'origin': \(remote) does not exist (if it is on a disk or a share, is it mounted?). \
                Nothing was changed here, and nothing was lost. Mount it, then run 'notes sync' again; if the remote \
                moved: notes remote remove origin, then notes remote add origin NEW-PATH
                """
        }
        #expect(a.notebook.notes == before)
        try FileManager.default.moveItem(atPath: remote + ".unplugged", toPath: remote)
        #expect(try a.sync().sent == 1)
        #expect(a.notebook.notes[note.id] == note)
    }

    /// A read-only remote (a disk mounted read-only) still gives its notes; what this machine
    /// would send stays here until the remote can be written. As root (CI) only a read-only
    /// mount stops a write, so this needs mount(8) to work here.
    @Test(.enabled(if: Mount.works, "mount(8) does not work here (not root, or no CAP_SYS_ADMIN): no read-only remote to try"))
    func aReadOnlyRemoteSaysSoAndKeepsWhatItWouldSend() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let mounted = directory.path + "/usb"
        let mount = try Mount(bind: remote, at: mounted)
        defer {
            mount.unmount()
            withExtendedLifetime(directory) {}
        }
        // a syncs through the mount, b through the directory itself.
        let a = try Replica("a", in: directory, remote: mounted)
        let b = try Replica("b", in: directory, remote: remote)
        var factory = NoteFactory(seed: 710)
        let fromB = factory.note("sent by b")
        b.notebook.put(fromB)
        try b.sync()
        try mount.remount(readOnly: true)
        #expect(try a.sync().received == 1)
        #expect(a.notebook.notes[fromB.id] == fromB)

        let fromA = factory.note("written on a while the remote is read-only")
        a.notebook.put(fromA)
        #expect {
            try a.sync()
        } throws: { error in
            guard case SyncError.unusableRemote("origin", mounted, .readOnly, .writing) = error else { return false }
            return "\(error)" == """
                cannot sync with 'origin': \(mounted) is on a read-only disk or mount. Nothing was lost: this machine \
                has every note, merged with what 'origin' had, and the next sync sends them. Mount it read-write, \
                then run 'notes sync' again
                """
        }
        #expect(a.notebook.notes[fromA.id] == fromA)
        // The note was committed here by the sync that could not send it: the next one sends it.
        try mount.remount(readOnly: false)
        try a.sync()
        #expect(try b.sync().received == 1)
        #expect(b.notebook.notes[fromA.id] == fromA)
    }

    /// libgit2 says "cannot extend packfile ... No space left on device"; the user reads that
    /// the remote's disk is full and that nothing was lost here. The remote is a small tmpfs.
    @Test(.enabled(if: Mount.works, "mount(8) does not work here (not root, or no CAP_SYS_ADMIN): no small disk to fill"))
    func aFullRemoteDiskSaysSoAndTheNextSyncFinishes() throws {
        let directory = TemporaryDirectory()
        let disk = directory.path + "/usb"
        let mount = try Mount(tmpfsOfKilobytes: 256, at: disk)
        defer {
            mount.unmount()
            withExtendedLifetime(directory) {}
        }
        let remote = try makeBareRemote(in: directory, name: "usb/notes.git")
        let (a, b, _) = try twoSyncedMachines(in: directory, remote: remote, seed: 700)
        // Random text does not compress: these notes need more room than the disk has left.
        var random = SeededGenerator(seed: 720)
        var factory = NoteFactory(seed: 721)
        let big = (0..<4).map { index in
            factory.note("big \(index)\n" + (0..<100_000).map { _ in String(UInt8.random(in: 0...255, using: &random), radix: 16) }.joined())
        }
        for note in big { a.notebook.put(note) }
        #expect {
            try a.sync()
        } throws: { error in
            guard case SyncError.unusableRemote("origin", remote, .full, .writing) = error else { return false }
            return "\(error)" == """
                cannot sync with 'origin': the disk that holds \(remote) is full. Nothing was lost: this machine has \
                every note, merged with what 'origin' had, and the next sync sends them. Free some space there, then \
                run 'notes sync' again
                """
        }
        #expect(big.allSatisfy { a.notebook.notes[$0.id] == $0 })
        // libgit2 removes the pack it could not finish.
        #expect(GitLocks.find(in: remote).isEmpty)

        try mount.resize(kilobytes: 16 * 1024)
        try a.sync()
        #expect(try b.sync().received == 5)
        #expect(big.allSatisfy { b.notebook.notes[$0.id] == $0 })
        _ = try run(["git", "--git-dir", remote, "fsck", "--strict", "--no-progress"])
    }
}

/// A mount made for one test: a bind mount of a directory, or a small tmpfs. Unmount it before
/// its directory is removed.
final class Mount {
    let path: String
    private let bind: Bool

    /// Whether mount(8) works here: as root with CAP_SYS_ADMIN (CI's containers may lack it).
    static let works: Bool = {
        guard getuid() == 0 else { return false }
        let probe = TemporaryDirectory()
        guard (try? run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path])) != nil else { return false }
        _ = try? run(["umount", probe.path])
        return true
    }()

    init(bind source: String, at path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = try run(["mount", "--bind", source, path])
        self.path = path
        bind = true
    }

    init(tmpfsOfKilobytes size: Int, at path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = try run(["mount", "-t", "tmpfs", "-o", "size=\(size)k", "tmpfs", path])
        self.path = path
        bind = false
    }

    func remount(readOnly: Bool) throws {
        _ = try run(["mount", "-o", "remount," + (bind ? "bind," : "") + (readOnly ? "ro" : "rw"), path])
    }

    func resize(kilobytes size: Int) throws {
        _ = try run(["mount", "-o", "remount,size=\(size)k", path])
    }

    func unmount() {
        _ = try? run(["umount", path])
    }
}
