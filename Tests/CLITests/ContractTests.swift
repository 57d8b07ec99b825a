// The scripting contract of docs/scripting.md, driven through the real binary.
import Foundation
import Testing

@Suite(.serialized) struct ContractTests {
    @Test func addPrintsTheFullIdAlone() throws {
        let notebook = Notebook()
        let result = try notebook.run(["add", "Call", "the", "dentist", "tomorrow", "#health"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n$", options: .regularExpression) != nil)
        #expect(result.stderr.isEmpty)
    }

    @Test func showJSONHasTheDocumentedShape() throws {
        let notebook = Notebook()
        let id = try notebook.add("Quarterly report\nDraft the numbers #work", ["--tag", "Q4"])
        let result = try notebook.run(["show", String(id.prefix(13)), "--json"])
        #expect(result.status == 0)
        let keys = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(keys == ["id", "title", "body", "tags", "created", "updated", "analysis"])
        let note = try #require(result.json as? [String: Any])
        #expect(note["id"] as? String == id)
        #expect(note["title"] as? String == "Quarterly report")
        #expect(note["body"] as? String == "Quarterly report\nDraft the numbers #work")
        #expect(note["tags"] as? [String] == ["q4", "work"])
        #expect(note["analysis"] is NSNull)
        let created = try #require(note["created"] as? String)
        #expect(created.range(of: "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{3})?Z$", options: .regularExpression) != nil)
    }

    @Test func listAndSearchJSON() throws {
        let notebook = Notebook()
        let dentist = try notebook.add("Dentist appointment on Monday #health")
        _ = try notebook.add("Groceries: milk and eggs")
        let list = try #require(try notebook.run(["list", "--json"]).json as? [[String: Any]])
        #expect(list.count == 2)
        #expect(list.allSatisfy { $0.keys.sorted() == ["analysis", "body", "created", "id", "tags", "title", "updated"] })
        let hits = try #require(try notebook.run(["search", "dentist", "--json"]).json as? [[String: Any]])
        #expect(hits.count == 1)
        #expect(hits[0]["id"] as? String == dentist)
        #expect(hits[0].keys.sorted() == ["id", "match", "score", "snippet", "title"])
        #expect(hits[0]["match"] as? String == "words")
        #expect((hits[0]["snippet"] as? String)?.contains("**Dentist**") == true)
        #expect(try notebook.run(["search", "nothing-like-this", "--json"]).stdout == "[]\n")
        let tagged = try #require(try notebook.run(["list", "--tag", "health", "--json"]).json as? [[String: Any]])
        #expect(tagged.map { $0["id"] as? String } == [dentist])
    }

    @Test func editReplacesAppendsAndKeepsTheId() throws {
        let notebook = Notebook()
        let id = try notebook.add("First line")
        let before = try notebook.noteJSON(id)
        #expect(try notebook.run(["edit", id, "--text", "Replaced title\nnew body #tag"]).status == 0)
        var note = try notebook.noteJSON(id)
        #expect(note["title"] as? String == "Replaced title")
        #expect(note["tags"] as? [String] == ["tag"])
        #expect(note["created"] as? String == before["created"] as? String)
        #expect(try notebook.run(["edit", id, "--append", "one more"]).status == 0)
        note = try notebook.noteJSON(id)
        #expect(note["body"] as? String == "Replaced title\nnew body #tag\none more")
        #expect(try notebook.run(["edit", id, "--text", "-"], stdin: Data("from stdin".utf8)).status == 0)
        #expect(try notebook.noteJSON(id)["body"] as? String == "from stdin")
    }

    @Test func editWithTheEditorUsesEDITOR() throws {
        let notebook = Notebook()
        let id = try notebook.add("before")
        let script = notebook.root + "/fake-editor.sh"
        try "printf 'after the editor\\n' > \"$1\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        // The shell reads the script rather than executing it: a file just written by this
        // process can be "busy" for exec while a parallel test's fork still holds it open.
        let editor = "/bin/sh " + script
        #expect(try notebook.run(["edit", id, "-e"], environment: ["EDITOR": editor]).status == 0)
        #expect(try notebook.noteJSON(id)["body"] as? String == "after the editor")
        let added = try notebook.run(["add", "-e"], environment: ["EDITOR": editor])
        #expect(added.status == 0)
        let failing = try notebook.run(["add", "-e"], environment: ["EDITOR": "false"])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("nothing was saved"))
    }

    @Test func removeNeedsForceWithoutATerminal() throws {
        let notebook = Notebook()
        let id = try notebook.add("to delete")
        let refused = try notebook.run(["rm", id])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("-f"))
        #expect(try notebook.run(["show", id]).status == 0)
        #expect(try notebook.run(["rm", "-f", id]).status == 0)
        let gone = try notebook.run(["show", id])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("no note matches"))
    }

    @Test func exportThenImportIntoAnEmptyNotebookRoundTripsEveryField() throws {
        let source = Notebook()
        _ = try source.add("Plain note #one")
        _ = try source.add("Title: with \"quotes\"\n\n  indented body\r\nwith CRLF ✓ 日本語", ["--tag", "two", "--title", "Custom: title"])
        _ = try source.add("---\nnot front matter\n---", ["--"])
        let exportDirectory = source.root + "/export"
        #expect(try source.run(["export", exportDirectory]).status == 0)
        let target = Notebook()
        let imported = try target.run(["import", exportDirectory, "--json"])
        #expect(imported.status == 0)
        #expect((imported.json as? [String: Any])?["added"] as? Int == 3)
        #expect(try target.run(["list", "--json"]).stdout == (try source.run(["list", "--json"]).stdout))
        // A second import changes nothing.
        #expect((try target.run(["import", exportDirectory, "--json"]).json as? [String: Any])?["unchanged"] as? Int == 3)
    }

    /// An export is a backup: imported into a new notebook it gives back every analysis (with
    /// its stage and due days), done mark, correction and link; exported again into the same
    /// folder after a delete it mirrors the notebook, and keeps a file someone changed.
    @Test(.enabled(if: modelInstalled, "the default model is not installed (scripts/setup.sh installs it)"))
    func anExportRestoresAnalysesCorrectionsDoneMarksAndLinks() throws {
        let source = Notebook()
        let dentist = try source.add("Call the dentist tomorrow and book a check-up #health", ["--title", "Dentist"])
        let plan = try source.add("See [[Dentist]]. Pay the gas bill by Friday", ["--title", "Plan"])
        let greek = try source.add("Φάρμακα: να πάρω τα φάρμακα αύριο και να πληρώσω το νοίκι")
        let gone = try source.add("Water the plants on Sunday")
        #expect(try source.run(["analyze", "--quick"]).status == 0)
        #expect(try source.run(["set", dentist, "--category", "work", "--urgency", "2"]).status == 0)
        #expect(try source.run(["done", plan + ":1"]).status == 0)
        let folder = source.root + "/backup"
        #expect(try source.run(["export", folder]).status == 0)

        let target = Notebook()
        #expect(try target.run(["import", folder]).status == 0)
        for id in [dentist, plan, greek, gone] {
            let before = try source.noteJSON(id), after = try target.noteJSON(id)
            #expect(after["analysis"] is [String: Any])
            #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before), "note \(id)")
            #expect(try target.run(["links", id, "--json"]).stdout == (try source.run(["links", id, "--json"]).stdout))
        }
        let backlinks = try #require(try target.run(["links", dentist, "--json"]).json as? [String: Any])
        #expect("\(backlinks)".contains(plan), "the plan's [[Dentist]] link resolves after the import: \(backlinks)")
        #expect(try target.run(["tasks", "--all", "--json"]).stdout == (try source.run(["tasks", "--all", "--json"]).stdout))
        let corrected = try #require(try target.noteJSON(dentist)["analysis"] as? [String: Any])
        #expect(corrected["category"] as? String == "work" && corrected["urgency"] as? Int == 2)

        // Mirroring: the deleted note's file goes; a file someone edited since stays, named.
        #expect(try source.run(["rm", "-f", gone]).status == 0)
        #expect(try source.run(["rm", "-f", greek]).status == 0)
        let greekFile = folder + "/" + greek + ".md"
        try ((try String(contentsOfFile: greekFile, encoding: .utf8)) + "edited elsewhere\n").write(toFile: greekFile, atomically: true, encoding: .utf8)
        try "mine".write(toFile: folder + "/not-from-notes.md", atomically: true, encoding: .utf8)
        let again = try source.run(["export", folder])
        #expect(again.status == 0)
        #expect(again.stderr.contains("Exported 2 notes") && again.stderr.contains("removed 1 file"), "\(again.stderr)")
        #expect(again.stderr.contains("Kept \(greek).md"), "\(again.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files == [dentist + ".md", greek + ".md", "not-from-notes.md", plan + ".md"].sorted())

        // A file where the folder should be is refused and left as it was.
        let file = source.root + "/a-file"
        try "keep me".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try source.run(["export", file])
        #expect(refused.status == 1 && refused.stderr.contains("is a file, not a folder"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
    }

    @Test func importsPlainMarkdownFromOtherTools() throws {
        let notebook = Notebook()
        let folder = notebook.root + "/vault"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/.git", withIntermediateDirectories: true)
        try "# Heading title\n\nSome text #tagged\n".write(toFile: folder + "/a.md", atomically: true, encoding: .utf8)
        try "a first line is not a title\nsecond\n".write(toFile: folder + "/sub/b.txt", atomically: true, encoding: .utf8)
        try "not a note".write(toFile: folder + "/.git/HEAD.md", atomically: true, encoding: .utf8)
        try Data([0x61, 0xFF, 0x62]).write(to: URL(fileURLWithPath: folder + "/broken.md"))
        let result = try notebook.run(["import", folder])
        #expect(result.status == 0)
        #expect(result.stderr.contains("broken.md"))
        let notes = try #require(try notebook.run(["list", "--json"]).json as? [[String: Any]])
        // Not a vault (no .obsidian, no [[links]]): the first heading, else the file name.
        #expect(Set(notes.compactMap { $0["title"] as? String }) == ["Heading title", "b"])
        #expect(notes.first { $0["title"] as? String == "Heading title" }?["tags"] as? [String] == ["tagged"])
        #expect(try notebook.run(["import", folder]).status == 0)
        #expect((try notebook.run(["list", "--json"]).json as? [Any])?.count == 2)
    }

    @Test func tagsAndStatus() throws {
        let notebook = Notebook()
        _ = try notebook.add("a #x #y")
        _ = try notebook.add("b #x")
        let tags = try #require(try notebook.run(["tags", "--json"]).json as? [[String: Any]])
        #expect(tags.map { $0["tag"] as? String } == ["x", "y"])
        #expect(tags.map { $0["count"] as? Int } == [2, 1])
        let status = try #require(try notebook.run(["status", "--json"]).json as? [String: Any])
        #expect(status["notes"] as? Int == 2)
        #expect(status["home"] as? String == notebook.home)
    }
}
