// A tool's schema: the JSON Schema clients see, and the checks that name what an argument misses.
@testable import MCP
import Notes
import Testing

struct ToolSchemaTests {
    let schema = ToolSchema.object(properties: [
        ("query", .string(minLength: 1, maxLength: 5)),
        ("mode", .string(choices: ["a", "b"])),
        ("limit", .integer(minimum: 1, maximum: 10)),
        ("tags", .array(of: .string())),
        ("due", .nullable(.string())),
    ], required: ["query"])

    @Test func rendersJSONSchema() {
        #expect(schema.json.render(indent: nil) == #"{"type":"object","properties":{"query":{"type":"string","minLength":1,"maxLength":5},"#
            + #""mode":{"type":"string","enum":["a","b"]},"limit":{"type":"integer","minimum":1,"maximum":10},"tags":{"type":"array","items":{"type":"string"}},"#
            + #""due":{"type":["string","null"]}},"required":["query"],"additionalProperties":false}"#)
        #expect(ToolSchema.nullable(.string(choices: ["x"])).json == .object([("type", .array([.string("string"), .string("null")])), ("enum", .array([.string("x"), .null]))]))
    }

    @Test(arguments: [
        (#"{"query": "ok"}"#, nil),
        (#"{"query": "ok", "limit": 3.0, "due": null, "tags": ["a"]}"#, nil),
        (#"{}"#, "missing the required argument 'query'"),
        (#"{"query": ""}"#, "'query' must not be empty"),
        (#"{"query": "toolong"}"#, "'query' must be at most 5 characters"),
        (#"{"query": 1}"#, "'query' must be a string, not a number"),
        (#"{"query": "ok", "mode": "c"}"#, "'mode' must be one of 'a', 'b', not 'c'"),
        (#"{"query": "ok", "limit": 0}"#, "'limit' must be at least 1, not 0"),
        (#"{"query": "ok", "limit": 2.5}"#, "'limit' must be a whole number, not a number"),
        (#"{"query": "ok", "limit": true}"#, "'limit' must be a whole number, not a boolean"),
        (#"{"query": "ok", "tags": ["a", 2]}"#, "'tags'[1] must be a string, not a number"),
        (#"{"query": "ok", "due": 3}"#, "'due' must be a string or null, not a number"),
        (#"{"query": "ok", "verbose": true}"#, "unknown argument 'verbose' (this tool takes 'query', 'mode', 'limit', 'tags', 'due')"),
        (#"[]"#, "the arguments must be an object, not an array"),
    ] as [(String, String?)])
    func namesWhatAnArgumentMisses(arguments: String, problem: String?) throws {
        #expect(schema.problem(with: try JSON.parse(arguments)) == problem)
    }
}
