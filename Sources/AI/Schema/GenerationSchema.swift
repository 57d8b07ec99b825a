// The schema DSL: what a guided generation must produce, as a value that can be built at run time.

/// The shape of a generated JSON value. Build it with the static constructors, either once for a
/// `Generable` type or at run time from data (a "dynamic" schema is just a value built later).
public indirect enum GenerationSchema: Sendable, Hashable {
    case object(ObjectSchema)
    case string(StringSchema)
    case integer(IntegerSchema)
    case number(NumberSchema)
    case boolean
    case array(ArraySchema)
    /// One of several objects, told apart by their first property (see `anyOf(_:)`).
    case anyOf(AnyOfSchema)

    public struct Property: Sendable, Hashable {
        var name: String
        var description: String?
        var schema: GenerationSchema
        /// An optional property may be left out of the generated object.
        var isOptional: Bool

        public init(_ name: String, description: String? = nil, _ schema: GenerationSchema, optional: Bool = false) {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = optional
        }
    }

    public struct ObjectSchema: Sendable, Hashable {
        var name: String?
        var description: String?
        /// Generated in this order.
        var properties: [Property]
    }

    public struct StringSchema: Sendable, Hashable {
        /// When set, the string is exactly one of these values.
        var anyOf: [String]?
        /// In Unicode scalars, which is never fewer than Swift `Character`s.
        var maxLength: Int?
        var minLength: Int
        /// A regular expression the whole string matches (see `Pattern` for the supported subset).
        var pattern: String?
        var description: String?
    }

    public struct IntegerSchema: Sendable, Hashable {
        var minimum: Int?
        var maximum: Int?
        var description: String?
    }

    /// Decimal notation without an exponent, at most `fractionDigits` digits after the point.
    public struct NumberSchema: Sendable, Hashable {
        var minimum: Double?
        var maximum: Double?
        var fractionDigits: Int
        var description: String?
    }

    public struct ArraySchema: Sendable, Hashable {
        var items: GenerationSchema
        var minimumCount: Int
        var maximumCount: Int?
        var description: String?
    }

    public struct AnyOfSchema: Sendable, Hashable {
        var alternatives: [GenerationSchema]
        var description: String?
    }

    // MARK: Constructors

    /// A tagged union of objects: each alternative is an object whose first property is
    /// required, and no two alternatives begin alike, so the opening text (`{"name": "search"`,
    /// or `{"answer": ` when the first property is not a constant) says which one is being
    /// generated. A tool call or the final answer, for instance.
    public static func anyOf(_ alternatives: [GenerationSchema], description: String? = nil) -> GenerationSchema {
        .anyOf(AnyOfSchema(alternatives: alternatives, description: description))
    }

    /// The text an alternative of `anyOf` must begin with: its first key and, when that
    /// property is a string with one allowed value, the value. Nil when it is not an object
    /// with a required first property.
    var unionOpening: (text: String, includesValue: Bool)? {
        guard case .object(let object) = self, let first = object.properties.first, !first.isOptional else { return nil }
        var text = "{"
        JSONParser.quote(first.name, into: &text)
        text += ": "
        if case .string(let string) = first.schema, let values = string.anyOf, Set(values).count == 1 {
            JSONParser.quote(values[0], into: &text)
            return (text, true)
        }
        return (text, false)
    }

    public static func object(_ name: String? = nil, description: String? = nil, properties: [Property]) -> GenerationSchema {
        .object(ObjectSchema(name: name, description: description, properties: properties))
    }

    public static func string(description: String? = nil, anyOf: [String]? = nil, minLength: Int = 0,
                              maxLength: Int? = nil, pattern: String? = nil) -> GenerationSchema {
        .string(StringSchema(anyOf: anyOf, maxLength: maxLength, minLength: minLength, pattern: pattern, description: description))
    }

    public static func integer(description: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> GenerationSchema {
        .integer(IntegerSchema(minimum: minimum, maximum: maximum, description: description))
    }

    public static func integer(_ range: ClosedRange<Int>, description: String? = nil) -> GenerationSchema {
        .integer(IntegerSchema(minimum: range.lowerBound, maximum: range.upperBound, description: description))
    }

    static func number(description: String? = nil, minimum: Double? = nil, maximum: Double? = nil,
                              fractionDigits: Int = 4) -> GenerationSchema {
        .number(NumberSchema(minimum: minimum, maximum: maximum, fractionDigits: max(0, fractionDigits), description: description))
    }

    public static func array(of items: GenerationSchema, minimumCount: Int = 0, maximumCount: Int? = nil,
                             description: String? = nil) -> GenerationSchema {
        .array(ArraySchema(items: items, minimumCount: max(0, minimumCount), maximumCount: maximumCount, description: description))
    }

    /// Checks that the schema can be generated at all, with a message naming the culprit.
    func validateDefinition(path: String = "$") throws(SchemaError) {
        switch self {
        case .object(let object):
            var seen = Set<String>()
            for property in object.properties {
                guard seen.insert(property.name).inserted else { throw SchemaError("\(path): duplicate property \"\(property.name)\"") }
                try property.schema.validateDefinition(path: "\(path).\(property.name)")
            }
        case .string(let string):
            if let anyOf = string.anyOf, anyOf.isEmpty { throw SchemaError("\(path): anyOf is empty") }
            if let max = string.maxLength, max < string.minLength { throw SchemaError("\(path): maxLength < minLength") }
            if let pattern = string.pattern {
                if string.anyOf != nil { throw SchemaError("\(path): a string cannot have both anyOf and a pattern") }
                if string.minLength > 0 { throw SchemaError("\(path): use the pattern for a minimum length") }
                let compiled: Pattern
                do { compiled = try Pattern(pattern) } catch { throw SchemaError("\(path): \(error.message)") }
                if let max = string.maxLength, compiled.remaining(compiled.start) > max {
                    throw SchemaError("\(path): pattern \(pattern) needs more than \(max) characters")
                }
            }
        case .integer(let integer):
            if let lo = integer.minimum, let hi = integer.maximum, lo > hi { throw SchemaError("\(path): minimum > maximum") }
        case .number(let number):
            if let lo = number.minimum, let hi = number.maximum, lo > hi { throw SchemaError("\(path): minimum > maximum") }
            if number.fractionDigits > 12 { throw SchemaError("\(path): at most 12 fraction digits") }
            let (low, high) = CompiledSchema.scaledBounds(number)
            if low > high { throw SchemaError("\(path): no number with \(number.fractionDigits) fraction digits in the range") }
        case .boolean:
            break
        case .array(let array):
            if let max = array.maximumCount, max < array.minimumCount { throw SchemaError("\(path): maximumCount < minimumCount") }
            try array.items.validateDefinition(path: "\(path)[]")
        case .anyOf(let union):
            guard !union.alternatives.isEmpty else { throw SchemaError("\(path): anyOf has no alternatives") }
            var openings: [String] = []
            for (index, alternative) in union.alternatives.enumerated() {
                guard let opening = alternative.unionOpening else {
                    throw SchemaError("\(path).anyOf[\(index)]: an alternative must be an object whose first property is required")
                }
                if let clash = openings.firstIndex(where: { $0.utf8.starts(with: opening.text.utf8) || opening.text.utf8.starts(with: $0.utf8) }) {
                    throw SchemaError("\(path).anyOf[\(index)]: begins like anyOf[\(clash)] (\(opening.text)); alternatives are told apart by their first property's name or its one value")
                }
                openings.append(opening.text)
                try alternative.validateDefinition(path: "\(path).anyOf[\(index)]")
            }
        }
    }
}

struct SchemaError: Error, CustomStringConvertible, Sendable, Hashable {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { "invalid schema: \(message)" }
}
