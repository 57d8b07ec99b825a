// Sync through the CLI: two notebooks and a bare repository, as two machines and a USB disk.
import Foundation
import Testing

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

    @Test func anUnreachableRemoteFailsClearlyAndChangesNothing() throws {
        let notebook = Notebook()
        _ = try notebook.add("kept")
        #expect(try notebook.run(["remote", "add", "origin", notebook.root + "/does-not-exist.git"]).status == 0)
        let result = try notebook.run(["sync"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect((try notebook.run(["list", "--json"]).json as? [Any])?.count == 1)
    }
}
