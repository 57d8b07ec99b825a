// Titles, tags and the strict decoding of typed input.
@testable import Notes
import Testing

struct NoteTextTests {
    @Test func titleIsTheFirstLineWithoutHeadingMarksOrTrailingTags() {
        #expect(NoteText.title(from: "\n\n  # Shopping list  \nmilk") == "Shopping list")
        #expect(NoteText.title(from: "Call the dentist tomorrow #health #home") == "Call the dentist tomorrow")
        #expect(NoteText.title(from: "#work #q4") == "#work #q4")
        #expect(NoteText.title(from: "#hashtag-first line") == "#hashtag-first line")
        #expect(NoteText.title(from: "") == "")
        let long = String(repeating: "word ", count: 60)
        #expect(NoteText.title(from: long).count <= NoteText.maximumTitleLength + 1)
        #expect(NoteText.title(from: long).hasSuffix("…"))
    }

    @Test func tagsInTextSkipHeadingsCodeAndNumbers() {
        #expect(Tags.inText("Call #Dentist (#health) about #123 and C# code, [#home]") == ["dentist", "health", "home"])
        #expect(Tags.inText("# Heading\n## Sub") == [])
        #expect(Tags.inText("use `#notatag` here #real") == ["real"])
        #expect(Tags.inText("```\n#include <stdio.h>\n```\n#after") == ["after"])
        #expect(Tags.inText("#projects/notes-app, #wip-") == ["projects/notes-app", "wip"])
        #expect(Tags.inText("#café #日本") == ["café", "日本"])
    }

    @Test func tagsAreNormalised() {
        #expect(Tags.normalized(["Work", "#work", " home ", "", "#", "bad tag"]) == ["home", "work"])
    }

    @Test func strictDecodingRefusesNulAndInvalidUTF8WithOffsets() throws {
        #expect(throws: NoteInputError.nulByte(offset: 2)) { try NoteInput.decode([0x61, 0x62, 0x00, 0x63]) }
        #expect(throws: NoteInputError.invalidUTF8(offset: 3)) { try NoteInput.decode([0x61, 0x62, 0x63, 0xFF, 0x64]) }
        #expect(throws: NoteInputError.invalidUTF8(offset: 1)) { try NoteInput.decode([0x61, 0xE2, 0x82]) }
        #expect(try NoteInput.decode(Array("héllo ✓ 日本".utf8)) == "héllo ✓ 日本")
    }

    @Test func emptyNotesAreRefused() throws {
        let now = Timestamp(milliseconds: 1)
        #expect(throws: NoteInputError.empty) { try NoteInput.makeNote(text: " \n\t ", title: nil, extraTags: [], at: now) }
        #expect(throws: NoteInputError.empty) { try NoteInput.makeNote(text: "", title: "  ", extraTags: [], at: now) }
        #expect(try NoteInput.makeNote(text: "", title: "Only a title", extraTags: [], at: now).title == "Only a title")
    }

    @Test func bodiesLoseOnlyTrailingBlankSpace() throws {
        let note = try NoteInput.makeNote(text: "  indented\r\nline\n\n\n", title: nil, extraTags: ["x"], at: Timestamp(milliseconds: 1))
        #expect(note.body == "  indented\r\nline")
        #expect(note.tags == ["x"])
    }
}

struct QuotedStringTests {
    @Test func escapesWhatJSONAndYAMLNeedAndCopiesTheRest() {
        #expect(QuotedString.quoted("") == "\"\"")
        #expect(QuotedString.quoted("plain café ✓") == "\"plain café ✓\"")
        #expect(QuotedString.quoted("a \"b\" \\ c\nd\re\tf") == #""a \"b\" \\ c\nd\re\tf""#)
        #expect(QuotedString.quoted("\u{0}\u{1F}\u{7F}x\u{2028}y\u{2029}") == #""\u0000\u001f\u007fx\u2028y\u2029""#)
        // U+2027 and U+202A share the first two bytes of the separators and stay as they are.
        #expect(QuotedString.quoted("\u{2027}\u{202A}€") == "\"\u{2027}\u{202A}€\"")
        for text in ["line one\nline \"two\"", "tab\there \u{2028} end", "\\\\"] {
            #expect(QuotedString.unquoted(QuotedString.quoted(text)) == text)
        }
    }
}
