// `notes completion bash` in a real bash: the script registers a completion function with
// `complete`, and what that function puts in COMPREPLY (through compgen) is checked.
import Foundation
import Testing
import TestSupport

struct CompletionTests {
    /// What bash completes for the words typed after `notes`, the last one being completed.
    func complete(_ notebook: Notebook, _ words: [String], in directory: String? = nil) throws -> [String] {
        let quoted = (["notes"] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            source <(notes completion bash)
            spec=$(complete -p notes) || exit 3
            function=$(printf '%s\\n' "$spec" | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count)
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            "$function" notes "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile", "-c", script]
        var environment = Notebook.environment(home: notebook.home, root: notebook.root)
        environment["PATH"] = URL(fileURLWithPath: Notebook.binary).deletingLastPathComponent().path + ":/usr/bin:/bin"
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesCommandsOptionsAndChoices() throws {
        let notebook = Notebook()
        #expect(try complete(notebook, ["li"]) == ["links", "list"])
        #expect(try complete(notebook, ["list", "--ta"]) == ["--tag"])
        #expect(try complete(notebook, ["list", "--category", "h"]) == ["health"])
        #expect(try complete(notebook, ["tasks", "--due", ""]) == ["overdue", "today", "tomorrow", "week"])
        #expect(try complete(notebook, ["remote", ""]) == ["add", "remove", "show"])
        #expect(try complete(notebook, ["remote", "add", "--"]) == ["--encrypt", "--help", "--key-cost"])
        #expect(try complete(notebook, ["completion", ""]) == ["bash", "fish", "zsh"])
        #expect(try complete(notebook, ["help", "sy"]) == ["sync"])
    }

    @Test func bashCompletesTagsRemotesAndFiles() throws {
        let notebook = Notebook()
        // Nothing to offer yet, and no notebook is created by asking.
        #expect(try complete(notebook, ["list", "--tag", ""]) == [])
        #expect(!FileManager.default.fileExists(atPath: notebook.databasePath))
        _ = try notebook.add("Call the dentist #health #home")
        _ = try notebook.add("Water the plants #home #garden")
        #expect(try complete(notebook, ["list", "--tag", ""]) == ["garden", "health", "home"])
        #expect(try complete(notebook, ["add", "x", "--tag", "h"]) == ["health", "home"])
        let remote = notebook.root + "/remote.git"
        _ = try run(["git", "init", "--quiet", "--bare", remote])
        #expect(try notebook.run(["remote", "add", "origin", remote]).status == 0)
        #expect(try notebook.run(["remote", "add", "usb", remote]).status == 0)
        #expect(try complete(notebook, ["sync", ""]) == ["origin", "usb"])
        #expect(try complete(notebook, ["remote", "show", "o"]) == ["origin"])
        FileManager.default.createFile(atPath: notebook.root + "/vault-notes.md", contents: Data())
        #expect(try complete(notebook, ["import", "vault"], in: notebook.root) == ["vault-notes.md"])
    }

    @Test func zshAndFishScriptsCallTheSameCompleter() throws {
        let notebook = Notebook()
        for shell in ["zsh", "fish"] {
            let script = try notebook.run(["completion", shell])
            #expect(script.status == 0)
            #expect(script.stdout.contains("__complete --"))
        }
        let wrong = try notebook.run(["completion", "tcsh"])
        #expect(wrong.status == 64 && wrong.stderr.contains("<shell> takes bash, zsh, fish, not 'tcsh'"), "\(wrong.stderr)")
        let words = try notebook.run(["__complete", "--", "list", "--"])
        #expect(words.stdout.split(separator: "\n").first == "words")
        #expect(words.stdout.contains("--since\n"))
    }
}
