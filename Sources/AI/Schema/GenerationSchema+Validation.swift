// Checks generated content against a schema: the last line of defence behind guided decoding.

extension GenerationSchema {
    /// Throws with the path of the first value that breaks the schema.
    public func validate(_ content: GeneratedContent, path: String = "$") throws(GenerationDecodingError) {
        func fail(_ message: String) -> GenerationDecodingError { GenerationDecodingError("\(path): \(message)") }
        guard content.isComplete else { throw fail("incomplete value") }
        switch (self, content.kind) {
        case (.object(let object), .structure(let properties, let keys)):
            let known = Set(object.properties.map(\.name))
            if let unknown = keys.first(where: { !known.contains($0) }) { throw fail("unexpected property \"\(unknown)\"") }
            for property in object.properties {
                if let value = properties[property.name] {
                    try property.schema.validate(value, path: "\(path).\(property.name)")
                } else if !property.isOptional {
                    throw fail("missing property \"\(property.name)\"")
                }
            }
        case (.string(let string), .string(let text)):
            if let anyOf = string.anyOf, !anyOf.contains(text) { throw fail("\"\(text)\" is not one of \(anyOf)") }
            let length = text.unicodeScalars.count
            if length < string.minLength { throw fail("shorter than \(string.minLength)") }
            if let max = string.maxLength, length > max { throw fail("longer than \(max)") }
            if let pattern = string.pattern, let compiled = try? Pattern(pattern), !compiled.matches(text) {
                throw fail("\"\(text)\" does not match \(pattern)")
            }
        case (.integer(let integer), .number(let text)):
            guard let value = Int(text) else { throw fail("\(text) is not an integer") }
            if let lo = integer.minimum, value < lo { throw fail("\(value) < \(lo)") }
            if let hi = integer.maximum, value > hi { throw fail("\(value) > \(hi)") }
        case (.number(let number), .number(let text)):
            guard let value = Double(text) else { throw fail("\(text) is not a number") }
            if let lo = number.minimum, value < lo { throw fail("\(value) < \(lo)") }
            if let hi = number.maximum, value > hi { throw fail("\(value) > \(hi)") }
        case (.boolean, .bool):
            break
        case (.array(let array), .array(let items)):
            if items.count < array.minimumCount { throw fail("fewer than \(array.minimumCount) items") }
            if let max = array.maximumCount, items.count > max { throw fail("more than \(max) items") }
            for (index, item) in items.enumerated() { try array.items.validate(item, path: "\(path)[\(index)]") }
        case (.anyOf(let union), .structure(let properties, let keys)):
            // The alternative the content opens like decides (the openings are distinct).
            let chosen = union.alternatives.first { alternative in
                guard case .object(let object) = alternative, let first = object.properties.first, first.name == keys.first else { return false }
                if case .string(let string) = first.schema, let values = string.anyOf, Set(values).count == 1 {
                    return properties[first.name]?.kind == .string(values[0])
                }
                return true
            }
            guard let chosen else { throw fail("matches no alternative of anyOf: \(content.jsonString)") }
            try chosen.validate(content, path: path)
        default:
            throw fail("expected \(typeName), got \(content.jsonString)")
        }
    }

    var typeName: String {
        switch self {
        case .object: "object"
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .array: "array"
        case .anyOf: "object (anyOf)"
        }
    }
}
