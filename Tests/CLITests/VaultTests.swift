// An Obsidian-style vault imported through the binary: titles, tags and links checked one by
// one, then links through renames, deletions, search and an export that keeps the file names.
import Foundation
import Testing

@Suite(.serialized) struct VaultTests {
    /// Nested folders, aliases, headings, an embed, Markdown links, a name used in two folders,
    /// and an attachment.
    static let files: [String: String] = [
        "Home.md": """
            ---
            aliases: [Start, "Welcome page"]
            tags: [index]
            ---
            # Welcome
            Start with [[Getting started]] and [[Sync/Troubleshoot Obsidian Sync#Conflict resolution|conflicts]].
            ![[Banner.png]]
            #vault
            """,
        "Getting started.md": """
            <small>Released December 14, 2022</small>

            This page lists uncommon issues you may encounter. See [[#Open hidden sidebar]] and
            [[Troubleshoot Obsidian Sync#Conflict resolution]]. `#notatag` and #real-tag
            """,
        "Sync/Troubleshoot Obsidian Sync.md": """
            ---
            aliases:
              - Sync problems
            permalink: sync/troubleshoot
            ---
            # Troubleshoot
            Back to [Home](../Home.md). Embedded: ![[Getting started]]. https://example.com/#anchor
            """,
        "Sync/Meeting.md": "Sync meeting notes. Last time: [[Meeting]].",
        "Work/Meeting.md": "Work meeting. See [[meeting]], [[Sync problems]] and [[Missing note]].",
        "Work/Projects/Plan.md": "[[Meeting]] then [the menu](../../Caf%C3%A9%20menu.md) and [[HOME]]",
        "Café menu.md": "Espresso #drinks",
    ]

    func makeVault(in notebook: Notebook) throws -> String {
        let vault = notebook.root + "/vault"
        for (path, text) in VaultTests.files {
            let file = vault + "/" + path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (text + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: vault + "/.obsidian", withIntermediateDirectories: true)
        try "{}".write(toFile: vault + "/.obsidian/app.json", atomically: true, encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00]).write(to: URL(fileURLWithPath: vault + "/Banner.png"))
        return vault
    }

    /// Each note's id by "folder/title" (the folder tells the two Meetings apart).
    func ids(_ notebook: Notebook) throws -> [String: String] {
        let notes = try #require(try notebook.run(["list", "--json"]).json as? [[String: Any]])
        var ids: [String: String] = [:]
        for note in notes {
            let title = note["title"] as? String ?? ""
            let body = note["body"] as? String ?? ""
            let key = title == "Meeting" ? (body.hasPrefix("Work") ? "Work/Meeting" : "Sync/Meeting") : title
            ids[key] = note["id"] as? String
        }
        return ids
    }

    func links(_ notebook: Notebook, _ id: String) throws -> (links: [[String: Any]], backlinks: [[String: Any]]) {
        let result = try notebook.run(["links", id, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(result.json as? [String: Any])
        return (object["links"] as? [[String: Any]] ?? [], object["backlinks"] as? [[String: Any]] ?? [])
    }

    /// "target -> id" for each link, "nil" when broken.
    func describe(_ links: [[String: Any]]) -> [String] {
        links.map { "\($0["target"] as? String ?? "")\(($0["heading"] as? String).map { "#" + $0 } ?? "")\($0["embed"] as? Bool == true ? " (embed)" : "")\($0["markdown"] as? Bool == true ? " (md)" : "") -> \($0["id"] as? String ?? "nil")" }
    }

    @Test func importsTitlesTagsAndLinksAsObsidianReadsThem() throws {
        let notebook = Notebook()
        let vault = try makeVault(in: notebook)
        let imported = try notebook.run(["import", vault, "--json"])
        #expect(imported.status == 0)
        let summary = try #require(imported.json as? [String: Any])
        #expect(summary["added"] as? Int == 7)
        #expect(summary["other_files"] as? Int == 1)
        #expect((summary["skipped"] as? [Any])?.isEmpty == true)
        #expect(try notebook.run(["import", vault]).stderr.contains("1 other file (not Markdown or text) left out"))

        let notes = try #require(try notebook.run(["list", "--json"]).json as? [[String: Any]])
        var tags: [String: [String]] = [:]
        for note in notes { tags[note["title"] as? String ?? "", default: []] += note["tags"] as? [String] ?? [] }
        #expect(tags == [
            "Home": ["index", "vault"], "Getting started": ["real-tag"], "Troubleshoot Obsidian Sync": [],
            "Meeting": [], "Plan": [], "Café menu": ["drinks"],
        ])
        let id = try ids(notebook)
        #expect(id.count == 7)
        let home = id["Home"]!, started = id["Getting started"]!, sync = id["Troubleshoot Obsidian Sync"]!
        let work = id["Work/Meeting"]!, syncMeeting = id["Sync/Meeting"]!, plan = id["Plan"]!, menu = id["Café menu"]!

        #expect(describe(try links(notebook, home).links) == [
            "Getting started -> \(started)", "Sync/Troubleshoot Obsidian Sync#Conflict resolution -> \(sync)",
        ])
        #expect(describe(try links(notebook, started).links) == ["Troubleshoot Obsidian Sync#Conflict resolution -> \(sync)"])
        #expect(describe(try links(notebook, sync).links) == ["../Home (md) -> \(home)", "Getting started (embed) -> \(started)"])
        #expect(describe(try links(notebook, syncMeeting).links) == ["Meeting -> \(syncMeeting)"])
        #expect(describe(try links(notebook, work).links) == ["meeting -> \(work)", "Sync problems -> \(sync)", "Missing note -> nil"])
        #expect(describe(try links(notebook, plan).links) == ["Meeting -> \(work)", "../../Café menu (md) -> \(menu)", "HOME -> \(home)"])
        #expect(Set(try links(notebook, sync).backlinks.compactMap { $0["id"] as? String }) == [home, started, work])

        let broken = try #require(try notebook.run(["links", "--broken", "--json"]).json as? [[String: Any]])
        #expect(broken.map { $0["target"] as? String } == ["Missing note"])
        #expect(broken.map { $0["id"] as? String } == [work])

        let shown = try notebook.run(["show", sync]).stdout
        #expect(shown.contains("Links (2)") && shown.contains("Backlinks (3)"))
        #expect(shown.contains("Back to [Home](../Home.md)") && shown.contains("  → ![[Getting started]]  "))
        #expect(shown.split(separator: "\n").suffix(3).allSatisfy { $0.hasPrefix("  ← ") })
        let searched = try #require(try notebook.run(["search", "links:\(sync)", "--json"]).json as? [[String: Any]])
        #expect(Set(searched.compactMap { $0["id"] as? String }) == [home, started, work])
    }

    @Test func linksSurviveARenameAndBreakWhenTheirNoteIsRemoved() throws {
        let notebook = Notebook()
        _ = try notebook.run(["import", try makeVault(in: notebook)])
        let id = try ids(notebook)
        let home = id["Home"]!, sync = id["Troubleshoot Obsidian Sync"]!, plan = id["Plan"]!
        #expect(try notebook.run(["edit", sync, "--title", "Sync troubleshooting"]).status == 0)
        #expect(describe(try links(notebook, home).links).last == "Sync/Troubleshoot Obsidian Sync#Conflict resolution -> \(sync)")
        // A new link by the new title finds it too.
        let added = try notebook.add("New note [[sync troubleshooting]]")
        #expect(describe(try links(notebook, added).links) == ["sync troubleshooting -> \(sync)"])

        let removed = try notebook.run(["rm", "-f", id["Café menu"]!])
        #expect(removed.status == 0 && removed.stderr.contains("Links from 1 note are broken now"))
        let status = try #require(try notebook.run(["status", "--json"]).json as? [String: Any])
        #expect(status["links"] as? Int == 13 && status["broken_links"] as? Int == 2)
        #expect(describe(try links(notebook, plan).links)[1] == "../../Café menu (md) -> nil")
        let broken = try #require(try notebook.run(["links", "--broken", "--json"]).json as? [[String: Any]])
        #expect(Set(broken.compactMap { $0["target"] as? String }) == ["Missing note", "../../Café menu"])
        let text = try notebook.run(["links", "--broken"])
        #expect(text.status == 0 && text.stdout.contains("[…](../../Café menu.md)"))
    }

    @Test func exportWritesTheVaultsFileNamesBackAndReimportsTheSame() throws {
        let notebook = Notebook()
        _ = try notebook.run(["import", try makeVault(in: notebook)])
        _ = try notebook.add("Added here [[Home]]")
        let export = notebook.root + "/export"
        #expect(try notebook.run(["export", export]).status == 0)
        let written = try FileManager.default.subpathsOfDirectory(atPath: export).filter { $0.hasSuffix(".md") }
        let expected = VaultTests.files.keys.sorted()
        #expect(written.filter { !$0.hasPrefix("0") }.sorted() == expected)
        #expect(written.count == expected.count + 1)
        let home = try String(contentsOfFile: export + "/Home.md", encoding: .utf8)
        #expect(home.contains("aliases: [\"Start\", \"Welcome page\"]\n"))
        #expect(home.contains("title: \"Home\"\n"))

        let again = Notebook()
        let result = try again.run(["import", export, "--json"])
        #expect((result.json as? [String: Any])?["added"] as? Int == 8)
        #expect(try again.run(["list", "--json"]).stdout == (try notebook.run(["list", "--json"]).stdout))
        let id = try ids(again)
        #expect(describe(try links(again, id["Plan"]!).links) == [
            "Meeting -> \(id["Work/Meeting"]!)", "../../Café menu (md) -> \(id["Café menu"]!)", "HOME -> \(id["Home"]!)",
        ])
        #expect(describe(try links(again, id["Work/Meeting"]!).links)[1] == "Sync problems -> \(id["Troubleshoot Obsidian Sync"]!)")
    }

    @Test func linksTravelAsTextAndANoteDeletedElsewhereLeavesThemBroken() throws {
        let first = Notebook(), second = Notebook()
        let remote = try SyncCLITests().bareRepository(in: first)
        for notebook in [first, second] { #expect(try notebook.run(["remote", "add", "origin", remote]).status == 0) }
        let target = try first.add("Dentist\nDr. Okafor, Tuesday")
        let source = try first.add("Health plan\nsee [[dentist]]")
        for _ in 0..<2 { _ = try first.add("Filler note so that one deletion is not a quarter") }
        #expect(try first.run(["sync"]).status == 0)
        #expect(try second.run(["sync"]).status == 0)
        #expect(describe(try links(second, source).links) == ["dentist -> \(target)"])
        #expect(try first.run(["rm", "-f", target]).status == 0)
        #expect(try first.run(["sync"]).status == 0)
        let synced = try second.run(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(describe(try links(second, source).links) == ["dentist -> nil"])
        #expect(try second.run(["show", source]).stdout.contains("broken"))
        // In the repository the link is the note's text, in the format as it was.
        let git = Process(), output = Pipe()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["--git-dir", remote, "show", "main:notes/\(source).md"]
        git.standardOutput = output
        try git.run()
        let repositoryFile = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        #expect(repositoryFile.hasPrefix("---\nid: \(source)\ntitle: \"Health plan\"\ntags: []\ncreated: "))
        #expect(repositoryFile.hasSuffix("---\nHealth plan\nsee [[dentist]]\n"))
    }

    @Test func aSingleFileIsNamedByItsFileName() throws {
        let notebook = Notebook()
        let folder = notebook.root + "/somewhere/deep"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "A plain first line\n\nno heading\n".write(toFile: folder + "/My note.txt", atomically: true, encoding: .utf8)
        #expect(try notebook.run(["import", folder + "/My note.txt"]).status == 0)
        let notes = try #require(try notebook.run(["list", "--json"]).json as? [[String: Any]])
        #expect(notes.map { $0["title"] as? String } == ["My note"])
        let linking = try notebook.add("Points at [[my note]]")
        #expect(describe(try links(notebook, linking).links) == ["my note -> \(notes[0]["id"] as? String ?? "")"])
        let export = notebook.root + "/export"
        #expect(try notebook.run(["export", export]).status == 0)
        #expect(FileManager.default.fileExists(atPath: export + "/My note.md"))
    }

    @Test func linksCommandUsage() throws {
        let notebook = Notebook()
        #expect(try notebook.run(["links"]).status == 64)
        #expect(try notebook.run(["links", "--broken", "abc1"]).status == 64)
        let missing = try notebook.run(["links", "ffff1234"])
        #expect(missing.status == 1 && missing.stderr.contains("no note matches"))
        #expect(try notebook.run(["links", "--broken"]).stderr.contains("No broken links."))
    }
}
