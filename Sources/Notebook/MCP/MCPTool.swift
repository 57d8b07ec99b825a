// What a tool is to the MCP server (not the ask model's `Tool`): its name and words for the model, its input and output schemas,
// whether it changes the notebook, and the call.
import MCP
import Notes

struct MCPTool: Sendable {
    let name: String
    let title: String
    let description: String
    let input: ToolSchema
    let output: ToolSchema
    /// Served only with `--allow-write`.
    let writes: Bool
    /// The structured output, from arguments that fit `input`.
    let call: @Sendable (JSON, NotebookAccess) throws -> JSON

    /// The entry in `tools/list`.
    var definition: JSON {
        .object([
            ("name", .string(name)),
            ("title", .string(title)),
            ("description", .string(description)),
            ("inputSchema", input.json),
            ("outputSchema", output.json),
            ("annotations", .object([
                ("title", .string(title)),
                ("readOnlyHint", .bool(!writes)),
                ("destructiveHint", .bool(false)),
                ("idempotentHint", .bool(!writes || name == "done")),
                // Nothing outside the notebook on this machine.
                ("openWorldHint", .bool(false)),
            ])),
        ])
    }
}

/// A tool's failure, told to the client as a tool error (`isError`), in the user's words.
struct ToolFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ToolSchema {
    /// An object whose properties are all present (what the tools return).
    static func record(_ properties: [(String, ToolSchema)]) -> ToolSchema {
        .object(properties: properties, required: properties.map(\.0))
    }
}
