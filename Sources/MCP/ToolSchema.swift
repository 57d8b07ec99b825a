// The schema of a tool's input or output, declared once: rendered as the JSON Schema clients
// see, and checked against the arguments a client sends (an argument that misses the schema is
// a tool error that names it, before any tool runs).
import Notes

public indirect enum ToolSchema: Sendable {
    case string(description: String? = nil, minLength: Int? = nil, maxLength: Int? = nil, choices: [String]? = nil)
    case integer(description: String? = nil, minimum: Int? = nil, maximum: Int? = nil)
    case number(description: String? = nil)
    case boolean(description: String? = nil)
    case array(of: ToolSchema, description: String? = nil)
    /// Properties in order; no others are allowed.
    case object(properties: [(String, ToolSchema)], required: [String], description: String? = nil)
    /// The schema, or null.
    case nullable(ToolSchema)

    /// The JSON Schema (2020-12) for it.
    public var json: JSON {
        switch self {
        case let .string(description, minLength, maxLength, choices):
            return Self.schema("string", description, [("minLength", minLength.map(JSON.int)), ("maxLength", maxLength.map(JSON.int)),
                                                        ("enum", choices.map { .array($0.map(JSON.string)) })])
        case let .integer(description, minimum, maximum):
            return Self.schema("integer", description, [("minimum", minimum.map(JSON.int)), ("maximum", maximum.map(JSON.int))])
        case let .number(description): return Self.schema("number", description, [])
        case let .boolean(description): return Self.schema("boolean", description, [])
        case let .array(items, description): return Self.schema("array", description, [("items", items.json)])
        case let .object(properties, required, description):
            return Self.schema("object", description, [
                ("properties", .object(properties.map { ($0.0, $0.1.json) })),
                ("required", required.isEmpty ? nil : .array(required.map(JSON.string))),
                ("additionalProperties", .bool(false)),
            ])
        case let .nullable(schema):
            guard case var .object(pairs) = schema.json, let type = schema.json["type"]?.string else { return schema.json }
            pairs = pairs.map { $0.0 == "type" ? ("type", .array([.string(type), .string("null")])) : $0 }
            if let index = pairs.firstIndex(where: { $0.0 == "enum" }), case let .array(choices) = pairs[index].1 {
                pairs[index].1 = .array(choices + [.null])
            }
            return .object(pairs)
        }
    }

    private static func schema(_ type: String, _ description: String?, _ rest: [(String, JSON?)]) -> JSON {
        .object([("type", .string(type))] + (description.map { [("description", JSON.string($0))] } ?? [])
            + rest.compactMap { key, value in value.map { (key, $0) } })
    }

    /// What is wrong with `value`, in words a client (or the model behind it) can act on; nil
    /// when it fits. `path` names the value: `'limit'`, `'tags'[2]`.
    public func problem(with value: JSON, at path: String = "the arguments") -> String? {
        switch (self, value) {
        case let (.nullable(schema), value):
            if value == .null { return nil }
            return schema.hasType(of: value) ? schema.problem(with: value, at: path) : "\(path) must be \(kind), not \(Self.describe(value))"
        case let (.string(_, minLength, maxLength, choices), .string(text)):
            if let choices, !choices.contains(text) { return "\(path) must be one of \(choices.map { "'\($0)'" }.joined(separator: ", ")), not '\(text)'" }
            if let minLength, text.count < minLength { return minLength == 1 ? "\(path) must not be empty" : "\(path) must be at least \(minLength) characters" }
            if let maxLength, text.count > maxLength { return "\(path) must be at most \(maxLength) characters" }
            return nil
        case let (.integer(_, minimum, maximum), value) where value.int != nil:
            let number = value.int!
            if let minimum, number < minimum { return "\(path) must be at least \(minimum), not \(number)" }
            if let maximum, number > maximum { return "\(path) must be at most \(maximum), not \(number)" }
            return nil
        case (.number, .int), (.number, .double), (.boolean, .bool):
            return nil
        case let (.array(items, _), .array(values)):
            for (index, item) in values.enumerated() {
                if let problem = items.problem(with: item, at: "\(path)[\(index)]") { return problem }
            }
            return nil
        case let (.object(properties, required, _), .object(pairs)):
            for (key, _) in pairs where !properties.contains(where: { $0.0 == key }) {
                let known = properties.map { "'\($0.0)'" }.joined(separator: ", ")
                return "unknown argument '\(key)'" + (known.isEmpty ? " (this tool takes none)" : " (this tool takes \(known))")
            }
            for name in required where value[name] == nil { return "missing the required argument '\(name)'" }
            for (name, schema) in properties {
                if let given = value[name], let problem = schema.problem(with: given, at: "'\(name)'") { return problem }
            }
            return nil
        default:
            return "\(path) must be \(kind), not \(Self.describe(value))"
        }
    }

    /// Whether `value` is of the schema's JSON type (whatever else it misses).
    func hasType(of value: JSON) -> Bool {
        switch (self, value) {
        case (.string, .string), (.number, .int), (.number, .double), (.boolean, .bool), (.array, .array), (.object, .object): true
        case let (.integer, value): value.int != nil
        case let (.nullable(schema), value): value == .null || schema.hasType(of: value)
        default: false
        }
    }

    /// What the schema expects, for messages: "a string", "an object".
    var kind: String {
        switch self {
        case .string: "a string"
        case .integer: "a whole number"
        case .number: "a number"
        case .boolean: "true or false"
        case .array: "an array"
        case .object: "an object"
        case let .nullable(schema): schema.kind + " or null"
        }
    }

    static func describe(_ value: JSON) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
