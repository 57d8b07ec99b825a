// The note page's Markdown: what it renders, and that nothing in a note becomes markup or a
// script link on the page.
import Foundation
import Testing
@testable import Notebook
import Notes

struct MarkdownHTMLTests {
    let markdown = MarkdownHTML()

    @Test func headingsOfEachLevelNeedASpaceAfterTheHashes() {
        #expect(markdown.render("# One") == "<h1>One</h1>")
        #expect(markdown.render("###### Six ##") == "<h6>Six</h6>")
        #expect(markdown.render("## C#") == "<h2>C#</h2>")
        #expect(markdown.render("#tag and text") == "<p>#tag and text</p>")
        #expect(markdown.render("####### seven") == "<p>####### seven</p>")
    }

    @Test func paragraphsAreSeparatedByBlankLines() {
        #expect(markdown.render("one\ntwo\n\nthree") == "<p>one\ntwo</p>\n<p>three</p>")
        #expect(markdown.render("one\r\ntwo\r\n\r\nthree\r\n") == "<p>one\ntwo</p>\n<p>three</p>")
    }

    @Test func emptyInputGivesNothing() {
        #expect(markdown.render("") == "")
        #expect(markdown.render("\n\n  \n") == "")
    }

    @Test func listsNestDeeperIndentedItems() {
        let html = markdown.render("- a\n  - b\n    1. c\n  - d\n- e")
        #expect(html == "<ul><li>a<ul><li>b<ol><li>c</li></ol></li><li>d</li></ul></li><li>e</li></ul>")
        #expect(markdown.render("3. three\n4) four") == "<ol start=\"3\"><li>three</li><li>four</li></ol>")
        #expect(markdown.render("* x\n+ y\n  more") == "<ul><li>x</li><li>y\nmore</li></ul>")
    }

    @Test func checklistItemsAreNumberedAcrossListsButNotInCode() {
        let numbered = MarkdownHTML(checkbox: { index, done in "[\(index)\(done ? "x" : "")]" })
        let html = numbered.render("- [ ] one\n* [x] two\n\ntext\n\n```\n- [ ] not an item\n```\n+ [X] three\n  - [ ] four")
        #expect(html.contains("<ul class=\"checklist\"><li class=\"task\">[0] one</li><li class=\"task\">[1x] two</li></ul>"))
        #expect(html.contains("<pre><code>- [ ] not an item</code></pre>"))
        #expect(html.contains("<li class=\"task\">[2x] three<ul class=\"checklist\"><li class=\"task\">[3] four</li></ul></li>"))
        #expect(!html.contains("[4"))
    }

    @Test func defaultCheckboxesAreDisabled() {
        #expect(markdown.render("- [ ] a\n- [x] b") == "<ul class=\"checklist\"><li class=\"task\"><input type=\"checkbox\" disabled> a</li>"
            + "<li class=\"task\"><input type=\"checkbox\" disabled checked> b</li></ul>")
    }

    @Test func fencedCodeIsVerbatimAndEscaped() {
        #expect(markdown.render("```swift\nlet a = *b* < c\n\n**x**\n```") == "<pre><code class=\"language-swift\">let a = *b* &lt; c\n\n**x**</code></pre>")
        #expect(markdown.render("~~~ c++ {x}\na\n~~~\nafter") == "<pre><code class=\"language-c++\">a</code></pre>\n<p>after</p>")
        #expect(markdown.render("```\"><script>\nopen to the end") == "<pre><code>open to the end</code></pre>")
    }

    @Test func quotesAndRules() {
        #expect(markdown.render("> one\n> **two**\n\n---\n***\n___") == "<blockquote>one\n<strong>two</strong></blockquote>\n<hr>\n<hr>\n<hr>")
        #expect(markdown.render("- - -\n- a --") == "<hr>\n<ul><li>a --</li></ul>")
    }

    @Test func inlineMarkup() {
        #expect(markdown.render("**bold** and *em* and _em_ and `*code*`") == "<p><strong>bold</strong> and <em>em</em> and <em>em</em> and <code>*code*</code></p>")
        #expect(markdown.render("***both***") == "<p><em><strong>both</strong></em></p>")
        #expect(markdown.render("**a *b* c**") == "<p><strong>a <em>b</em> c</strong></p>")
    }

    @Test func snakeCaseIsNotEmphasis() {
        #expect(markdown.render("snake_case_name and __init__ is_ok_") == "<p>snake_case_name and <strong>init</strong> is_ok_</p>")
    }

    @Test func unmatchedMarkersStayLiteral() {
        #expect(markdown.render("2 * 3 * 4, **open, `tick, [a](b, [[x, a], ]]") == "<p>2 * 3 * 4, **open, `tick, [a](b, [[x, a], ]]</p>")
    }

    @Test func scriptsAreEscapedEverywhere() {
        let script = "<script>alert(1)</script>"
        for note in [script, "# \(script)", "- \(script)", "- [ ] \(script)", "1. \(script)", "> \(script)", "`\(script)`",
                     "```\n\(script)\n```", "[\(script)](https://x.org)", "[\(script)](javascript:x)", "**\(script)**",
                     "[[\(script)]]", "[[a|\(script)]]", "https://x.org/\(script)"] {
            let html = markdown.render(note)
            #expect(!html.contains("<script"), "\(note) gave \(html)")
            #expect(html.contains("&lt;script&gt;"), "\(note) gave \(html)")
        }
    }

    @Test func scriptLinksAreNotLinks() {
        for note in ["[x](javascript:alert(1))", "[x](JavaScript:alert(1))", "[x]( javascript:alert(1))", "[x](data:text/html,<b>hi</b>)",
                     "[x](vbscript:msgbox)", "[x](java\tscript:alert(1))", "[x](\u{1}javascript:alert(1))", "[x](file:///etc/passwd)"] {
            let html = markdown.render(note)
            #expect(!html.contains("<a"), "\(note) gave \(html)")
            #expect(html.hasPrefix("<p>x"), "\(note) gave \(html)")
        }
    }

    @Test func allowedLinks() {
        #expect(markdown.render("[site](https://example.org/a?b=1&c=2)") == "<p><a href=\"https://example.org/a?b=1&amp;c=2\" rel=\"noopener noreferrer\" target=\"_blank\">site</a></p>")
        #expect(markdown.render("[me](mailto:me@example.org)") == "<p><a href=\"mailto:me@example.org\" rel=\"noopener noreferrer\">me</a></p>")
        #expect(markdown.render("[up](../other.md) [top](#top)") == "<p><a href=\"../other.md\" rel=\"noopener noreferrer\">up</a> <a href=\"#top\" rel=\"noopener noreferrer\">top</a></p>")
        #expect(markdown.render("[**b**](/x \"title\")") == "<p><a href=\"/x\" rel=\"noopener noreferrer\"><strong>b</strong></a></p>")
        #expect(markdown.render("[Swift](https://en.wikipedia.org/wiki/Swift_(language)).")
            == "<p><a href=\"https://en.wikipedia.org/wiki/Swift_(language)\" rel=\"noopener noreferrer\" target=\"_blank\">Swift</a>.</p>")
        #expect(markdown.render("[x](javascript:alert(1)) after") == "<p>x after</p>")
    }

    @Test func aQuoteInALinkCannotLeaveTheAttribute() {
        let html = markdown.render("[x](https://a.org/\"onmouseover=\"alert(1)) and [y](/'x')")
        #expect(html.contains("href=\"https://a.org/&quot;onmouseover=&quot;alert(1)\" rel="))
        #expect(html.contains("href=\"/&#39;x&#39;\""))
        #expect(!html.contains("\"onmouseover"))
    }

    @Test func bareURLsAreLinkedWithoutTrailingPunctuation() {
        #expect(markdown.render("see https://example.org/a_b_c, or (http://x.org/p).") == "<p>see <a href=\"https://example.org/a_b_c\" rel=\"noopener noreferrer\" target=\"_blank\">https://example.org/a_b_c</a>, "
            + "or (<a href=\"http://x.org/p\" rel=\"noopener noreferrer\" target=\"_blank\">http://x.org/p</a>).</p>")
        #expect(markdown.render("nohttp://x and https:// alone") == "<p>nohttp://x and https:// alone</p>")
        #expect(markdown.render("[https://x.org](https://x.org)").components(separatedBy: "<a").count == 2)
        #expect(markdown.render("[**https://x.org**](https://x.org)").components(separatedBy: "<a").count == 2)
        #expect(markdown.render("[*https://x.org*](/y)").components(separatedBy: "<a").count == 2)
    }

    @Test func wikiLinksResolvedAndBroken() {
        let linked = MarkdownHTML(wikiLink: { $0.hasPrefix("Known") ? "/note/\($0.count)" : nil })
        #expect(linked.render("[[Known]] and [[Known#part|that part]] and [[Missing|gone]] and [[Lost]]")
            == "<p><a class=\"wikilink\" href=\"/note/5\">Known</a> and <a class=\"wikilink\" href=\"/note/10\">that part</a> and "
            + "<span class=\"broken\">gone</span> and <span class=\"broken\">Lost</span></p>")
        let hostile = MarkdownHTML(wikiLink: { _ in "javascript:alert(1)" })
        #expect(hostile.render("[[a]]") == "<p><span class=\"broken\">a</span></p>")
    }

    @Test func greekAndEmojiStayIntact() {
        #expect(markdown.render("# Ψώνια\n- [ ] γάλα") == "<h1>Ψώνια</h1>\n<ul class=\"checklist\"><li class=\"task\"><input type=\"checkbox\" disabled> γάλα</li></ul>")
        #expect(markdown.render("_καλημέρα_ 🎉*ok*🎉") == "<p><em>καλημέρα</em> 🎉<em>ok</em>🎉</p>")
    }

    @Test func hostileInputsRenderQuickly() {
        let start = Date()
        let long = String(repeating: "word *a_b [x](y `zz ", count: 5_000)
        #expect(long.count == 100_000)
        #expect(markdown.render(long).hasPrefix("<p>word"))
        #expect(markdown.render(String(repeating: "[", count: 5_000)) == "<p>" + String(repeating: "[", count: 5_000) + "</p>")
        #expect(markdown.render(String(repeating: "[[a](", count: 20_000)).count > 100_000)
        #expect(markdown.render("x" + String(repeating: "*", count: 100_000)).count == 100_008)
        #expect(markdown.render(String(repeating: "[a](( ", count: 20_000)).hasPrefix("<p>[a]"))
        let deep = (0..<500).map { String(repeating: " ", count: $0 * 2) + "- item" }.joined(separator: "\n")
        #expect(markdown.render(deep).components(separatedBy: "<ul>").count == 501)
        for odd in ["`", "``", "]", "[]", "[](", "[[]]", "[[|]]", "**", "_", "- ", "#", "> ", "1.", "```", String(repeating: " ", count: 10_000) + "x"] {
            _ = markdown.render(odd)
        }
        #expect(Date().timeIntervalSince(start) < 10)
    }
}
