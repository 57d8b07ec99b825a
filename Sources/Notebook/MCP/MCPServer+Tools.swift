// `tools/call`: the arguments checked against the tool's schema, the write tools refused without
// `--allow-write`, and every failure a tool error the client's model can read and act on.
import MCP
import Notes

extension MCPServer {
    func callTool(_ params: JSON?) throws -> JSON {
        guard let name = params?["name"]?.string else { throw RPCError(RPCError.invalidParams, "tools/call needs a \"name\" (a string)") }
        guard let tool = NotebookTools.all.first(where: { $0.name == name }) else {
            let names = NotebookTools.all.filter { access.allowWrite || !$0.writes }.map(\.name).joined(separator: ", ")
            throw RPCError(RPCError.invalidParams, "Unknown tool '\(name)' (the tools are \(names))")
        }
        let arguments = params?["arguments"] ?? .object([])
        if tool.writes, !access.allowWrite {
            return Self.toolError("'\(name)' changes the notebook, and this server was started read-only; nothing was changed. "
                + "The user can allow changes by starting it as `notes mcp --allow-write`.")
        }
        if let problem = tool.input.problem(with: arguments) {
            return Self.toolError("Invalid arguments for '\(name)': \(problem); nothing was done.")
        }
        let output: JSON
        do {
            output = try tool.call(arguments, access)
        } catch {
            return Self.toolError(String(describing: error))
        }
        return .object([
            ("content", .array([.object([("type", .string("text")), ("text", .string(output.render(indent: nil)))])])),
            ("structuredContent", output),
            ("isError", .bool(false)),
        ])
    }

    static func toolError(_ message: String) -> JSON {
        .object([("content", .array([.object([("type", .string("text")), ("text", .string(message))])])), ("isError", .bool(true))])
    }
}
