// The Markdown file format: our own files round-trip exactly, other tools' files import sensibly.
@testable import Notes
import Testing

struct NoteDocumentTests {
    func sample(body: String, title: String = "A \"quoted\" title: with colon\tand tab") -> Note {
        Note(id: NoteID("0193f2a1-8b2c-7d3e-9f40-123456789abc")!, title: title, body: body, tags: ["health", "projects/notes"],
             created: Timestamp(milliseconds: 1_764_423_273_123), updated: Timestamp(milliseconds: 1_764_423_999_000))
    }

    @Test(arguments: ["plain body", "", "---\nlooks like front matter\n---", "ends with\n", "crlf\r\nbody", "ünïcödé ✓ 日本語", "trailing spaces   "])
    func roundTripsEveryField(body: String) throws {
        let note = sample(body: body)
        let text = NoteDocument.render(note)
        #expect(text.hasSuffix("\n"))
        let parsed = try NoteDocument.parse(text)
        #expect(parsed.id == note.id)
        #expect(parsed.title == note.title)
        #expect(parsed.tags == note.tags)
        #expect(parsed.created == note.created)
        #expect(parsed.updated == note.updated)
        #expect(parsed.body == body)
    }

    @Test func titlesWithLineBreaksAndBackslashesSurvive() throws {
        let note = sample(body: "x", title: "line\nbreak \\ back\\slash \u{1}")
        #expect(try NoteDocument.parse(NoteDocument.render(note)).title == note.title)
    }

    @Test func plainMarkdownHasNoMetadata() throws {
        let parsed = try NoteDocument.parse("# Heading\n\nText\n")
        #expect(parsed.id == nil)
        #expect(parsed.title == nil)
        #expect(parsed.body == "# Heading\n\nText")
    }

    @Test func readsObsidianStyleFrontMatter() throws {
        let parsed = try NoteDocument.parse("---\naliases: [x]\ntags:\n  - one\n  - two\ndate: 2026-01-02\n---\nBody\n")
        #expect(parsed.tags == ["one", "two"])
        #expect(parsed.created == Timestamp(iso8601: "2026-01-02"))
        #expect(parsed.body == "Body")
    }

    @Test func reportsBrokenFrontMatter() {
        #expect(throws: NoteDocument.ParseError.unterminatedFrontMatter) { try NoteDocument.parse("---\ntitle: x\nno end") }
        #expect(throws: NoteDocument.ParseError.self) { try NoteDocument.parse("---\nid: not-an-id\n---\n") }
        #expect(throws: NoteDocument.ParseError.self) { try NoteDocument.parse("---\ncreated: someday\n---\n") }
    }

    /// What an export adds: the analysis (every field, done marks, due days, the stage) and the
    /// corrections come back as they were, as YAML that other tools can read past.
    @Test(arguments: [
        Analysis(category: .health, urgency: 4, tasks: [TaskItem(text: "call the \"dentist\": today", done: true, due: "2026-12-04"),
                                                       TaskItem(text: "να πάρω φάρμακα")],
                 summary: "Dentist\nand pharmacy", model: "qwen2.5-coder-1.5b", analyzedAt: Timestamp(milliseconds: 1_764_423_302_000),
                 analyzerVersion: "r7/5b2f", contentHash: "5f1c0000aaaa1111", stage: .quick),
        Analysis(category: .other, urgency: 1, tasks: [], summary: "", model: "", analyzedAt: Timestamp(milliseconds: 0),
                 analyzerVersion: "v", contentHash: "00", stage: .full),
    ])
    func anAnalysisAndCorrectionsRoundTrip(analysis: Analysis) throws {
        let corrections = Corrections(category: .work, urgency: 2)
        let text = NoteDocument.render(sample(body: "body\n  indented: line"), aliases: ["Doc"], analysis: analysis, corrections: corrections)
        let parsed = try NoteDocument.parse(text)
        #expect(parsed.analysis == analysis)
        #expect(parsed.corrections == corrections)
        #expect(parsed.title == sample(body: "").title && parsed.aliases == ["Doc"] && parsed.body == "body\n  indented: line")
        #expect(try NoteDocument.parse(NoteDocument.render(sample(body: "b"))).analysis == nil)
        #expect(try NoteDocument.parse(NoteDocument.render(sample(body: "b"), analysis: analysis)).corrections == .none)
    }

    /// A block that is not a whole analysis is dropped (it is recomputed), and nested values
    /// from other tools never stand in for our keys.
    @Test func aBrokenAnalysisBlockAndOtherToolsNestedKeysAreReadPast() throws {
        let broken = try NoteDocument.parse("---\ntitle: T\nnotes-analysis:\n  category: nonsense\n  urgency: 9\n---\nBody\n")
        #expect(broken.analysis == nil && broken.title == "T" && broken.body == "Body")
        let nested = try NoteDocument.parse("---\ntitle: Mine\nsomething:\n  title: theirs\n  created: never\n---\nBody\n")
        #expect(nested.title == "Mine" && nested.created == nil)
        let corrections = try NoteDocument.parse("---\nnotes-corrections:\n  category: work\n  urgency: 7\n---\nx\n").corrections
        #expect(corrections == Corrections(category: .work))
    }
}
