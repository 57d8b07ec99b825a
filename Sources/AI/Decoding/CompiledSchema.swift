// A schema flattened into tables the byte automaton walks: nodes, and literal choices.

/// One step of text that is one of a few fixed byte strings (keys, punctuation, enum values),
/// with what to do once one of them is complete. Options are sorted, so the options that share
/// a prefix are contiguous, and prefix-free, so at most one is complete at a time.
struct LiteralChoice {
    enum Action: Equatable {
        /// The literal was a whole value (an enum string, a boolean).
        case valueDone
        /// Generate the value of the object's property at this index next.
        case property(Int)
        /// Generate the next array item.
        case item
        /// The literal closed the container below it.
        case close
        /// The literal opened this alternative of an `anyOf`: the object at node `object`, whose
        /// first property's value was part of the literal (a constant) or comes next.
        case alternative(object: Int, firstValueDone: Bool)
    }

    var options: [[UInt8]]
    var actions: [Action]

    init(_ pairs: [([UInt8], Action)]) {
        let sorted = pairs.sorted { $0.0.lexicographicallyPrecedes($1.0) }
        options = sorted.map(\.0)
        actions = sorted.map(\.1)
    }
}

final class CompiledSchema: @unchecked Sendable {
    enum Node {
        case object(properties: [Int], start: Int, after: [Int])
        case string(minLength: Int, maxLength: Int)
        case pattern(Int, maxLength: Int)
        case literal(choice: Int)
        case integer(minimum: Int64, maximum: Int64)
        case number(minimum: Int64, maximum: Int64, fractionDigits: Int, maxIntegerDigits: Int)
        case array(item: Int, minimum: Int, maximum: Int, commaOnly: Int, closeOnly: Int, either: Int)
    }

    private(set) var nodes: [Node] = []
    private(set) var choices: [LiteralChoice] = []
    private(set) var patterns: [Pattern] = []
    let root: Int

    /// The separators of the JSON we generate, as Python's json.dumps writes it: models have seen
    /// a great deal of it, and one fixed layout makes punctuation fully determined.
    static let comma: [UInt8] = Array(", ".utf8)

    init(_ schema: GenerationSchema) throws(SchemaError) {
        try schema.validateDefinition()
        root = 0
        _ = compile(schema)
    }

    private func addChoice(_ pairs: [([UInt8], LiteralChoice.Action)]) -> Int {
        choices.append(LiteralChoice(pairs))
        return choices.count - 1
    }

    private func compile(_ schema: GenerationSchema) -> Int {
        let index = nodes.count
        nodes.append(.literal(choice: -1))
        switch schema {
        case .object(let object):
            let children = object.properties.map { compile($0.schema) }
            let keys = object.properties.map { property -> [UInt8] in
                var quoted = ""
                JSONParser.quote(property.name, into: &quoted)
                return Array(quoted.utf8) + Array(": ".utf8)
            }
            // After property `from` (-1: after the opening brace), the next property can be any
            // later one up to and including the first required one; the end only if none is required.
            func options(after from: Int, prefix: [UInt8], close: [UInt8]) -> [([UInt8], LiteralChoice.Action)] {
                var result: [([UInt8], LiteralChoice.Action)] = []
                var next = from + 1
                while next < object.properties.count {
                    result.append((prefix + keys[next], .property(next)))
                    if !object.properties[next].isOptional { return result }
                    next += 1
                }
                result.append((close, .close))
                return result
            }
            let start = addChoice(options(after: -1, prefix: Array("{".utf8), close: Array("{}".utf8)))
            let after = object.properties.indices.map { addChoice(options(after: $0, prefix: Self.comma, close: Array("}".utf8))) }
            nodes[index] = .object(properties: children, start: start, after: after)
        case .string(let string):
            if let anyOf = string.anyOf {
                let literals = Set(anyOf).map { value -> [UInt8] in
                    var quoted = ""
                    JSONParser.quote(value, into: &quoted)
                    return Array(quoted.utf8)
                }
                nodes[index] = .literal(choice: addChoice(literals.map { ($0, .valueDone) }))
            } else if let source = string.pattern, let pattern = try? Pattern(source) {
                patterns.append(pattern)
                nodes[index] = .pattern(patterns.count - 1, maxLength: string.maxLength ?? Int.max)
            } else {
                nodes[index] = .string(minLength: string.minLength, maxLength: string.maxLength ?? Int.max)
            }
        case .integer(let integer):
            let limit: Int64 = 999_999_999_999_999_999
            nodes[index] = .integer(minimum: max(Int64(integer.minimum ?? Int(-limit)), -limit),
                                    maximum: min(Int64(integer.maximum ?? Int(limit)), limit))
        case .number(let number):
            let (minimum, maximum) = Self.scaledBounds(number)
            nodes[index] = .number(minimum: minimum, maximum: maximum, fractionDigits: number.fractionDigits,
                                   maxIntegerDigits: 17 - number.fractionDigits)
        case .boolean:
            nodes[index] = .literal(choice: addChoice([(Array("true".utf8), .valueDone), (Array("false".utf8), .valueDone)]))
        case .array(let array):
            let item = compile(array.items)
            let commaOnly = addChoice([(Self.comma, .item)])
            let closeOnly = addChoice([(Array("]".utf8), .close)])
            let either = addChoice([(Self.comma, .item), (Array("]".utf8), .close)])
            nodes[index] = .array(item: item, minimum: array.minimumCount, maximum: array.maximumCount ?? Int.max,
                                  commaOnly: commaOnly, closeOnly: closeOnly, either: either)
        case .anyOf(let union):
            // One literal choice among the alternatives' openings; once one is complete, the
            // automaton continues inside that alternative's object (validated: prefix-free).
            var openings: [([UInt8], LiteralChoice.Action)] = []
            for alternative in union.alternatives {
                guard let opening = alternative.unionOpening else { continue }
                openings.append((Array(opening.text.utf8), .alternative(object: compile(alternative), firstValueDone: opening.includesValue)))
            }
            nodes[index] = .literal(choice: addChoice(openings))
        }
        return index
    }
}

extension CompiledSchema {
    /// A number's range in units of its last fraction digit: the numbers it can write exactly.
    static func scaledBounds(_ number: GenerationSchema.NumberSchema) -> (Int64, Int64) {
        let scale = Double(pow10(number.fractionDigits))
        let limit = Double(pow10(17)) - 1
        func scaled(_ value: Double?, up: Bool) -> Int64 {
            guard let value else { return up ? -Int64(limit) : Int64(limit) }
            let raw = value * scale
            let nearest = raw.rounded()
            // 0.3 * 10 is 3.0000000000000004: a bound written with these digits is kept exactly.
            let exact = abs(raw - nearest) < 1e-6 * max(1, abs(raw)) ? nearest : (up ? raw.rounded(.up) : raw.rounded(.down))
            return Int64(max(-limit, min(limit, exact)))
        }
        return (scaled(number.minimum, up: true), scaled(number.maximum, up: false))
    }
}

func pow10(_ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<exponent { result *= 10 }
    return result
}
