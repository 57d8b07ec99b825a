// `notes mcp`'s loop: the server on standard input and output, woken by a request line, by a
// change to the notebook on disk (another process wrote it) or by a stop signal.
#if canImport(Glibc)
import Glibc
#endif
import MCP
import Notes

extension MCPServer {
    /// Serves the notebook at `home` until end of input, SIGINT or SIGTERM. `write` gets each
    /// batch of outgoing messages, already rendered one a line; `log` what people should read.
    public static func serveStandardStreams(
        home: NotebookHome, environment: [String: String], allowWrite: Bool, version: String,
        log: @escaping (String) -> Void, write: (String) -> Void
    ) throws {
        let access = try NotebookAccess.open(home: home, environment: environment, allowWrite: allowWrite)
        let watcher = try ChangeWatcher(notebook: home)
        let server = try MCPServer(access: access, version: version)
        server.log = log
        log("notes mcp: serving \(home.path) \(allowWrite ? "(add, append and done allowed)" : "(read-only)"); end of input or Ctrl-C stops it")
        func send(_ messages: [JSON]) {
            guard !messages.isEmpty else { return }
            write(messages.map { $0.render(indent: nil) + "\n" }.joined())
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
                    log("notes mcp: cannot read the notebook's changes: \(ErrorMessage.describe(error, home: home))")
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
