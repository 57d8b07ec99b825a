// The server message by message, in-process: a hand-written JSON-RPC exchange for each tool, both
// protocol eras, change notifications, and every kind of bad input (what the SDK will not send).
@testable import MCP
@testable import Notebook
import Notes
import Storage
import Testing

/// A server over an in-memory notebook, and the lines it answers.
final class Exchange {
    static let now = Timestamp(iso8601: "2026-12-01T09:00:00Z")!
    let store: NoteStore
    let server: MCPServer

    init(allowWrite: Bool = false, handshake: Bool = true) throws {
        store = try NoteStore(database: Database(path: ":memory:"))
        let access = NotebookAccess(store: store, home: NotebookHome(environment: ["NOTES_HOME": "/nonexistent/notes"]),
                                    environment: ["NOTES_EMBEDDING_MODEL": "none", "NOTES_READER_MODEL": "none"],
                                    allowWrite: allowWrite, now: { Exchange.now })
        server = try MCPServer(access: access, version: "test")
        if handshake {
            _ = send(#"{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}"#)
            _ = send(#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#)
        }
    }

    func send(_ line: String) -> [JSON] { server.receive(.message(Array(line.utf8))) }

    /// The one answer to a request.
    func request(_ method: String, _ params: String = "{}", id: Int = 1) -> JSON {
        let answers = send(#"{"jsonrpc": "2.0", "id": \#(id), "method": "\#(method)", "params": \#(params)}"#)
        #expect(answers.count == 1, "\(answers)")
        #expect(answers.first?["id"] == .int(id))
        return answers.first ?? .null
    }

    /// A tool's result: its structured output, or its error text.
    func call(_ tool: String, _ arguments: String) -> (output: JSON?, error: String?) {
        let result = request("tools/call", #"{"name": "\#(tool)", "arguments": \#(arguments)}"#)["result"]
        let text = result?["content"]?.array?.first?["text"]?.string
        if result?["isError"] == .bool(true) { return (nil, text) }
        #expect(text.flatMap { try? JSON.parse($0) } == result?["structuredContent"], "the text is the structured output as JSON")
        return (result?["structuredContent"], nil)
    }

    @discardableResult
    func add(_ text: String, minutes: Int64 = 0, tasks: [TaskItem] = []) throws -> Note {
        let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: Timestamp(milliseconds: Exchange.now.milliseconds - 3_600_000 + minutes * 60_000))
        try store.insert(note)
        if !tasks.isEmpty {
            try store.saveAnalysis(Analysis(category: .personal, urgency: 3, tasks: tasks, summary: "", model: "test", analyzedAt: Exchange.now,
                                            analyzerVersion: "test", contentHash: note.contentHash, stage: .quick), for: note.id)
        }
        return note
    }

    func error(_ answer: JSON) -> (code: Int?, message: String) {
        (answer["error"]?["code"]?.int, answer["error"]?["message"]?.string ?? "")
    }
}

struct MCPServerTests {
    @Test func theHandshakeNegotiatesARevisionItKnows() throws {
        let exchange = try Exchange(handshake: false)
        #expect(exchange.request("ping")["result"] == .object([]), "ping needs no handshake")
        #expect(exchange.error(exchange.request("tools/list")).message.contains("send initialize first"))
        for (asked, answered) in [("2024-11-05", "2024-11-05"), ("2025-06-18", "2025-06-18"), ("2099-01-01", "2025-11-25")] {
            let result = exchange.request("initialize", #"{"protocolVersion": "\#(asked)", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}"#)["result"]
            #expect(result?["protocolVersion"] == .string(answered))
            #expect(result?["serverInfo"]?["name"] == .string("notes"))
            #expect(result?["capabilities"]?["resources"] == .object([("subscribe", .bool(true)), ("listChanged", .bool(true))]))
        }
        #expect(exchange.request("tools/list")["result"]?["tools"]?.array?.count == 6)
        let enveloped = exchange.request("tools/list", #"{"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}"#)
        #expect(exchange.error(enveloped).code == RPCError.invalidRequest)
    }

    @Test func writeToolsAreListedOnlyWithAllowWrite() throws {
        let names = { (exchange: Exchange) in exchange.request("tools/list")["result"]?["tools"]?.array?.compactMap { $0["name"]?.string } }
        #expect(try names(Exchange()) == ["search", "show", "related", "links", "tasks", "ask"])
        #expect(try names(Exchange(allowWrite: true)) == ["search", "show", "related", "links", "tasks", "ask", "add", "append", "done"])
        let search = try Exchange().request("tools/list")["result"]?["tools"]?.array?.first
        #expect(search?["inputSchema"]?["required"] == .array([.string("query")]))
        #expect(search?["outputSchema"]?["properties"]?["results"]?["type"] == .string("array"))
        #expect(search?["annotations"]?["readOnlyHint"] == .bool(true))
    }

    @Test func searchShowLinksAndTasks() throws {
        let exchange = try Exchange()
        let dentist = try exchange.add("Call the dentist #health", minutes: 1)
        let errands = try exchange.add("Errands #home\nSee [[Call the dentist]] and [[Nowhere]]", minutes: 2,
                                       tasks: [TaskItem(text: "buy milk", due: "2026-11-30"), TaskItem(text: "post the letter")])

        let found = exchange.call("search", #"{"query": "dentist", "mode": "words", "limit": 1}"#)
        #expect(found.output?["results"]?.array?.count == 1)
        #expect(found.output?["results"]?.array?.first?["id"] == .string(dentist.id.rawValue))
        #expect(found.output?["results"]?.array?.first?["match"] == .string("words"))
        #expect(exchange.call("search", #"{"query": "tag:home"}"#).output?["results"]?.array?.compactMap { $0["id"]?.string } == [errands.id.rawValue])
        #expect(exchange.call("search", #"{"query": "dentist", "tag": "home"}"#).output?["results"]?.array?.compactMap { $0["id"]?.string } == [errands.id.rawValue])
        #expect(exchange.call("search", #"{"query": "urgency:high"}"#).error?.contains("'urgency:high' is not a filter") == true)
        #expect(exchange.call("search", #"{"query": "dentist", "mode": "meaning"}"#).error?.hasPrefix("cannot search by meaning") == true)

        let shown = exchange.call("show", #"{"id": "\#(dentist.id.rawValue.suffix(6))"}"#).output
        #expect(shown == dentist.json(analysis: nil))
        #expect(exchange.call("show", #"{"id": "ffffffff"}"#).error == "no note matches 'ffffffff'")

        let links = exchange.call("links", #"{"id": "\#(errands.id.rawValue)"}"#).output
        #expect(links?["links"]?.array?.map { $0["id"] } == [.string(dentist.id.rawValue), .null])
        #expect(exchange.call("links", #"{"id": "\#(dentist.id.rawValue)"}"#).output?["backlinks"]?.array?.first?["id"] == .string(errands.id.rawValue))

        let tasks = exchange.call("tasks", "{}").output?["tasks"]?.array
        #expect(tasks?.compactMap { $0["text"]?.string } == ["buy milk", "post the letter"])
        #expect(tasks?.first?["note"] == .string(errands.id.rawValue) && tasks?.first?["number"] == .int(1))
        #expect(exchange.call("tasks", #"{"due": "overdue"}"#).output?["tasks"]?.array?.compactMap { $0["text"]?.string } == ["buy milk"])
        #expect(exchange.call("tasks", #"{"due": "someday"}"#).error?.contains("'due' must be one of 'today', 'tomorrow', 'week', 'overdue'") == true)
    }

    @Test func relatedAndAskSayWhyTheyCannotAnswer() throws {
        let exchange = try Exchange()
        let note = try exchange.add("Piano lesson moved to Thursday")
        #expect(exchange.call("related", #"{"id": "\#(note.id.rawValue)"}"#).error?.contains("has no vector yet") == true)
        #expect(exchange.call("ask", #"{"question": "when is the piano lesson?"}"#).error
            == "asking your notes needs the reading model, and NOTES_READER_MODEL is none")
    }

    @Test func addAppendAndDoneWriteOrdinaryNotes() throws {
        let exchange = try Exchange(allowWrite: true)
        let added = exchange.call("add", #"{"text": "Pick up the parcel #errands\nat the post office"}"#).output
        let id = try #require(added?["id"]?.string.flatMap(NoteID.init))
        #expect(added?["title"] == .string("Pick up the parcel"))
        #expect(try exchange.store.note(id)?.tags == ["errands"])
        #expect(exchange.call("append", #"{"id": "\#(id.rawValue)", "text": "Bring the slip"}"#).output?["id"] == .string(id.rawValue))
        #expect(try exchange.store.note(id)?.body == "Pick up the parcel #errands\nat the post office\nBring the slip")
        #expect(exchange.call("append", #"{"id": "\#(id.rawValue)", "text": "  "}"#).error == "nothing to append: the text is blank")
        #expect(exchange.call("add", #"{"text": "nul \u0000 byte"}"#).error?.contains("NUL byte") == true)

        let errands = try exchange.add("Errands", tasks: [TaskItem(text: "buy milk")])
        let done = exchange.call("done", #"{"id": "\#(errands.id.rawValue)", "number": 1}"#).output
        #expect(done == .object([("note", .string(errands.id.rawValue)), ("number", .int(1)), ("text", .string("buy milk")), ("done", .bool(true))]))
        #expect(try exchange.store.analysis(for: errands.id)?.tasks.first?.done == true)
        #expect(exchange.call("done", #"{"id": "\#(errands.id.rawValue)", "number": 1, "done": false}"#).output?["done"] == .bool(false))
        #expect(exchange.call("done", #"{"id": "\#(errands.id.rawValue)", "number": 3}"#).error?.hasSuffix("has 1 task, not 3") == true)
    }

    @Test func writesWithoutAllowWriteAreRefusedAndChangeNothing() throws {
        let exchange = try Exchange()
        let note = try exchange.add("Errands", tasks: [TaskItem(text: "buy milk")])
        for (tool, arguments) in [("add", #"{"text": "x"}"#), ("append", #"{"id": "\#(note.id.rawValue)", "text": "y"}"#),
                                  ("done", #"{"id": "\#(note.id.rawValue)", "number": 1}"#)] {
            #expect(exchange.call(tool, arguments).error?.contains("started read-only; nothing was changed") == true)
        }
        #expect(try exchange.store.allIDs() == [note.id])
        #expect(try exchange.store.note(note.id) == note)
        #expect(try exchange.store.analysis(for: note.id)?.tasks.first?.done == false)
    }

    @Test(arguments: [
        ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"", RPCError.parseError, "Parse error: expected : at byte 36", JSON.null),
        ("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]", RPCError.invalidRequest, "a batch", .null),
        ("{\"id\": 4, \"method\": \"ping\"}", RPCError.invalidRequest, "\"jsonrpc\" must be \"2.0\"", .int(4)),
        ("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": 7}", RPCError.invalidRequest, "\"method\" must be a string", .int(5)),
        ("{\"jsonrpc\": \"2.0\", \"id\": true, \"method\": \"ping\"}", RPCError.invalidRequest, "\"id\" must be a string or a whole number", .null),
        ("{\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": \"ping\", \"params\": 3}", RPCError.invalidRequest, "\"params\" must be an object", .int(6)),
        ("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"notes/frobnicate\"}", RPCError.methodNotFound, "Method not found: notes/frobnicate", .int(7)),
        ("{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"tools/call\", \"params\": {}}", RPCError.invalidParams, "needs a \"name\"", .int(8)),
        ("{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"tools/call\", \"params\": {\"name\": \"rm\"}}", RPCError.invalidParams, "Unknown tool 'rm'", .int(9)),
        ("{\"jsonrpc\": \"2.0\", \"id\": 10, \"method\": \"resources/read\", \"params\": {\"uri\": \"notes://ffff\"}}", -32002, "no note is notes://ffff", .int(10)),
        ("{\"jsonrpc\": \"2.0\", \"id\": 11, \"method\": \"resources/list\", \"params\": {\"cursor\": \"x\"}}", RPCError.invalidParams, "Invalid cursor", .int(11)),
    ] as [(String, Int, String, JSON)])
    func badMessagesAreErrorsAndTheServerKeepsServing(line: String, code: Int, message: String, id: JSON) throws {
        let exchange = try Exchange()
        let answers = exchange.send(line)
        #expect(answers.count == 1)
        #expect(answers.first?["id"] == id)
        #expect(answers.first?["error"]?["code"]?.int == code)
        #expect(answers.first?["error"]?["message"]?.string?.contains(message) == true, "\(answers)")
        #expect(exchange.request("ping", id: 99)["result"] == .object([]))
    }

    @Test func invalidUTF8AndOversizedLinesAreAnswered() throws {
        let exchange = try Exchange()
        let invalid = exchange.server.receive(.message(Array("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)))
        #expect(invalid.first?["error"]?["message"] == .string("Parse error: invalid UTF-8 in a string at byte 39"))
        var lines = RequestLines(limit: 1000)
        let huge = lines.append(Array(#"{"jsonrpc": "2.0", "id": 31, "method": "tools/call", "params": {"name": "add", "arguments": {"text": "\#(String(repeating: "x", count: 5000))"}}}"#.utf8) + [0x0A])
        let answer = try #require(huge.first.map(exchange.server.receive)?.first)
        #expect(answer["id"] == .int(31))
        #expect(answer["error"]?["message"]?.string?.hasPrefix("Request too large: 5106 bytes, over the 1000-byte limit") == true)
        #expect(exchange.send(#"{"jsonrpc": "2.0", "method": "notifications/whatever"}"#).isEmpty, "an unknown notification is ignored")
        #expect(exchange.send(#"{"jsonrpc": "2.0", "id": 3, "result": {}}"#).isEmpty, "a response is ignored")
    }

    @Test func resourcesAreNotesAsMarkdown() throws {
        let exchange = try Exchange()
        let note = try exchange.add("Piano lesson moved to Thursday #music")
        let listed = exchange.request("resources/list")["result"]?["resources"]?.array
        #expect(listed?.count == 1)
        #expect(listed?.first?["uri"] == .string("notes://" + note.id.rawValue))
        #expect(listed?.first?["name"] == .string("Piano lesson moved to Thursday"))
        let read = exchange.request("resources/read", #"{"uri": "notes://\#(note.id.rawValue)"}"#)["result"]?["contents"]?.array?.first
        #expect(read?["text"] == .string(NoteDocument.render(note)))
        #expect(read?["mimeType"] == .string("text/markdown"))
        #expect(exchange.request("resources/templates/list")["result"]?["resourceTemplates"]?.array?.first?["uriTemplate"] == .string("notes://{id}"))
    }

    @Test func changesAreNotifiedToASubscribedClient() throws {
        let exchange = try Exchange()
        let note = try exchange.add("Piano lesson")
        #expect(try exchange.server.notebookChanged().map { $0["method"] } == [.string("notifications/resources/list_changed")])
        #expect(exchange.request("resources/subscribe", #"{"uri": "notes://\#(note.id.rawValue)"}"#)["result"] == .object([]))
        var edited = note
        edited.body = "Piano lesson, now on Thursday"
        edited.updated = Exchange.now
        try exchange.store.update(edited)
        #expect(try exchange.server.notebookChanged() == [
            .object([("jsonrpc", .string("2.0")), ("method", .string("notifications/resources/updated")),
                     ("params", .object([("uri", .string("notes://" + note.id.rawValue))]))]),
        ])
        // An analysis changes no resource; nothing to tell.
        try exchange.store.saveAnalysis(Analysis(category: .study, urgency: 2, tasks: [], summary: "", model: "test", analyzedAt: Exchange.now,
                                                 analyzerVersion: "test", contentHash: edited.contentHash, stage: .quick), for: note.id)
        #expect(try exchange.server.notebookChanged().isEmpty)
        try exchange.store.delete(note.id, at: Exchange.now)
        #expect(try exchange.server.notebookChanged().map { $0["method"] } == [.string("notifications/resources/list_changed"), .string("notifications/resources/updated")])
        #expect(exchange.request("resources/unsubscribe", #"{"uri": "notes://\#(note.id.rawValue)"}"#)["result"] == .object([]))
    }

    static let envelope = #""_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}"#

    @Test func theStatelessRevisionCarriesItsEnvelopeOnEveryRequest() throws {
        let exchange = try Exchange(handshake: false)
        let discovered = exchange.request("server/discover", "{\(Self.envelope)}")["result"]
        #expect(discovered?["supportedVersions"] == .array([.string("2026-07-28")]))
        #expect(discovered?["resultType"] == .string("complete") && discovered?["ttlMs"] == .int(0) && discovered?["cacheScope"] == .string("private"))
        #expect(discovered?["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == .string("notes"))
        let tools = exchange.request("tools/list", "{\(Self.envelope)}")["result"]
        #expect(tools?["tools"]?.array?.count == 6 && tools?["resultType"] == .string("complete"))
        let called = exchange.request("tools/call", #"{"name": "tasks", "arguments": {}, \#(Self.envelope)}"#)["result"]
        #expect(called?["structuredContent"] == .object([("tasks", .array([]))]) && called?["resultType"] == .string("complete"))
        #expect(called?["ttlMs"] == nil, "a tool's result is not cacheable")

        #expect(exchange.error(exchange.request("tools/list")).code == RPCError.invalidParams, "no envelope")
        #expect(exchange.error(exchange.request("tools/list", #"{"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}"#)).message
            == "params._meta is missing io.modelcontextprotocol/clientCapabilities")
        let old = exchange.request("tools/list", #"{"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25", "io.modelcontextprotocol/clientCapabilities": {}}}"#)
        #expect(exchange.error(old).code == RPCError.unsupportedProtocolVersion)
        #expect(old["error"]?["data"] == .object([("supported", .array([.string("2026-07-28")])), ("requested", .string("2025-11-25"))]))
        let initialize = exchange.request("initialize", #"{"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}"#)
        #expect(exchange.error(initialize).code == RPCError.unsupportedProtocolVersion, "no handshake on a stateless connection")
        #expect(exchange.error(exchange.request("ping", "{\(Self.envelope)}")).code == RPCError.methodNotFound, "2026-07-28 has no ping")
    }

    @Test func aListenStreamIsAcknowledgedCarriesChangesAndEnds() throws {
        let exchange = try Exchange(handshake: false)
        let note = try exchange.add("Piano lesson")
        _ = try exchange.server.notebookChanged()
        let uri = "notes://" + note.id.rawValue
        let ack = exchange.send(#"{"jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen", "params": {"notifications": {"resourcesListChanged": true, "resourceSubscriptions": ["\#(uri)"], "toolsListChanged": true}, \#(Self.envelope)}}"#)
        let stamp = JSON.object([("io.modelcontextprotocol/subscriptionId", .string("listen-1"))])
        #expect(ack == [.object([("jsonrpc", .string("2.0")), ("method", .string("notifications/subscriptions/acknowledged")),
                                 ("params", .object([("notifications", .object([("resourcesListChanged", .bool(true)), ("resourceSubscriptions", .array([.string(uri)]))])),
                                                     ("_meta", stamp)]))])])
        var edited = note
        edited.body = "Piano lesson on Thursday"
        edited.updated = Exchange.now
        try exchange.store.update(edited)
        try exchange.add("Another note", minutes: 5)
        let notified = try exchange.server.notebookChanged()
        #expect(notified.map { $0["method"] } == [.string("notifications/resources/list_changed"), .string("notifications/resources/updated")])
        #expect(notified.allSatisfy { $0["params"]?["_meta"] == stamp })
        let closed = exchange.server.close()
        #expect(closed.first?["id"] == .string("listen-1") && closed.first?["result"]?["_meta"]?["io.modelcontextprotocol/subscriptionId"] == .string("listen-1"))
        // A cancelled stream ends without a response and hears nothing more.
        _ = exchange.send(#"{"jsonrpc": "2.0", "id": "listen-2", "method": "subscriptions/listen", "params": {"notifications": {"resourcesListChanged": true}, \#(Self.envelope)}}"#)
        #expect(exchange.send(#"{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "listen-2"}}"#).isEmpty)
        try exchange.add("A third note", minutes: 6)
        #expect(try exchange.server.notebookChanged().isEmpty)
        #expect(exchange.server.close().isEmpty)
    }
}
