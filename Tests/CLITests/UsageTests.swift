// Help, usage errors and exit codes, the way scripts and people meet them.
import Foundation
import Testing

@Suite(.serialized) struct UsageTests {
    static let commands = ["add", "list", "show", "edit", "rm", "search", "related", "ask", "tags", "links", "export", "import", "status", "analyze", "tasks",
                           "done", "undone", "set", "model", "daemon", "mcp", "remote", "sync", "conflicts", "log"]

    @Test(arguments: commands)
    func everyCommandHasHelp(command: String) throws {
        let notebook = Notebook()
        for invocation in [[command, "--help"], [command, "-h"], ["help", command]] {
            let result = try notebook.run(invocation)
            #expect(result.status == 0)
            #expect(result.stdout.contains("OVERVIEW:"))
            #expect(result.stdout.contains("USAGE: notes \(command)"))
            #expect(result.stdout.contains("OPTIONS:"))
        }
    }

    @Test func topLevelHelpListsTheCommands() throws {
        let result = try Notebook().run(["--help"])
        #expect(result.status == 0)
        for command in UsageTests.commands { #expect(result.stdout.contains("  \(command) ")) }
    }

    @Test func usageErrorsExit64WithUsageOnStderr() throws {
        let notebook = Notebook()
        let unknownOption = try notebook.run(["add", "--bogus", "x"])
        #expect(unknownOption.status == 64)
        #expect(unknownOption.stdout.isEmpty)
        #expect(unknownOption.stderr.hasPrefix("Error: unknown option '--bogus'"))
        #expect(unknownOption.stderr.contains("Usage: notes add"))
        #expect(unknownOption.stderr.contains("See 'notes add --help'."))
        let unknownCommand = try notebook.run(["serach", "x"])
        #expect(unknownCommand.status == 64)
        #expect(unknownCommand.stderr.contains("did you mean 'search'?"))
        #expect(try notebook.run(["show"]).status == 64)
        #expect(try notebook.run(["list", "--since", "someday"]).status == 64)
        #expect(try notebook.run(["list", "--urgency", "9"]).status == 64)
        #expect(try notebook.run(["list", "--tag"]).status == 64)
        #expect(try notebook.run(["search"]).status == 64)
        #expect(try notebook.run(["ask"]).status == 64)
        #expect(try notebook.run(["ask", "  "]).status == 64)
        // Without a question and without a terminal there is no conversation to hold.
        #expect(try notebook.run(["ask", "--continue"]).status == 64)
    }

    /// A checklist line is the most natural note; no option has a space in its name.
    @Test func textThatStartsWithADashIsText() throws {
        let notebook = Notebook()
        let added = try notebook.run(["add", "- [ ] buy milk"])
        #expect(added.status == 0, "\(added.stderr)")
        let shown = try notebook.run(["show", added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(shown.stdout.contains("- [ ] buy milk"))
        #expect(try notebook.run(["add", "--bogus"]).status == 64, "an unknown option is still one")
    }

    /// In a query `-word` leaves out the notes that have the word (documented in its help).
    @Test func searchTakesAnExcludedWord() throws {
        let notebook = Notebook()
        _ = try notebook.add("Buy milk and bread")
        _ = try notebook.add("Buy bread and eggs")
        let result = try notebook.run(["search", "--exact", "bread", "-milk"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("eggs"))
        #expect(!result.stdout.contains("milk"))
        #expect(try notebook.run(["search", "-x", "bread"]).status == 64, "a single letter is an option")
    }

    @Test func askWithoutTheReadingModelSaysWhyAndWritesNothing() throws {
        let notebook = Notebook()
        _ = try notebook.add("Piano lesson moved to 5pm")
        let off = try notebook.run(["ask", "when is the piano lesson?"], environment: ["NOTES_READER_MODEL": "none"])
        #expect(off.status == 1)
        #expect(off.stderr.contains("NOTES_READER_MODEL is none"))
        let missing = try notebook.run(["ask", "--json", "when?"], environment: ["NOTES_READER_MODEL": "/nonexistent/model.gguf"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("model file not found: /nonexistent/model.gguf"))
        #expect(missing.stdout.isEmpty)
    }

    @Test func noColourWithoutATerminal() throws {
        let notebook = Notebook()
        _ = try notebook.add("colourful #tag")
        for arguments in [["list"], ["search", "colourful"], ["show", "--help"], ["tags"], ["add", "--nope"]] {
            let result = try notebook.run(arguments, environment: ["TERM": "xterm-256color"])
            #expect(!result.stdout.contains("\u{1B}["))
            #expect(!result.stderr.contains("\u{1B}["))
        }
    }
}
