// Sync through the CLI: two notebooks and a bare repository, as two machines and a USB disk.
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct SyncCLITests {
    func bareRepository(in notebook: Notebook) throws -> String {
        let path = notebook.root + "/remote.git"
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["init", "--quiet", "--bare", path]
        try git.run()
        git.waitUntilExit()
        return path
    }

    @Test func twoMachinesConvergeAndConflictsAreResolved() throws {
        let first = Notebook(), second = Notebook()
        let remote = try bareRepository(in: first)
        #expect(try first.run(["sync"]).stderr.contains("no remote"))
        #expect(try first.run(["remote", "add", "origin", remote]).status == 0)
        #expect(try second.run(["remote", "add", "origin", "file://" + remote]).status == 0)
        #expect(try first.run(["remote", "add", "bad name", remote]).status == 64)
        let remotes = try #require(try first.run(["remote", "--json"]).json as? [[String: Any]])
        #expect(remotes.first?["name"] as? String == "origin")

        let shared = try first.add("Shared note\nline one\nline two")
        let sent = try #require(try first.run(["sync", "--json"]).json as? [String: Any])
        #expect(sent["sent"] as? Int == 1)
        let received = try #require(try second.run(["sync", "--json"]).json as? [String: Any])
        #expect(received["received"] as? Int == 1)
        #expect(try second.noteJSON(shared)["body"] as? String == "Shared note\nline one\nline two")

        // Both edit the same line: both versions survive, and the note is flagged.
        #expect(try first.run(["edit", shared, "--text", "Shared note\nline one from the first\nline two"]).status == 0)
        #expect(try second.run(["edit", shared, "--text", "Shared note\nline one from the second\nline two"]).status == 0)
        #expect(try first.run(["sync"]).status == 0)
        let merged = try #require(try second.run(["sync", "--json"]).json as? [String: Any])
        #expect(merged["conflicted"] as? Int == 1)
        let conflicts = try #require(try second.run(["conflicts", "--json"]).json as? [[String: Any]])
        #expect(conflicts.count == 1)
        let bodies = [conflicts[0]["note"], conflicts[0]["copy"]].compactMap { ($0 as? [String: Any])?["body"] as? String }
        #expect(Set(bodies) == ["Shared note\nline one from the first\nline two", "Shared note\nline one from the second\nline two"])
        #expect(!bodies.joined().contains("<<<<<<<"))
        #expect(try second.run(["conflicts", shared, "--keep", "copy"]).status == 0)
        #expect((try second.run(["conflicts", "--json"]).json as? [Any])?.isEmpty == true)
        #expect(try second.run(["sync"]).status == 0)
        #expect(try first.run(["sync"]).status == 0)
        #expect(try first.run(["list", "--json"]).stdout == (try second.run(["list", "--json"]).stdout))

        let history = try #require(try first.run(["log", shared, "--json"]).json as? [[String: Any]])
        #expect(history.count >= 2)

        // A deletion travels too: one note of two is an ordinary delete (the guard starts at 10).
        #expect(try first.run(["rm", "-f", shared]).status == 0)
        #expect(try first.run(["sync"]).status == 0)
        #expect(try second.run(["sync"]).status == 0)
        #expect(try second.run(["show", shared]).status == 1)
    }

    @Test func remoteAddRefusesATakenNameAndAPathThatIsNoRepository() throws {
        let notebook = Notebook()
        let remote = try bareRepository(in: notebook)
        #expect(try notebook.run(["remote", "add", "origin", remote]).status == 0)
        let taken = try notebook.run(["remote", "add", "origin", notebook.root + "/other.git"])
        #expect(taken.status == 1)
        #expect(taken.stderr == """
            Error: a remote named 'origin' already exists (\(remote)); nothing was changed. To point it elsewhere: \
            notes remote remove origin, then notes remote add origin URL (your notes stay here, and the old remote keeps its copy)

            """)
        let missing = try notebook.run(["remote", "add", "usb", notebook.root + "/usb/notes.git"])
        #expect(missing.status == 1)
        #expect(missing.stderr == """
            Error: cannot add the remote 'usb': \(notebook.root)/usb/notes.git does not exist (if it is on a disk or a \
            share, is it mounted?); no remote was added. To make a new remote there: git init --bare \(notebook.root)/usb/notes.git

            """)
        let remotes = try #require(try notebook.run(["remote", "--json"]).json as? [[String: Any]])
        #expect(remotes.map { $0["url"] as? String } == [remote])
    }

    /// A remote deleted (or unplugged) after it was added: the sync says so, and changes nothing.
    @Test func aRemoteThatVanishedFailsClearlyAndChangesNothing() throws {
        let notebook = Notebook()
        let remote = try bareRepository(in: notebook)
        _ = try notebook.add("kept")
        #expect(try notebook.run(["remote", "add", "origin", remote]).status == 0)
        #expect(try notebook.run(["sync"]).status == 0)
        try FileManager.default.removeItem(atPath: remote)
        _ = try notebook.add("written after the remote went")
        let result = try notebook.run(["sync"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: cannot sync with 'origin': \(remote) does not exist (if it is on a disk or a share, is it mounted?). Nothing was changed here, and nothing was lost."))
        #expect((try notebook.run(["list", "--json"]).json as? [Any])?.count == 2)
    }

    /// A remote this user may not read, then one it may not write. Root may do both whatever the
    /// modes say, so as root (CI) the notebook runs as nobody and the remote is nobody's.
    @Test func aRemoteThisUserMayNotReadOrWriteIsNamed() throws {
        let notebook = Notebook(asNobody: getuid() == 0)
        let remote = try bareRepository(in: notebook)
        if notebook.asNobody { _ = try run(["chown", "-R", "\(Notebook.nobody)", remote]) }
        chmod(remote, 0)
        let refused = try notebook.run(["remote", "add", "origin", remote])
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            Error: cannot add the remote 'origin': \(remote) cannot be read by this user (permission denied); no remote \
            was added. Give this user access to it (see: ls -ld \(remote)), or sync as its owner

            """)
        chmod(remote, 0o755)
        #expect(try notebook.run(["remote", "add", "origin", remote]).status == 0)
        _ = try notebook.add("synced while the remote could be read")
        #expect(try notebook.run(["sync"]).status == 0)

        chmod(remote, 0)
        let unreadable = try notebook.run(["sync"])
        chmod(remote, 0o755)
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.hasPrefix("Error: cannot sync with 'origin': \(remote) cannot be read by this user (permission denied). Nothing was changed here, and nothing was lost."))

        _ = try run(["chmod", "-R", "a-w", remote])
        _ = try notebook.add("written while the remote cannot be written")
        let unwritable = try notebook.run(["sync"])
        _ = try run(["chmod", "-R", "u+w", remote])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr == """
            Error: cannot sync with 'origin': \(remote) cannot be written by this user (permission denied). Nothing was \
            lost: this machine has every note, merged with what 'origin' had, and the next sync sends them. Give this \
            user access to it (see: ls -ld \(remote)), or sync as its owner

            """)
        // Committed here by the sync that could not send it: the next one sends it.
        #expect(try notebook.run(["sync"]).status == 0)
        let other = Notebook(asNobody: notebook.asNobody)
        #expect(try other.run(["remote", "add", "origin", remote]).status == 0)
        #expect(try other.run(["sync"]).status == 0)
        #expect(try other.run(["list", "--json"]).stdout == (try notebook.run(["list", "--json"]).stdout))
    }
}
