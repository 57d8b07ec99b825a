// The schema as JSON Schema text, for the prompt: the model writes better JSON when it has seen
// what is expected, though the decoder enforces it either way.

extension GenerationSchema {
    public var jsonSchema: GeneratedContent {
        func object(_ pairs: [(String, GeneratedContent?)]) -> GeneratedContent {
            let kept = pairs.compactMap { pair in pair.1.map { (pair.0, $0) } }
            return GeneratedContent(kind: .structure(properties: Dictionary(uniqueKeysWithValues: kept), orderedKeys: kept.map(\.0)))
        }
        func string(_ text: String?) -> GeneratedContent? { text.map { GeneratedContent(kind: .string($0)) } }
        func number<N: CustomStringConvertible>(_ value: N?) -> GeneratedContent? { value.map { GeneratedContent(kind: .number($0.description)) } }
        switch self {
        case .object(let schema):
            let properties = schema.properties.map { property -> (String, GeneratedContent?) in
                var value = property.schema.jsonSchema
                if let description = property.description, case .structure(var fields, var keys) = value.kind {
                    if fields["description"] == nil { keys.insert("description", at: min(1, keys.count)) }
                    fields["description"] = GeneratedContent(kind: .string(description))
                    value = GeneratedContent(kind: .structure(properties: fields, orderedKeys: keys))
                }
                return (property.name, value)
            }
            let required = schema.properties.filter { !$0.isOptional }.map { GeneratedContent(kind: .string($0.name)) }
            return object([("type", string("object")), ("description", string(schema.description)),
                           ("properties", object(properties)), ("required", GeneratedContent(kind: .array(required)))])
        case .string(let schema):
            return object([("type", string("string")), ("description", string(schema.description)),
                           ("enum", schema.anyOf.map { GeneratedContent(kind: .array($0.map { GeneratedContent(kind: .string($0)) })) }),
                           ("minLength", schema.minLength > 0 ? number(schema.minLength) : nil), ("maxLength", number(schema.maxLength)),
                           ("pattern", string(schema.pattern))])
        case .integer(let schema):
            return object([("type", string("integer")), ("description", string(schema.description)),
                           ("minimum", number(schema.minimum)), ("maximum", number(schema.maximum))])
        case .number(let schema):
            return object([("type", string("number")), ("description", string(schema.description)),
                           ("minimum", number(schema.minimum)), ("maximum", number(schema.maximum))])
        case .boolean:
            return object([("type", string("boolean"))])
        case .array(let schema):
            return object([("type", string("array")), ("description", string(schema.description)), ("items", schema.items.jsonSchema),
                           ("minItems", schema.minimumCount > 0 ? number(schema.minimumCount) : nil), ("maxItems", number(schema.maximumCount))])
        case .anyOf(let schema):
            return object([("description", string(schema.description)),
                           ("anyOf", GeneratedContent(kind: .array(schema.alternatives.map(\.jsonSchema))))])
        }
    }
}
