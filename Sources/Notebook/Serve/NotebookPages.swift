// `notes serve`'s pages: server-rendered HTML that works without JavaScript (a little script
// makes search live), over the same notebook, search and edits as the commands.
import Foundation
import Notes
import Storage

public final class NotebookPages: @unchecked Sendable {
    let notebook: LocalNotebook
    let home: NotebookHome
    let search: NotebookSearch
    let access: PageAccess
    let clock: @Sendable () -> Timestamp
    /// The ask page's questions, answered one at a time; nil: no asking here.
    let asking: AskLane?
    /// A request's body past this is refused (413): a note is at most `NoteInput.maximumBytes`.
    public static let maximumBody = NoteInput.maximumBytes + 4_096

    public init(notebook: LocalNotebook, home: NotebookHome, embedder: (any TextEmbedding)?, access: PageAccess,
                clock: @escaping @Sendable () -> Timestamp = { .current }, questions: (@Sendable () throws -> any QuestionAnswering)? = nil) {
        self.notebook = notebook
        asking = questions.map { AskLane(home: home, open: $0) }
        self.home = home
        search = NotebookSearch(notebook: notebook, embedder: embedder)
        self.access = access
        self.clock = clock
    }

    /// The answer to one request; never throws: a failure is a page that says what went wrong.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        switch access.check(request) {
        case let .refused(status, reason):
            return page(status: status, title: "Refused", body: "<p>\(HTML.escape(reason))</p>", signedIn: false)
        case .allowedFromAddress:
            // The token leaves the address bar (and the history) at once; the cookie keeps it.
            var arguments = request.arguments
            arguments["token"] = nil
            return HTTPResponse(status: 303, headers: [("Location", request.path + Self.query(arguments)), ("Set-Cookie", access.setCookie)] + Self.securityHeaders)
        case .allowed:
            break
        }
        if request.bodyTooLarge { return page(status: 413, title: "Too large", body: "<p>The request is larger than a note can be.</p>") }
        do {
            return try route(request)
        } catch let error as NotePageError {
            return page(status: error.status, title: error.title, body: "<p>\(HTML.escape(error.message))</p>")
        } catch let error as NoteInputError {
            // The text itself is refused (empty, too large, a NUL byte): the form was wrong.
            return page(status: 400, title: "Not saved", body: "<p>\(HTML.escape("\(error)"))</p>")
        } catch {
            return page(status: 500, title: "Error", body: "<p>\(HTML.escape(ErrorMessage.describe(error, home: home)))</p>")
        }
    }

    struct NotePageError: Error {
        var status: Int
        var title: String
        var message: String
        static func notFound(_ message: String) -> NotePageError { NotePageError(status: 404, title: "Not found", message: message) }
        static func badForm(_ message: String) -> NotePageError { NotePageError(status: 400, title: "Bad request", message: message) }
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let reading = request.method == "GET" || request.method == "HEAD"
        switch (reading, parts.first, parts.count) {
        case (true, nil, _): return try listPage(request)
        case (true, "search", 1): return try searchPage(request)
        case (true, "tasks", 1): return try tasksPage()
        case (true, "ask", 1): return try askPage(request.arguments["q"] ?? "")
        case (true, "add", 1): return editPage(title: "New note", action: "/add", text: "", base: nil, notice: nil)
        case (false, "add", 1): return try add(request)
        case (true, "note", 2): return try notePage(parts[1])
        case (true, "note", 3) where parts[2] == "edit":
            let note = try note(parts[1])
            return editPage(title: "Edit " + note.title, action: "/note/\(note.id)/edit", text: note.body, base: note.contentHash, notice: nil)
        case (false, "note", 3) where parts[2] == "edit": return try edit(parts[1], request)
        case (false, "note", 3) where parts[2] == "task": return try markTask(parts[1], request)
        case (true, "style.css", 1): return asset(PageAssets.style, type: "text/css; charset=utf-8")
        case (true, "app.js", 1): return asset(PageAssets.script, type: "text/javascript; charset=utf-8")
        default:
            if !reading, request.method != "POST" { return page(status: 405, title: "Not allowed", body: "<p>\(HTML.escape(request.method)) is not a method this page answers.</p>") }
            throw NotePageError.notFound("There is no page at \(request.path).")
        }
    }

    // MARK: Pages

    private func listPage(_ request: HTTPRequest) throws -> HTTPResponse {
        var filter = NoteFilter()
        var shown: [String] = []
        if let tag = request.arguments["tag"], !tag.isEmpty { filter.tag = tag; shown.append("#" + tag) }
        if let name = request.arguments["category"], !name.isEmpty {
            guard let category = Category(rawValue: name) else { throw NotePageError.badForm("There is no category '\(name)'.") }
            filter.category = category
            shown.append(category.rawValue)
        }
        let rows = try notebook.notesWithAnalyses(matching: filter, forLines: false)
        let handles = try notebook.handles(for: rows.map(\.note.id))
        let heading = shown.isEmpty ? "Notes" : "Notes: " + shown.joined(separator: ", ")
        var body = "<p class=\"count\">\(rows.count) note\(rows.count == 1 ? "" : "s")\(shown.isEmpty ? "" : " · <a href=\"/\">all notes</a>")</p>"
        body += searchForm(query: "")
        body += rows.isEmpty ? "<p>No notes match.</p>" : "<ul class=\"notes\">" + rows.map { noteRow($0.note, $0.analysis, handle: handles[$0.note.id]) }.joined() + "</ul>"
        return page(status: 200, title: heading, body: body)
    }

    private func searchPage(_ request: HTTPRequest) throws -> HTTPResponse {
        let query = request.arguments["q"] ?? ""
        let results = query.trimmingCharacters(in: .whitespaces).isEmpty ? [] : try notebook.reading { try search.search(query, now: clock()) }
        let handles = try notebook.handles(for: results.map(\.hit.id))
        var list = results.isEmpty ? (query.isEmpty ? "" : "<p>No notes match '\(HTML.escape(query))'.</p>") : "<ul class=\"notes\">"
        for result in results {
            let snippet = HTML.escape(result.hit.snippet)
                .replacingOccurrences(of: SearchHit.highlightStart, with: "<mark>").replacingOccurrences(of: SearchHit.highlightEnd, with: "</mark>")
            list += "<li><a href=\"/note/\(result.hit.id)\">\(HTML.escape(result.hit.title))</a> <span class=\"handle\">\(HTML.escape(handles[result.hit.id] ?? ""))</span>"
                + (result.match == .meaning ? " <span class=\"how\">by meaning</span>" : "") + "<div class=\"snippet\">\(snippet)</div></li>"
        }
        if !results.isEmpty { list += "</ul>" }
        // The live search asks for the results alone.
        if request.arguments["partial"] == "1" { return html(200, list) }
        return page(status: 200, title: "Search", body: searchForm(query: query) + "<div id=\"results\">\(list)</div>")
    }

    private func notePage(_ reference: String) throws -> HTTPResponse {
        let note = try note(reference)
        let analysis = try notebook.analysis(for: note.id)
        let links = try notebook.links(from: note.id), backlinks = try notebook.backlinks(to: note.id)
        // A wiki link goes where the notebook resolved it (the rules of `notes links`).
        var resolved: [String: NoteID] = [:]
        for link in links {
            guard let id = link.resolved else { continue }
            resolved[link.target] = id
            if let heading = link.heading { resolved[link.target + "#" + heading] = id }
        }
        let markdown = MarkdownHTML(wikiLink: { [resolved] target in resolved[target].map { "/note/\($0)" } })
        var body = "<p class=\"meta\">\(HTML.escape(try notebook.handle(of: note.id))) · updated \(note.updated.day)"
        body += note.tags.map { " · <a href=\"/?tag=\(Self.escapeQuery($0))\">#\(HTML.escape($0))</a>" }.joined()
        body += " · <a href=\"/note/\(note.id)/edit\">edit</a></p>"
        if let analysis {
            body += "<section class=\"analysis\"><p><a href=\"/?category=\(analysis.category.rawValue)\">\(analysis.category.rawValue)</a> · urgency \(analysis.urgency)"
            body += " · \(analysis.stage == .quick ? "quick analysis (the full one is pending)" : "analysed") </p><p>\(HTML.escape(analysis.summary))</p>"
            if !analysis.tasks.isEmpty {
                body += "<ul class=\"tasks\">"
                for (index, task) in analysis.tasks.enumerated() {
                    body += "<li\(task.done ? " class=\"done\"" : "")><form method=\"post\" action=\"/note/\(note.id)/task\">\(csrfField)"
                    body += "<input type=\"hidden\" name=\"number\" value=\"\(index + 1)\"><input type=\"hidden\" name=\"done\" value=\"\(task.done ? "0" : "1")\">"
                    body += "<button type=\"submit\" title=\"\(task.done ? "mark open again" : "mark done")\">\(task.done ? "☑" : "☐")</button> "
                    body += HTML.escape(task.text) + (task.due.map { " <span class=\"due\">due \($0)</span>" } ?? "") + "</form></li>"
                }
                body += "</ul>"
            }
            body += "</section>"
        } else {
            body += "<p class=\"pending\">Not analysed yet: 'notes analyze' or the daemon will.</p>"
        }
        body += "<article class=\"note\">\(markdown.render(note.body))</article>"
        if !links.isEmpty {
            body += "<section><h2>Links</h2><ul>"
            for link in links {
                let target = HTML.escape(link.target)
                if let resolved = link.resolved {
                    body += "<li><a href=\"/note/\(resolved)\">\(target)</a></li>"
                } else {
                    body += "<li class=\"broken\">\(target) (no such note)</li>"
                }
            }
            body += "</ul></section>"
        }
        if !backlinks.isEmpty {
            body += "<section><h2>Backlinks</h2><ul>" + backlinks.map { "<li><a href=\"/note/\($0.source)\">\(HTML.escape($0.sourceTitle))</a></li>" }.joined() + "</ul></section>"
        }
        let related = (try? search.related(to: note.id, limit: 5, computeIfMissing: false)) ?? []
        if !related.isEmpty {
            body += "<section><h2>Related</h2><ul>" + related.map { "<li><a href=\"/note/\($0.id)\">\(HTML.escape($0.title))</a></li>" }.joined() + "</ul></section>"
        }
        var neighbours = links.compactMap { link in link.resolved.map { NeighbourhoodGraph.Neighbour(id: $0, title: link.target, kind: .linksTo) } }
        neighbours += backlinks.map { NeighbourhoodGraph.Neighbour(id: $0.source, title: $0.sourceTitle, kind: .linkedFrom) }
        neighbours += related.map { NeighbourhoodGraph.Neighbour(id: $0.id, title: $0.title, kind: .related) }
        let graph = NeighbourhoodGraph(title: note.title, neighbours: neighbours.filter { $0.id != note.id }).svg
        if !graph.isEmpty { body += "<section><h2>Neighbourhood</h2>\(graph)</section>" }
        return page(status: 200, title: note.title, body: body)
    }

    private func tasksPage() throws -> HTTPResponse {
        let now = clock()
        let today = now.day, week = now.adding(days: 6).day
        let tasks = try notebook.tasks(includeDone: false)
        let groups: [(String, (TaskEntry) -> Bool)] = [
            ("Overdue", { ($0.task.due ?? "9") < today }), ("Today", { $0.task.due == today }),
            ("This week", { ($0.task.due ?? "9") > today && ($0.task.due ?? "9") <= week }),
            ("Later", { ($0.task.due ?? "0") > week }), ("No date", { $0.task.due == nil }),
        ]
        var body = ""
        for (name, keeps) in groups {
            let entries = tasks.filter(keeps)
            guard !entries.isEmpty else { continue }
            body += "<section><h2>\(name)</h2><ul class=\"tasks\">" + entries.map { entry in
                "<li>\(HTML.escape(entry.task.text))\(entry.task.due.map { " <span class=\"due\">due \($0)</span>" } ?? "") · <a href=\"/note/\(entry.noteID)\">\(HTML.escape(entry.noteTitle))</a></li>"
            }.joined() + "</ul></section>"
        }
        return page(status: 200, title: "Tasks", body: body.isEmpty ? "<p>No open tasks.</p>" : body)
    }

    /// A question, then its answer as the model writes it, then its sources: the page is sent
    /// while it is made (no script needed), and the other pages are served meanwhile. Asking
    /// reads the notebook and changes nothing, hence a GET.
    private func askPage(_ question: String) throws -> HTTPResponse {
        let form = "<form method=\"get\" action=\"/ask\" class=\"search\"><input type=\"search\" name=\"q\" value=\"\(HTML.escape(question))\" "
            + "placeholder=\"Ask your notes: when is the piano lesson?\" autocomplete=\"off\"> <button type=\"submit\">Ask</button></form>"
        guard !question.trimmingCharacters(in: .whitespaces).isEmpty else { return page(status: 200, title: "Ask", body: form) }
        // The question stays in the box above the reason it cannot be answered.
        func unavailable(_ reason: String) -> HTTPResponse { page(status: 503, title: "Ask", body: form + "<p class=\"conflict\">\(HTML.escape(reason))</p>") }
        guard let asking else { return unavailable("Asking is not available on this page.") }
        let conversation: any QuestionAnswering
        do {
            conversation = try asking.conversation(day: clock().day)
        } catch let error as AskUnavailableError {
            return unavailable("Cannot ask now: \(error.description).")
        }
        let stream = HTTPBodyStream()
        stream.write(pageStart(title: "Ask") + form)
        asking.answer(question, with: conversation, into: stream, pageEnd: Self.pageEnd)
        return HTTPResponse(status: 200, headers: htmlHeaders, stream: stream)
    }

    private func editPage(title: String, action: String, text: String, base: String?, notice: String?, status: Int = 200) -> HTTPResponse {
        var body = notice ?? ""
        body += "<form method=\"post\" action=\"\(action)\" class=\"edit\">\(csrfField)"
        if let base { body += "<input type=\"hidden\" name=\"base\" value=\"\(HTML.escape(base))\">" }
        body += "<textarea name=\"text\" rows=\"20\" autofocus>\(HTML.escape(text))</textarea><p><button type=\"submit\">Save</button></p></form>"
        return page(status: status, title: title, body: body)
    }

    // MARK: Changes

    private func add(_ request: HTTPRequest) throws -> HTTPResponse {
        let text = try formText(request)
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: clock())
        try notebook.add(note)
        return redirect("/note/\(note.id)")
    }

    private func edit(_ reference: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let original = try note(reference)
        let text = try formText(request)
        let form = request.form
        // Changed elsewhere since the page was opened: nothing is overwritten; both are shown,
        // and saving again (on the current version) is a choice made knowingly.
        if let base = form["base"], base != original.contentHash {
            let notice = "<p class=\"conflict\">This note was changed elsewhere after you opened it. Nothing was saved. Its text now:</p>"
                + "<pre class=\"theirs\">\(HTML.escape(original.body))</pre><p>Yours is below; saving it replaces the text above.</p>"
            return editPage(title: "Edit " + original.title, action: "/note/\(original.id)/edit", text: text, base: original.contentHash, notice: notice, status: 409)
        }
        if let note = try NoteEdits.edited(original, body: text, at: clock()) { try notebook.update(note) }
        return redirect("/note/\(original.id)")
    }

    private func markTask(_ reference: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let note = try note(reference)
        let form = request.form
        guard let number = form["number"].flatMap(Int.init), let done = form["done"], done == "1" || done == "0" else {
            throw NotePageError.badForm("The form needs a task number and done=1 or done=0.")
        }
        if case let .failure(error) = notebook.markTasks([(note.id.rawValue, number)], done: done == "1", clock: clock).first {
            throw NotePageError(status: 409, title: "Not changed", message: ErrorMessage.describe(error, home: home))
        }
        return redirect("/note/\(note.id)")
    }

    private func formText(_ request: HTTPRequest) throws -> String {
        guard request.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") ?? false, let text = request.form["text"] else {
            throw NotePageError.badForm("The form needs its text field.")
        }
        // A browser sends a text area's lines ended with CR LF.
        return try NoteInput.decode(Array(text.replacingOccurrences(of: "\r\n", with: "\n").utf8))
    }

    private func note(_ reference: String) throws -> Note {
        guard let id = try? notebook.id(of: reference), let note = try notebook.note(id: id) else {
            throw NotePageError.notFound("There is no note '\(reference)'.")
        }
        return note
    }

    // MARK: Pieces

    private var csrfField: String { "<input type=\"hidden\" name=\"csrf\" value=\"\(access.csrf)\">" }

    private func searchForm(query: String) -> String {
        "<form method=\"get\" action=\"/search\" class=\"search\"><input type=\"search\" name=\"q\" value=\"\(HTML.escape(query))\" placeholder=\"Search: words, meaning, tag:x, due:tomorrow\" autocomplete=\"off\"> <button type=\"submit\">Search</button></form>"
    }

    private func noteRow(_ note: Note, _ analysis: Analysis?, handle: String?) -> String {
        var row = "<li><a href=\"/note/\(note.id)\">\(HTML.escape(note.title))</a> <span class=\"handle\">\(HTML.escape(handle ?? ""))</span>"
        if let analysis {
            row += " <a class=\"category\" href=\"/?category=\(analysis.category.rawValue)\">\(analysis.category.rawValue)</a> <span class=\"urgency u\(analysis.urgency)\">\(analysis.urgency)</span>"
        }
        row += note.tags.map { " <a class=\"tag\" href=\"/?tag=\(Self.escapeQuery($0))\">#\(HTML.escape($0))</a>" }.joined()
        let open = analysis?.tasks.filter { !$0.done }.prefix(2) ?? []
        if !open.isEmpty { row += "<ul class=\"first-tasks\">" + open.map { "<li>\(HTML.escape($0.text))</li>" }.joined() + "</ul>" }
        return row + "</li>"
    }

    static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"), ("Cache-Control", "no-store"), ("X-Frame-Options", "DENY"),
    ]

    private var htmlHeaders: [(name: String, value: String)] { [("Content-Type", "text/html; charset=utf-8")] + Self.securityHeaders }

    private func html(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: htmlHeaders, body: Array(text.utf8))
    }

    /// A page's HTML up to its body's content (a streamed page sends this first).
    private func pageStart(title: String, signedIn: Bool = true) -> String {
        let navigation = signedIn ? "<nav><a href=\"/\">Notes</a> <a href=\"/tasks\">Tasks</a> <a href=\"/search\">Search</a> <a href=\"/ask\">Ask</a> <a href=\"/add\">New note</a></nav>" : ""
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · notes</title><link rel="stylesheet" href="/style.css"><script src="/app.js" defer></script></head>
            <body>\(navigation)<main><h1>\(HTML.escape(title))</h1>
            """
    }

    static let pageEnd = "</main></body></html>"

    private func page(status: Int, title: String, body: String, signedIn: Bool = true) -> HTTPResponse {
        html(status, pageStart(title: title, signedIn: signedIn) + body + Self.pageEnd)
    }

    private func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("Location", location)] + Self.securityHeaders)
    }

    private func asset(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type)] + Self.securityHeaders, body: Array(text.utf8))
    }

    static func escapeQuery(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    static func query(_ arguments: [String: String]) -> String {
        arguments.isEmpty ? "" : "?" + arguments.sorted { $0.key < $1.key }.map { escapeQuery($0.key) + "=" + escapeQuery($0.value) }.joined(separator: "&")
    }
}
