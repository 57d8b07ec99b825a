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
}
