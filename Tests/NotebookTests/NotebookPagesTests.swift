// `notes serve`'s pages in-process, request by request: who may see and change the notebook
// (token, cookie, Host, origin, CSRF value), the pages, ticking a task in the note's text, an
// edit that would overwrite a change made elsewhere, and bad input answered with a status.
import AI
import Foundation
import Notes
import Testing
import TestSupport
@testable import Notebook

struct NotebookPagesTests {
    let directory = TemporaryDirectory()
    let notebook: LocalNotebook
    let access = PageAccess(port: 8765, token: "t0ken", csrf: "csrf-value")
    let pages: NotebookPages
    static let now = Timestamp(iso8601: "2026-12-03T09:00:00Z")!

    init() throws {
        let home = NotebookHome(path: directory.path)
        notebook = try LocalNotebook.open(home)
        pages = NotebookPages(notebook: notebook, home: home, embedder: nil, access: access, clock: { Self.now })
    }

    @discardableResult
    func add(_ text: String, minute: Int64 = 0, tasks: [TaskItem]? = nil) throws -> Note {
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(milliseconds: Self.now.milliseconds - 3_600_000 + minute * 60_000))
        try notebook.store.insert(note)
        if let tasks {
            let analysis = Analysis(category: .personal, urgency: 3, tasks: tasks, summary: "summary of " + note.title, model: "m",
                                    analyzedAt: Self.now, analyzerVersion: "v", contentHash: note.contentHash)
            #expect(try notebook.store.saveAnalysis(analysis, for: note.id))
        }
        return note
    }

    /// A request from the browser that opened the printed address.
    func get(_ path: String, _ arguments: [String: String] = [:], cookie: Bool = true, host: String = "127.0.0.1:8765") -> HTTPResponse {
        var headers = ["Host": host]
        if cookie { headers["Cookie"] = "other=1; notes_token_8765=t0ken" }
        return pages.respond(to: HTTPRequest(method: "GET", path: path, headers: headers, arguments: arguments))
    }

    func post(_ path: String, _ fields: [String: String], csrf: String? = "csrf-value", origin: String? = "http://127.0.0.1:8765",
              site: String? = "same-origin") -> HTTPResponse {
        var fields = fields
        fields["csrf"] = csrf
        var headers = ["Host": "127.0.0.1:8765", "Cookie": "notes_token_8765=t0ken", "Content-Type": "application/x-www-form-urlencoded"]
        headers["Origin"] = origin
        headers["Sec-Fetch-Site"] = site
        let body = fields.map { "\(NotebookPages.escapeQuery($0.key))=\(NotebookPages.escapeQuery($0.value))" }.joined(separator: "&")
        return pages.respond(to: HTTPRequest(method: "POST", path: path, headers: headers, body: Array(body.utf8)))
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func theTokenInTheAddressBecomesACookieAndLeavesTheAddress() {
        let first = get("/", ["token": "t0ken", "tag": "work"], cookie: false)
        #expect(first.status == 303)
        #expect(first.header("Location") == "/?tag=work")
        #expect(first.header("Set-Cookie") == "notes_token_8765=t0ken; Path=/; HttpOnly; SameSite=Strict")
        #expect(get("/").status == 200)
    }

    @Test func withoutTheTokenOrForAnotherHostNothingIsShown() throws {
        try add("Secret plans")
        for response in [get("/", cookie: false), get("/", ["token": "wrong"], cookie: false), get("/note/x", cookie: false)] {
            #expect(response.status == 403)
            #expect(!text(response).contains("Secret plans"))
        }
        // DNS rebinding: another site's name resolved to 127.0.0.1, with the cookie or not.
        let rebound = get("/", host: "evil.example:8765")
        #expect(rebound.status == 421)
        #expect(!text(rebound).contains("Secret plans"))
        #expect(get("/", host: "[::1]:8765").status == 200)
        #expect(get("/", host: "localhost:8765").status == 200)
        #expect(get("/", host: "127.0.0.1:9999").status == 421)
    }

    @Test func aChangeNeedsThisPagesOriginAndCSRFValue() throws {
        for response in [post("/add", ["text": "from elsewhere"], csrf: nil), post("/add", ["text": "from elsewhere"], csrf: "guess"),
                         post("/add", ["text": "from elsewhere"], origin: "http://evil.example"),
                         post("/add", ["text": "from elsewhere"], site: "cross-site")] {
            #expect(response.status == 403)
        }
        #expect(try notebook.notes().isEmpty, "nothing was added")
        let added = post("/add", ["text": "Buy stamps\n\nand envelopes"])
        #expect(added.status == 303)
        let notes = try notebook.notes()
        #expect(notes.map(\.title) == ["Buy stamps"])
        #expect(added.header("Location") == "/note/\(notes[0].id)")
    }

    @Test func theListShowsNotesNewestFirstWithTheirAnalysisAndFilters() throws {
        try add("Older note #garden", minute: 1)
        try add("Newer note\n- [ ] call the plumber", minute: 2, tasks: [TaskItem(text: "call the plumber")])
        let page = text(get("/"))
        let newer = try #require(page.range(of: "Newer note")), older = try #require(page.range(of: "Older note"))
        #expect(newer.lowerBound < older.lowerBound)
        #expect(page.contains("href=\"/?category=personal\""))
        #expect(page.contains("call the plumber"))
        #expect(page.contains("href=\"/?tag=garden\""))
        let filtered = text(get("/", ["tag": "garden"]))
        #expect(filtered.contains("Older note") && !filtered.contains("Newer note"))
        #expect(get("/", ["category": "nonsense"]).status == 400)
    }

    @Test func aNotesTextIsShownAsDataNeverRun() throws {
        let note = try add("Odd note\n<script>alert(1)</script>\n<img src=x onerror=alert(2)>\n[click](javascript:alert(3))")
        let page = text(get("/note/\(note.id)"))
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains("href=\"javascript:"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(get("/note/\(note.id)").header("Content-Security-Policy")?.contains("script-src 'self'") == true)
    }

    @Test func tickingATaskTicksItsBoxInTheNotesText() throws {
        let note = try add("Shopping\n- [ ] buy milk\n- [ ] buy bread", tasks: [TaskItem(text: "buy milk"), TaskItem(text: "buy bread")])
        #expect(post("/note/\(note.id)/task", ["number": "2", "done": "1"]).status == 303)
        let body = try #require(try notebook.note(id: note.id)?.body)
        #expect(body.hasSuffix("- [ ] buy milk\n- [x] buy bread"), "\(body)")
        #expect(try notebook.analysis(for: note.id)?.tasks.map(\.done) == [false, true])
        #expect(text(get("/note/\(note.id)")).contains("class=\"done\""))
        #expect(post("/note/\(note.id)/task", ["number": "9", "done": "1"]).status == 409)
        #expect(post("/note/\(note.id)/task", ["number": "x"]).status == 400)
    }

    @Test func anEditOverAChangeMadeElsewhereSavesNothingAndShowsBoth() throws {
        let note = try add("Plan\nfirst version")
        let form = text(get("/note/\(note.id)/edit"))
        #expect(form.contains("name=\"base\" value=\"\(note.contentHash)\""))
        // Meanwhile, another editor (the CLI, a sync) changes it.
        let elsewhere = try #require(try NoteEdits.edited(note, body: "changed elsewhere", at: Self.now))
        try notebook.update(elsewhere)
        let refused = post("/note/\(note.id)/edit", ["text": "Plan\nmy version", "base": note.contentHash])
        #expect(refused.status == 409)
        #expect(text(refused).contains("changed elsewhere"))
        #expect(text(refused).contains("my version"))
        #expect(try notebook.note(id: note.id)?.body == "changed elsewhere")
        // Saved knowingly, on the version shown.
        #expect(post("/note/\(note.id)/edit", ["text": "Plan\nmy version", "base": elsewhere.contentHash]).status == 303)
        let saved = try #require(try notebook.note(id: note.id)?.body)
        #expect(saved.hasSuffix("my version") && !saved.contains("changed elsewhere"), "\(saved)")
    }

    @Test func badRequestsGetAStatusAndChangeNothing() throws {
        let note = try add("Keep me")
        #expect(get("/note/nonexistent").status == 404)
        #expect(get("/no/such/page").status == 404)
        #expect(pages.respond(to: HTTPRequest(method: "PUT", path: "/", headers: ["Host": "127.0.0.1:8765", "Cookie": "notes_token_8765=t0ken"])).status == 405)
        #expect(pages.respond(to: HTTPRequest(method: "POST", path: "/add", headers: ["Host": "127.0.0.1:8765", "Cookie": "notes_token_8765=t0ken"],
                                              bodyTooLarge: true)).status == 413)
        #expect(post("/add", [:]).status == 400, "no text field")
        #expect(post("/add", ["text": "   "]).status == 400, "an empty note")
        #expect(try notebook.notes().map(\.id) == [note.id])
    }

    @Test func searchAndTasksPages() throws {
        let note = try add("Dentist appointment\n- [ ] book the crown", tasks: [TaskItem(text: "book the crown", due: "2026-12-01"),
                                                                                 TaskItem(text: "pay the invoice", due: "2026-12-03"),
                                                                                 TaskItem(text: "floss", due: nil)])
        let found = text(get("/search", ["q": "crown"]))
        #expect(found.contains("href=\"/note/\(note.id)\""))
        #expect(found.contains("<mark>"))
        #expect(text(get("/search", ["q": "dentist", "partial": "1"])).hasPrefix("<ul"))
        #expect(text(get("/search", ["q": "zebra"])).contains("No notes match"))
        let tasks = text(get("/tasks"))
        let overdue = try #require(tasks.range(of: "Overdue")), today = try #require(tasks.range(of: "Today")), none = try #require(tasks.range(of: "No date"))
        #expect(overdue.lowerBound < today.lowerBound && today.lowerBound < none.lowerBound)
        #expect(tasks.contains("book the crown") && tasks.contains("pay the invoice") && tasks.contains("floss"))
    }

    @Test func aNotesNeighbourhoodIsAPictureOfLinksToItsPages() throws {
        let target = try add("Garden <script>plan</script>", minute: 1)
        let hub = try add("Weekend\nSee [[Garden <script>plan</script>]]", minute: 2)
        let fan = try add("Seeds\nfor the [[Weekend]]", minute: 3)
        let page = text(get("/note/\(hub.id)"))
        let svg = try #require(page.range(of: "<svg class=\"graph\"").map { String(page[$0.lowerBound...]) })
        #expect(svg.contains("<a href=\"/note/\(target.id)\">"), "the note it links to")
        #expect(svg.contains("<a href=\"/note/\(fan.id)\">"), "the note linking to it")
        #expect(svg.contains("Garden &lt;script&gt;plan&lt;/script&gt;"))
        #expect(!svg.contains("<script>"))
        // A note with no neighbours has no picture.
        let alone = try add("Alone", minute: 4)
        #expect(!text(get("/note/\(alone.id)")).contains("<svg"))
    }

    @Test func theAskPageSaysWhyItCannotAnswer() throws {
        #expect(get("/ask").status == 200)
        let none = get("/ask", ["q": "when is the piano lesson?"])
        #expect(none.status == 503)
        let home = NotebookHome(path: directory.path)
        let unavailable = NotebookPages(notebook: notebook, home: home, embedder: nil, access: access, clock: { Self.now },
                                        questions: { throw AskUnavailableError(description: "the reading model is unavailable: no file") })
        let refused = unavailable.respond(to: HTTPRequest(method: "GET", path: "/ask", headers: ["Host": "127.0.0.1:8765", "Cookie": "notes_token_8765=t0ken"],
                                                          arguments: ["q": "when is the piano lesson?"]))
        #expect(refused.status == 503)
        #expect(text(refused).contains("the reading model is unavailable: no file"))
        #expect(text(refused).contains("value=\"when is the piano lesson?\""), "the question stays in the box")
    }
}

/// The ask page as the conversation writes it, in-process: the draft, the check, the answer.
struct AskPageTests {
    let directory = TemporaryDirectory()

    @Test func eachToolCallIsToldInTheUsersWords() {
        #expect(AnswerPage.describe(tool: "add_up", arguments: #"{"items": ["N1 Brake pads: 240 euros", "N2 Car test: 55 euros"]}"#)
            == "Added up N1 Brake pads: 240 euros + N2 Car test: 55 euros")
        #expect(AnswerPage.describe(tool: "count_notes", arguments: #"{"what": "runs"}"#) == "Counted the notes of runs")
        #expect(AnswerPage.describe(tool: "read_note", arguments: #"{"id": "N2"}"#) == "Read note N2")
    }

    /// A conversation that answers at once with `drafts` as its text so far, then `answer`.
    struct ScriptedQuestions: QuestionAnswering {
        var drafts: [String]
        var checking: [String] = []
        var answer: Result<NotebookQuestions.Answer, AskError>

        func prewarm() async throws {}

        func ask(_ question: String, onEvent: @escaping @Sendable (NotebookQuestions.Event) -> Void) async throws -> NotebookQuestions.Answer {
            onEvent(.toolCall(name: "search_notes", arguments: #"{"query":"<dentist>"}"#))
            for draft in drafts { onEvent(.answerText(draft)) }
            if !checking.isEmpty { onEvent(.checking(words: checking)) }
            return try answer.get()
        }
    }

    func page(_ questions: ScriptedQuestions, asking question: String = "what time is the tooth doctor?") async throws -> (status: Int, text: String) {
        let home = NotebookHome(path: directory.path)
        let pages = NotebookPages(notebook: try LocalNotebook.open(home), home: home, embedder: nil,
                                  access: PageAccess(port: 8765, token: "t", csrf: "c"), questions: { questions })
        let response = pages.respond(to: HTTPRequest(method: "GET", path: "/ask", headers: ["Host": "127.0.0.1:8765", "Cookie": "notes_token_8765=t"],
                                                     arguments: ["q": question]))
        let stream = try #require(response.stream)
        return (response.status, String(decoding: try await onOwnThread { stream.readToEnd() }, as: UTF8.self))
    }

    @Test func theDraftIsFollowedByTheAnswerAndItsSources() async throws {
        let source = NotebookQuestions.Source(id: try #require(NoteID("0190f0a0-0000-7000-8000-000000000001")), title: "Dentist <9:30>")
        let (status, text) = try await page(ScriptedQuestions(drafts: ["At", "At 9:30"], answer: .success(.init(text: "At 9:30.", sources: [source], searches: []))))
        #expect(status == 200)
        #expect(text.contains("<p class=\"how\">Searched the notes for “&lt;dentist&gt;”</p><p class=\"draft\">At 9:30</p>"))
        #expect(text.contains("<div class=\"final\"><p>At 9:30.</p><h2>Sources</h2><ul><li><a href=\"/note/0190f0a0-0000-7000-8000-000000000001\">Dentist &lt;9:30&gt;</a></li></ul></div>"))
        #expect(text.contains("value=\"what time is the tooth doctor?\""))
        #expect(text.hasSuffix("</section></main></body></html>"))
    }

    @Test func aWithdrawnDraftIsFollowedByTheDeclineAndNoSources() async throws {
        let shoes = NotebookQuestions.Source(id: try #require(NoteID("0190f0a0-0000-7000-8000-000000000002")), title: "My shoes")
        let (_, text) = try await page(ScriptedQuestions(drafts: ["Size 43"], checking: ["sister"],
                                                         answer: .success(.init(text: "Your notes do not say.", sources: [], searches: [], seeAlso: [shoes]))))
        #expect(text.contains("<p class=\"draft\">Size 43</p><p class=\"how\">Checking that the notes answer it: they do not say sister</p>"))
        #expect(text.contains("<div class=\"final\"><p>Your notes do not say.</p><h2>See also</h2><ul><li><a href=\"/note/0190f0a0-0000-7000-8000-000000000002\">My shoes</a></li></ul></div>"))
        #expect(!text.contains("Sources"))
    }

    /// A conversation whose transcript no longer fits the model's context, until opened anew.
    final class OutgrownQuestions: QuestionAnswering, @unchecked Sendable {
        let outgrown: Bool
        init(outgrown: Bool) { self.outgrown = outgrown }
        func prewarm() async throws {}
        func ask(_ question: String, onEvent: @escaping @Sendable (NotebookQuestions.Event) -> Void) async throws -> NotebookQuestions.Answer {
            if outgrown { throw GenerationError.exceededContextWindowSize(tokens: 5_000, contextSize: 4_096) }
            onEvent(.answerText("At 9:30."))
            return .init(text: "At 9:30.", sources: [], searches: [])
        }
    }

    @Test func aConversationThatOutgrewTheContextGivesWayToANewOne() async throws {
        let home = NotebookHome(path: directory.path)
        let opened = Counter()
        let pages = NotebookPages(notebook: try LocalNotebook.open(home), home: home, embedder: nil, access: PageAccess(port: 8765, token: "t", csrf: "c"),
                                  questions: { opened.increment(); return OutgrownQuestions(outgrown: opened.value == 1) })
        let response = pages.respond(to: HTTPRequest(method: "GET", path: "/ask", headers: ["Host": "127.0.0.1:8765", "Cookie": "notes_token_8765=t"],
                                                     arguments: ["q": "when is the dentist?"]))
        let stream = try #require(response.stream)
        let text = String(decoding: try await onOwnThread { stream.readToEnd() }, as: UTF8.self)
        #expect(text.contains("<p class=\"how\">A new conversation: the one before outgrew the model&#39;s context.</p><p class=\"draft\">At 9:30.</p>"), "\(text)")
        #expect(text.contains("<div class=\"final\"><p>At 9:30.</p>"))
        #expect(opened.value == 2)
    }

    @Test func aFailureEndsThePageWithTheReason() async throws {
        let (_, text) = try await page(ScriptedQuestions(drafts: [], answer: .failure(.noAnswer)))
        #expect(text.contains("<p class=\"conflict\">Cannot answer: "))
        #expect(text.hasSuffix("</section></main></body></html>"))
    }
}
