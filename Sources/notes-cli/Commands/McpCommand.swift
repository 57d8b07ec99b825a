// `notes mcp`: the notebook as a Model Context Protocol server on standard input and output.
// The server and its loop are Notebook's (Notebook/MCP); this gives them the streams.
import Notebook
import Notes

struct McpCommand: NotesCommand {
    static let allowWrite = Flag("--allow-write", help: "Serve the add, append and done tools: let the client change notes.")

    static let configuration = CommandConfiguration(
        name: "mcp",
        abstract: "Serve the notebook to an assistant over the Model Context Protocol (stdio).",
        discussion: """
            For a desktop chat app, an editor's agent or a terminal agent that speaks MCP: register
            the command 'notes' with the arguments ["mcp"]. Standard output carries the protocol
            only (one JSON-RPC message a line); messages for people go to standard error. Tools:
            search, show, related, links, tasks, ask; with --allow-write also add, append and
            done. Each note is a resource, notes://ID, and a note changed by another process
            (the CLI, the daemon, a sync) is notified while the server runs. Without
            --allow-write the server opens the notebook read-only. End of input, SIGTERM or
            SIGINT stop it.
            """,
        options: [allowWrite]
    )

    let writes: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        writes = arguments[Self.allowWrite]
    }

    func run(_ context: Context) throws {
        let err = context.terminal.err
        let out = context.terminal.out
        try MCPServer.serveStandardStreams(
            home: context.notebookHome, environment: context.environment, allowWrite: writes, version: NotesCLI.version,
            log: { line in
                err.write(line + "\n")
                err.flush()
            },
            write: { lines in
                out.write(lines)
                out.flush()
            })
    }
}
