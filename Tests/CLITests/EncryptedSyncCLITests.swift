// Encrypted sync through the CLI: two machines, a passphrase file, and the refusals a user
// meets (wrong passphrase, no passphrase, a plain machine), each leaving the notebook as it was.
import Foundation
import Testing

@Suite(.serialized) struct EncryptedSyncCLITests {
    func bareRepository(at path: String) throws {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["init", "--quiet", "--bare", path]
        try git.run()
        git.waitUntilExit()
    }

    func passphraseFile(_ text: String, in notebook: Notebook, named name: String = "passphrase") throws -> [String: String] {
        let path = notebook.root + "/" + name
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return ["NOTES_PASSPHRASE_FILE": path]
    }

    @Test func twoMachinesShareAnEncryptedRemote() throws {
        let first = Notebook(), second = Notebook(), plain = Notebook()
        let remote = first.root + "/remote.git"
        try bareRepository(at: remote)
        let secret = try passphraseFile("a long passphrase", in: first)
        let add = try first.run(["remote", "add", "origin", remote, "--encrypt", "--key-cost", "minimum"], environment: secret)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.contains("encrypted remote"))
        let id = try first.add("Pelicanorchestra meets at noon #garden")
        #expect(try first.run(["sync"]).status == 0)
        let remotes = try #require(try first.run(["remote", "--json"]).json as? [[String: Any]])
        #expect(remotes.first?["encrypted"] as? Bool == true)

        // The daemon's way: the cached key alone, no passphrase file, no terminal.
        _ = try first.add("second note")
        #expect(try first.run(["sync"]).status == 0)

        let shown = try first.run(["remote", "show", "origin"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("Encrypted"))
        #expect(shown.stdout.contains("how many files"))
        let json = try #require(try first.run(["remote", "show", "origin", "--json"]).json as? [String: Any])
        #expect(json["encrypted"] as? Bool == true)
        #expect(json["key_cached"] as? Bool == true)
        #expect((json["files"] as? Int ?? 0) >= 3)

        // A wrong passphrase adds nothing; without one, nothing can be asked in a script.
        let wrong = try second.run(["remote", "add", "origin", remote, "--encrypt"],
                                   environment: try passphraseFile("not it", in: second, named: "wrong"))
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("wrong passphrase"))
        let missing = try second.run(["remote", "add", "origin", remote, "--encrypt"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("NOTES_PASSPHRASE_FILE"))
        #expect((try second.run(["remote", "--json"]).json as? [Any])?.isEmpty == true)

        let joined = try second.run(["remote", "add", "origin", remote, "--encrypt"], environment: try passphraseFile("a long passphrase", in: second))
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stderr.contains("Joined"))
        #expect(try second.run(["sync"]).status == 0)
        #expect(try second.noteJSON(id)["body"] as? String == "Pelicanorchestra meets at noon #garden")
        #expect(try second.run(["search", "pelicanorchestra", "--json"]).stdout.contains(id))

        // A machine that added it as a plain remote is refused, and keeps its notes.
        _ = try plain.add("mine")
        #expect(try plain.run(["remote", "add", "origin", remote]).status == 0)
        let refused = try plain.run(["sync"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--encrypt"))
        #expect((try plain.run(["list", "--json"]).json as? [Any])?.count == 1)

        let grep = Process()
        grep.executableURL = URL(fileURLWithPath: "/usr/bin/grep")
        grep.arguments = ["-rqi", "pelicanorchestra", remote]
        try grep.run()
        grep.waitUntilExit()
        #expect(grep.terminationStatus == 1, "the remote's files hold the note's word")

        #expect(try first.run(["remote", "remove", "origin"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: first.home + "/repo/notes-keys/origin"))
    }

    @Test func usageErrors() throws {
        let notebook = Notebook()
        #expect(try notebook.run(["remote", "add", "origin", "/x.git", "--key-cost", "minimum"]).status == 64)
        #expect(try notebook.run(["remote", "add", "origin", "/x.git", "--encrypt", "--key-cost", "cheap"]).status == 64)
        #expect(try notebook.run(["remote", "show", "origin", "--encrypt"]).status == 64)
        #expect(try notebook.run(["remote", "show", "nothing"]).status == 1)
    }
}
