// `notes serve`: the notebook as a local page in the browser. The server is Notebook's
// (Notebook/Serve); this parses the port and prints the address.
import Notebook
import Notes

struct ServeCommand: NotesCommand {
    static let port = Option("--port", type: .integer("n", in: 0...65_535), help: "Listen on this port (default 8765; 0: any free one).")

    static let configuration = CommandConfiguration(
        name: "serve",
        abstract: "Serve the notebook as a page in your browser, on this machine only.",
        discussion: """
            Listens on 127.0.0.1 (and ::1) only and prints an address with a random token: open
            it in a browser. Only that address opens the page (the token is kept in a cookie
            after the first visit); a request for another host name, from another site, or a
            change without the page's own form value is refused. The notes, newest first, with
            filters; search as you type; a note rendered with its tasks to tick, links,
            backlinks, related notes and a picture of them; tasks by due day; asking (as
            'notes ask'); editing and adding notes (a note
            changed elsewhere meanwhile is not overwritten). SIGINT or SIGTERM stops it.
            """,
        options: [port]
    )

    let port: Int

    init(arguments: ParsedArguments) throws(UsageError) {
        port = arguments[Self.port] ?? 8765
    }

    func run(_ context: Context) throws {
        let err = context.terminal.err
        try NotebookServer.serve(home: context.notebookHome, environment: context.environment, port: port) { line in
            err.write(line + "\n")
            err.flush()
        }
    }
}
