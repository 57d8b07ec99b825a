// `notes serve` over real HTTP (libmicrohttpd, a socket of our own as the client): the ask page
// arrives as it is written, the other pages are served while a question is being answered,
// and stopping the server ends an answer still being written. The answers come from a scripted
// conversation that waits for the test between its words, so nothing here depends on timing.
import Foundation
import Notes
import Testing
import TestSupport
@testable import Notebook

/// A conversation that writes its first words, then waits until `release()` (or cancellation).
final class GatedQuestions: QuestionAnswering, @unchecked Sendable {
    let first: String
    let rest: String
    let answer: NotebookQuestions.Answer
    private let gate = AsyncStream<Void>.makeStream()
    let asked = Counter()

    init(first: String, rest: String, answer: NotebookQuestions.Answer) {
        self.first = first
        self.rest = rest
        self.answer = answer
    }

    func release() { gate.continuation.finish() }

    func prewarm() async throws {}

    func ask(_ question: String, onEvent: @escaping @Sendable (NotebookQuestions.Event) -> Void) async throws -> NotebookQuestions.Answer {
        asked.increment()
        onEvent(.toolCall(name: "search_notes", arguments: #"{"query":"piano lesson"}"#))
        onEvent(.answerText(first))
        for await _ in gate.stream {}
        try Task.checkCancellation()
        onEvent(.answerText(first + rest))
        onEvent(.answered(answer))
        return answer
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// One HTTP/1.1 request on a connection of its own, read as it arrives.
final class HTTPClientConnection: @unchecked Sendable {
    private let socket: Int32
    private(set) var received: [UInt8] = []

    init(port: Int, path: String, cookie: String) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count - 1, 0) }
    }

    deinit { close(socket) }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// Reads until `marker` has arrived (true) or the server closed the connection (false).
    @discardableResult
    func read(until marker: String) -> Bool {
        while !text.contains(marker) {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received += buffer.prefix(count)
        }
        return true
    }

    /// The status, the headers and the body (de-chunked), once the server has closed the connection.
    func response() -> (status: Int, headers: String, body: String) {
        read(until: "\u{0}never")
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let split = (0...max(0, received.count - 4)).first(where: { Array(received[$0..<min($0 + 4, received.count)]) == separator }) else {
            return (0, text, "")
        }
        let head = String(decoding: received[..<split], as: UTF8.self)
        var body = Array(received[(split + 4)...])
        if head.lowercased().contains("transfer-encoding: chunked") {
            var decoded: [UInt8] = [], at = 0
            while let lineEnd = (at..<max(at, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }),
                  let size = Int(String(decoding: body[at..<lineEnd], as: UTF8.self), radix: 16), size > 0 {
                decoded += body[(lineEnd + 2)..<(lineEnd + 2 + size)]
                at = lineEnd + 2 + size + 2
            }
            body = decoded
        }
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head, String(decoding: body, as: UTF8.self))
    }
}

struct NotebookServerTests {
    let directory = TemporaryDirectory()

    func start(_ questions: GatedQuestions) throws -> (NotebookServer, cookie: String) {
        let home = NotebookHome(path: directory.path)
        _ = try LocalNotebook.open(home)
        let server = try NotebookServer(home: home, environment: [:], port: 0, questions: { questions })
        return (server, "notes_token_\(server.http.port)=\(server.access.token)")
    }

    @Test func theAnswerArrivesAsItIsWrittenWhileOtherPagesAreServed() async throws {
        let questions = GatedQuestions(first: "The piano lesson", rest: " is on Thursday.",
                                       answer: .init(text: "The piano lesson is on Thursday.", sources: [], searches: ["piano lesson"]))
        let (server, cookie) = try start(questions)
        defer { server.stop() }
        let port = server.http.port
        let ask = try HTTPClientConnection(port: port, path: "/ask?q=when%20is%20the%20piano%20lesson%3F", cookie: cookie)
        // The first words are on the page while the model is still writing (it waits for us).
        #expect(try await onOwnThread { ask.read(until: "The piano lesson") })
        #expect(ask.text.contains("Searched the notes for “piano lesson”"))
        #expect(!ask.text.contains("class=\"final\""))
        // Meanwhile another page is served whole.
        let list = try await onOwnThread { try HTTPClientConnection(port: port, path: "/", cookie: cookie).response() }
        #expect(list.status == 200)
        #expect(list.body.contains("<h1>Notes</h1>"))
        questions.release()
        let page = try await onOwnThread { ask.response() }
        #expect(page.status == 200)
        #expect(page.headers.lowercased().contains("transfer-encoding: chunked"))
        #expect(page.body.contains("<p class=\"draft\">The piano lesson is on Thursday.</p>"))
        #expect(page.body.contains("<div class=\"final\"><p>The piano lesson is on Thursday.</p>"))
        #expect(page.body.hasSuffix("</main></body></html>"))
    }

    @Test func stoppingTheServerEndsAnAnswerStillBeingWritten() async throws {
        let questions = GatedQuestions(first: "Thinking", rest: " never shown", answer: .init(text: "never", sources: [], searches: []))
        let (server, cookie) = try start(questions)
        let ask = try HTTPClientConnection(port: server.http.port, path: "/ask?q=anything", cookie: cookie)
        #expect(try await onOwnThread { ask.read(until: "Thinking") })
        server.stop()
        // The connection ends (the stream was closed), though the conversation never went on.
        #expect(try await onOwnThread { !ask.read(until: "never shown") })
        questions.release()
    }
}
