// `notes serve`: the notebook's pages on 127.0.0.1 (and ::1) until SIGINT or SIGTERM.
import Foundation
import Notes
import Synchronization

public final class NotebookServer: @unchecked Sendable {
    public let http: HTTPServer
    public let access: PageAccess

    /// The address to open, with its token.
    public var address: String { "http://127.0.0.1:\(http.port)/?token=\(access.token)" }

    /// Starts serving the notebook at `home` on `port` (0: any free one).
    /// `questions` opens what answers the ask page (by default the reading model the environment names).
    public init(home: NotebookHome, environment: [String: String], port: Int, clock: @escaping @Sendable () -> Timestamp = { .current },
                questions: (@Sendable () throws -> any QuestionAnswering)? = nil) throws {
        let notebook = try LocalNotebook.open(home)
        // The port is known once listening (port 0), and the pages' access rule needs it: until
        // the pages are made, a request is told to retry (none can come before the address is printed).
        let pages = Mutex<NotebookPages?>(nil)
        http = try HTTPServer(port: port, maximumBody: NotebookPages.maximumBody) { request in
            // Each connection has a thread; the notebook is used by one at a time (an answer being
            // written is not: it has a connection of its own and its own thread, `AskLane`).
            pages.withLock { pages in
                pages?.respond(to: request) ?? HTTPResponse(status: 503, headers: [("Retry-After", "1")])
            }
        }
        access = PageAccess(port: http.port)
        let made = NotebookPages(notebook: notebook, home: home, embedder: TextEmbeddings.fromEnvironment(environment), access: access, clock: clock,
                                 questions: questions ?? { try NotebookQuestions.open(home: home, environment: environment, now: clock()) })
        pages.withLock { $0 = made }
    }

    /// Serves until SIGINT, SIGTERM or SIGHUP, then stops listening; `log` gets the lines for people.
    public static func serve(home: NotebookHome, environment: [String: String], port: Int, log: (String) -> Void) throws {
        let signals = try ChangeWatcher(notebook: home)
        let server = try NotebookServer(home: home, environment: environment, port: port)
        log("notes serve: open \(server.address)")
        log("(only this address opens the page: keep it to yourself; Ctrl-C stops the server)")
        while true {
            if case .signal = signals.wait(milliseconds: -1, input: nil) { break }
        }
        server.stop()
        log("notes serve: stopped")
    }

    public func stop() { http.stop() }
}
