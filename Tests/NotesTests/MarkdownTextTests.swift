// Links and tags read from Markdown the way Obsidian reads them.
@testable import Notes
import Testing

struct MarkdownTextTests {
    @Test func readsEveryLinkForm() {
        let text = """
            See [[Troubleshoot Obsidian Sync]], [[Sync|shown text]] and [[Sync#Conflict resolution]].
            ![[Embedded note]] and [[Block#^a1b2]] and [[Note.md]] and [[Folder/Deep note]].
            | table | [[Piped\\|cell]] |
            A [Markdown link](Other%20note.md) and [up](../Up/There.md#Part%202) and [t](<With space.md>).
            """
        #expect(NoteLink.inText(text) == [
            NoteLink(target: "Troubleshoot Obsidian Sync"),
            NoteLink(target: "Sync"),
            NoteLink(target: "Sync", heading: "Conflict resolution"),
            NoteLink(target: "Embedded note", embed: true),
            NoteLink(target: "Block", heading: "^a1b2"),
            NoteLink(target: "Note"),
            NoteLink(target: "Folder/Deep note"),
            NoteLink(target: "Piped"),
            NoteLink(target: "Other note", relative: true),
            NoteLink(target: "../Up/There", heading: "Part 2", relative: true),
            NoteLink(target: "With space", relative: true),
        ])
    }

    @Test func leavesOutWhatIsNotALinkToANote() {
        let text = """
            [[#Heading in this note]] ![[diagram.png]] [[report.pdf]] [site](https://example.com/a.md)
            [mail](mailto:me@example.com) [anchor](#section) [image](picture.png) `[[in code]]`
            ```
            [[in a fence]]
            ```
            <!-- [[in a comment]] --> %%[[obsidian comment]]%% [[unclosed
            """
        #expect(NoteLink.inText(text) == [])
    }

    @Test func tagsComeFromProseOnly() {
        let text = """
            Real #tag and (#paren) and [#bracket].
            [[Troubleshoot Obsidian Sync#Conflict resolution]] [[#Open hidden sidebar]] [x](#anchor)
            [#linktext](Note.md) https://example.com/#fragment <span style="color:#fff">#inside</span>
            `#code` <!-- #comment --> %%#hidden%%
            ~~~
            #fenced
            ~~~
            """
        #expect(Tags.inText(text) == ["bracket", "inside", "paren", "tag"])
    }

    @Test func commentsAndFencesSpanLines() {
        #expect(Tags.inText("<!-- start\n#no\nend --> #yes") == ["yes"])
        #expect(Tags.inText("%%\n#no\n%% #yes") == ["yes"])
        #expect(Tags.inText("````\n```\n#no\n````\n#yes") == ["yes"])
        // A fence in a callout, as Obsidian's own help writes CSS.
        #expect(Tags.inText("> [!example] CSS\n> ```css\n>    border-color: #ff0000;\n> ```\n> #yes") == ["yes"])
        #expect(NoteLink.inText("<!--\n[[No]]\n-->\n[[Yes]]") == [NoteLink(target: "Yes")])
    }

    @Test func foldsCaseAccentsAndBlanks() {
        #expect(NoteNames.fold("  Café   Ménu ") == "cafe menu")
        #expect(NoteNames.fold("ÅNGSTRÖM") == "angstrom")
        #expect(NoteNames.fold("日本語") == "日本語")
    }

    @Test func aNoteAnswersToItsTitleAliasesAndEveryTailOfItsPath() {
        #expect(NoteNames.keys(title: "Sync", aliases: ["Obsidian Sync", "sync"], path: "Help/Sync/Troubleshoot") ==
            ["sync", "obsidian sync", "help/sync/troubleshoot", "sync/troubleshoot", "troubleshoot"])
        #expect(NoteNames.keys(title: "Plain", aliases: [], path: nil) == ["plain"])
    }

    @Test func relativeMarkdownLinksAreTakenFromTheLinkingNotesFolder() {
        let link = NoteLink(target: "../Up/There", relative: true)
        #expect(link.lookupKey(sourceFolder: "A/B") == "a/up/there")
        #expect(link.lookupKey(sourceFolder: "") == "up/there")
        #expect(NoteLink(target: "Folder/Note").lookupKey(sourceFolder: "Elsewhere") == "folder/note")
    }

    @Test func ambiguousNamesGoToTheNearestFolder() {
        let candidates: [(id: Int, path: String?)] = [(1, "Work/Meeting"), (2, "Home/Meeting"), (3, "Home/Sub/Meeting"), (4, nil)]
        #expect(NoteNames.nearest(candidates, toFolder: "Home") == 2)
        #expect(NoteNames.nearest(candidates, toFolder: "Home/Sub/Deeper") == 3)
        #expect(NoteNames.nearest(candidates, toFolder: "Work/Projects") == 1)
        #expect(NoteNames.nearest(candidates, toFolder: "") == 4)
        #expect(NoteNames.nearest(candidates, toFolder: "Elsewhere") == 4)
        #expect(NoteNames.nearest([(id: 7, path: "A/X"), (id: 8, path: "B/X")], toFolder: "") == 7)
    }
}

struct NoteImportTests {
    func file(_ path: String, _ text: String) throws -> NoteImport.File {
        NoteImport.File(relativePath: path, document: try NoteDocument.parse(text), modified: Timestamp(milliseconds: 1_764_000_000_000))
    }

    @Test func titlesFollowTheVaultsRules() throws {
        let release = try file("Releases/Obsidian 1.1.md", "<small>Released December 14, 2022</small>\n\n# Highlights\nText")
        #expect(try NoteImport.note(from: release, inVault: true).note.title == "Obsidian 1.1")
        #expect(try NoteImport.note(from: release, inVault: false).note.title == "Highlights")
        let bare = try file("Releases/Obsidian 1.0.md", "<small>Released October 13, 2022</small>\n\nText")
        #expect(try NoteImport.note(from: bare, inVault: false).note.title == "Obsidian 1.0")
        let headed = try file("notes/a.md", "intro line\n\n# The <em>real</em> title #tag\nbody")
        #expect(try NoteImport.note(from: headed, inVault: false).note.title == "The real title")
        #expect(try NoteImport.note(from: headed, inVault: true).note.title == "a")
        let titled = try file("x.md", "---\ntitle: From front matter\naliases:\n  - Other name\n  - \"Smith, John\"\n---\n# Heading\n")
        let imported = try NoteImport.note(from: titled, inVault: true)
        #expect(imported.note.title == "From front matter")
        #expect(imported.aliases == ["Other name", "Smith, John"])
        #expect(imported.path == "x")
        #expect(try NoteImport.note(from: try file("code.md", "```\n# not a heading\n```\n"), inVault: false).note.title == "code")
    }

    @Test func aVaultIsAnObsidianFolderOrNotesWithWikilinks() throws {
        let plain = try file("a.md", "# A\n[md link](b.md)")
        let linked = try file("b.md", "see [[a]]")
        #expect(!NoteImport.isVault([plain], hasObsidianFolder: false))
        #expect(NoteImport.isVault([plain], hasObsidianFolder: true))
        #expect(NoteImport.isVault([plain, linked], hasObsidianFolder: false))
    }

    @Test func aliasesRoundTripThroughTheExportFormat() throws {
        let note = Note(id: NoteID("0193f2a1-8b2c-7d3e-9f40-123456789abc")!, title: "T", body: "b", tags: [],
                        created: Timestamp(milliseconds: 0), updated: Timestamp(milliseconds: 0))
        let text = NoteDocument.render(note, aliases: ["Smith, John", "say \"hi\""])
        #expect(try NoteDocument.parse(text).aliases == ["Smith, John", "say \"hi\""])
        #expect(!NoteDocument.render(note).contains("aliases"))
    }
}
