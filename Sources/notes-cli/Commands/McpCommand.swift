// `notes mcp`: the notebook as a Model Context Protocol server on standard input and output.
// The protocol is the MCP library's; this wires it to the streams, the notebook's changes on
// disk and the stop signals.
#if canImport(Glibc)
import Glibc
#endif
import MCP
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
        let access = try NotebookAccess.open(home: context.notebookHome, environment: context.environment, allowWrite: writes)
        let watcher = try ChangeWatcher(notebook: context.notebookHome)
        let server = try MCPServer(access: access, version: NotesCLI.version)
        let err = context.terminal.err
        server.log = { line in
            err.write(line + "\n")
            err.flush()
        }
        server.log("notes mcp: serving \(context.home) \(writes ? "(add, append and done allowed)" : "(read-only)"); end of input or Ctrl-C stops it")
        let out = context.terminal.out
        func send(_ messages: [JSON]) {
            for message in messages { out.write(message.render(indent: nil) + "\n") }
            out.flush()
        }
        var lines = RequestLines()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            switch watcher.wait(milliseconds: -1, input: 0) {
            case .signal:
                send(server.close())
                return
            case .changed:
                do {
                    send(try server.notebookChanged())
                } catch {
                    server.log("notes mcp: cannot read the notebook's changes: \(NotesCLI.describe(error, context: context))")
                }
            case .readable:
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else {
                    if let last = lines.finish() { send(server.receive(last)) }
                    return
                }
                for line in lines.append(buffer[..<count]) { send(server.receive(line)) }
            case .timeout:
                break
            }
        }
    }
}
