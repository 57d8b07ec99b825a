// The guided decoder against a fake model emitting random logits over random schemas: the
// output must always parse, and always meet the schema.
import AITestSupport
import Foundation
import Testing
@testable import AI

/// Random schemas, bounded so that every generation terminates.
struct SchemaGenerator {
    var generator: SeededGenerator

    mutating func schema(depth: Int = 0) -> GenerationSchema {
        let kind = Int.random(in: depth >= 3 ? 0...4 : 0...6, using: &generator)
        switch kind {
        case 0:
            if Bool.random(using: &generator) {
                let values = ["work", "personal", "a\"b", "naïve", "x\\y", "", "w", "wo", "日本"]
                return .string(anyOf: Array(values.shuffled(using: &generator).prefix(Int.random(in: 1...4, using: &generator))))
            }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                let patterns = [#"\d{3}-\d{4}"#, "[a-z]+(, [a-z]+)*", "(yes|no|maybe)", "[A-Z][a-z]{0,5}!?", "a*b?c{2,3}", "[^ ]+ [^ ]+", ".{2,6}"]
                return .string(maxLength: Bool.random(using: &generator) ? 12 : nil, pattern: patterns.randomElement(using: &generator)!)
            }
            let minLength = Int.random(in: 0...3, using: &generator)
            return .string(minLength: minLength, maxLength: minLength + Int.random(in: 0...12, using: &generator))
        case 1:
            let low = Int.random(in: -1200...1200, using: &generator)
            return .integer(low...(low + Int.random(in: 0...[0, 4, 50, 5000].randomElement(using: &generator)!, using: &generator)))
        case 2:
            return Bool.random(using: &generator) ? .integer(minimum: Int.random(in: -50...50, using: &generator)) : .integer(maximum: 7)
        case 3:
            let low = Double(Int.random(in: -2000...2000, using: &generator)) / 100
            let schema = GenerationSchema.number(minimum: low, maximum: low + Double(Int.random(in: 0...500, using: &generator)) / 10,
                                                 fractionDigits: Int.random(in: 0...3, using: &generator))
            // A range with no number of that many digits is refused up front; draw another.
            return (try? schema.validateDefinition()) == nil ? .number(minimum: low, maximum: low + 1, fractionDigits: 2) : schema
        case 4:
            return .boolean
        case 5:
            let minimum = Int.random(in: 0...2, using: &generator)
            return .array(of: schema(depth: depth + 1), minimumCount: minimum, maximumCount: minimum + Int.random(in: 0...3, using: &generator))
        default:
            let names = ["category", "urgency", "tasks", "summary", "a\"q", "ü", "x"]
            let count = Int.random(in: 0...4, using: &generator)
            return .object("Random", properties: names.shuffled(using: &generator).prefix(count).map {
                .init($0, schema(depth: depth + 1), optional: Int.random(in: 0..<3, using: &generator) == 0)
            })
        }
    }
}

@Suite struct GuidedDecoderPropertyTests {
    @Test func randomLogitsOverRandomSchemasAlwaysMeetTheSchema() async throws {
        var schemas = SchemaGenerator(generator: SeededGenerator(seed: 7))
        var fastForwarded = 0
        for round in 0..<200 {
            let schema = schemas.schema()
            let model = FakeTokenModel(seed: UInt64(round))
            let sampling: GenerationOptions.SamplingMode = switch round % 3 {
            case 0: .greedy
            case 1: .random(top: 5, seed: UInt64(round))
            default: .random(probabilityThreshold: 0.9, seed: UInt64(round))
            }
            var decoder = GuidedDecoder(model: model, options: GenerationOptions(sampling: sampling, temperature: 1.5, maximumResponseTokens: 100_000))
            let compiled = try CompiledSchema(schema)
            let result = try await decoder.generate(schema: compiled, logits: model.nextLogits()) { _ in }
            fastForwarded += result.fastForwardedCount
            let text = try #require(String(validating: result.bytes, as: UTF8.self), "round \(round): invalid UTF-8")
            let content = try GeneratedContent(json: text)
            #expect(throws: Never.self, "round \(round): \(text)") { try schema.validate(content) }
            // An independent parser agrees that it is JSON.
            #expect((try? JSONSerialization.jsonObject(with: Data(result.bytes), options: [.fragmentsAllowed])) != nil, "round \(round): \(text)")
        }
        #expect(fastForwarded > 0)
    }

    @Test func theSameSeedGivesTheSameOutput() async throws {
        let schema = try CompiledSchema(.object(properties: [.init("note", .string(maxLength: 30)), .init("n", .integer(1...5))]))
        var outputs: [[UInt8]] = []
        for _ in 0..<2 {
            let model = FakeTokenModel(seed: 99)
            var decoder = GuidedDecoder(model: model, options: GenerationOptions(sampling: .random(top: 10, seed: 3)))
            outputs.append(try await decoder.generate(schema: schema, logits: model.nextLogits()) { _ in }.bytes)
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func tokensEnterTheModelExactlyAsTheOutputSpellsThem() async throws {
        let schema = try CompiledSchema(.object(properties: [.init("category", .string(anyOf: ["work", "personal"])),
                                                             .init("tasks", .array(of: .string(maxLength: 8), maximumCount: 2))]))
        let model = FakeTokenModel(seed: 5)
        var decoder = GuidedDecoder(model: model, options: GenerationOptions())
        let result = try await decoder.generate(schema: schema, logits: model.nextLogits()) { _ in }
        // The last sampled token and the closing text fixed after it are not evaluated: nothing
        // follows them.
        let spelled = model.appended.flatMap { model.vocabulary.pieces[Int($0)] }
        #expect(result.bytes.starts(with: spelled))
        let tail = result.bytes.dropFirst(spelled.count)
        let closing = tail.reversed().prefix { Array(#""]}"#.utf8).contains($0) }.count
        #expect(tail.count - closing <= 4, "\(String(decoding: tail, as: UTF8.self))")
        #expect(result.fastForwardedCount > 0)
    }

    /// Text the schema fixes is evaluated with the token before it, or with the prompt when it
    /// opens the output: never in a step of its own. The model sees exactly the output's tokens,
    /// and the output is the one decoding after an already evaluated prompt gives.
    @Test func fixedTextTakesNoStepOfItsOwn() async throws {
        var schemas = SchemaGenerator(generator: SeededGenerator(seed: 41))
        var opened = 0
        for round in 0..<120 {
            let schema = try CompiledSchema(schemas.schema())
            let (reference, expected) = try await greedyReading(schema, seed: UInt64(2000 + round))
            let model = FakeTokenModel(seed: UInt64(2000 + round))
            model.contextual = true
            var decoder = GuidedDecoder(model: model, options: GenerationOptions(maximumResponseTokens: 100_000))
            var opening: [Int32] = []
            let result = try await decoder.generate(schema: schema, evaluatePrompt: { tokens throws(GenerationError) in
                opening = tokens
                return try model.append(tokens)
            }) { _ in }
            #expect(result.bytes == expected.bytes, "round \(round)")
            #expect(model.appended.starts(with: opening) && reference.appended.starts(with: opening), "round \(round)")
            if !opening.isEmpty { opened += 1 }
            // One step for the prompt, then at most one per sampled token.
            #expect(model.evaluations <= 1 + result.sampledCount, "round \(round): \(model.evaluations) steps, \(result.sampledCount) sampled")
            let spelled = model.appended.flatMap { model.vocabulary.pieces[Int($0)] }
            #expect(result.bytes.starts(with: spelled), "round \(round)")
        }
        #expect(opened > 20)
    }
}

/// A model whose logits depend only on the tokens so far (as a real model's do), and its greedy
/// output after a prompt already evaluated: what any other way of evaluating must reproduce.
func greedyReading(_ schema: CompiledSchema, seed: UInt64) async throws -> (model: FakeTokenModel, result: DecodeResult) {
    let model = FakeTokenModel(seed: seed)
    model.contextual = true
    var decoder = GuidedDecoder(model: model, options: GenerationOptions(maximumResponseTokens: 100_000))
    return (model, try await decoder.generate(schema: schema, logits: model.logits(after: 0)) { _ in })
}

/// Copies (prompt-lookup decoding) check each drafted token against the token greedy decoding
/// picks under the mask, so with logits that depend only on the sequence (as a model's do) the
/// output never changes, whatever the drafts are drawn from.
@Suite struct DraftingTests {
    @Test func draftsNeverChangeAGreedyOutput() async throws {
        var schemas = SchemaGenerator(generator: SeededGenerator(seed: 31))
        var drafted = 0
        for round in 0..<80 {
            let schema = try CompiledSchema(schemas.schema())
            let (plain, expected) = try await greedyReading(schema, seed: UInt64(500 + round))
            let written = plain.appended
            var generator = SeededGenerator(seed: UInt64(round))
            // The output itself, the output with noise spliced in, and noise alone.
            let noise = (0..<40).map { _ in Int32.random(in: 0..<Int32(plain.vocabulary.count - 1), using: &generator) }
            let sources = [written, Array(written.prefix(written.count / 2)) + noise + Array(written.dropFirst(written.count / 3)), noise]
            for (index, source) in sources.enumerated() {
                let model = FakeTokenModel(seed: UInt64(500 + round))
                model.contextual = true
                var copying = GuidedDecoder(model: model, options: GenerationOptions(maximumResponseTokens: 100_000))
                let result = try await copying.generate(schema: schema, logits: model.logits(after: 0), draftSource: source, draftLength: 6) { _ in }
                #expect(result.bytes == expected.bytes, "round \(round), source \(index)")
                #expect(result.tokenCount == expected.tokenCount && result.fastForwardedCount == expected.fastForwardedCount)
                // Refused drafts are dropped; a draft that ends the output has its last token evaluated too.
                #expect(model.appended.starts(with: written) && model.appended.count <= written.count + 1, "round \(round), source \(index)")
                drafted += result.draftedCount
            }
        }
        #expect(drafted > 100, "drafts from the output itself are taken")
    }

    @Test func draftsAreOffWhenSampling() async throws {
        let schema = try CompiledSchema(.object(properties: [.init("note", .string(maxLength: 30))]))
        let model = FakeTokenModel(seed: 8)
        model.contextual = true
        var decoder = GuidedDecoder(model: model, options: GenerationOptions(sampling: .random(top: 5, seed: 1)))
        let result = try await decoder.generate(schema: schema, logits: model.logits(after: 0), draftSource: Array(0..<200), draftLength: 6) { _ in }
        #expect(result.draftedCount == 0)
    }
}

@Suite struct TokenChoiceTests {
    /// Trying the most likely tokens first must choose exactly what masking the whole vocabulary
    /// would: the best allowed token for greedy, the k best allowed ones for top-k.
    @Test func tryingLikelyTokensFirstEqualsFullMasking() async throws {
        var schemas = SchemaGenerator(generator: SeededGenerator(seed: 21))
        for round in 0..<60 {
            let schema = try CompiledSchema(schemas.schema())
            let model = FakeTokenModel(seed: UInt64(1000 + round))
            var writer = GuidedDecoder(model: model, options: GenerationOptions(sampling: .random(top: 3, seed: UInt64(round))))
            let output = try await writer.generate(schema: schema, logits: model.nextLogits()) { _ in }.bytes
            // Replay the output; at every byte boundary compare the two ways of choosing.
            var automaton = SchemaAutomaton(schema: schema)
            for byte in output {
                let logits = model.nextLogits()
                var allowed: [Int32] = []
                model.vocabulary.trie.forEachAllowed(from: automaton) { allowed.append($0) }
                if automaton.canStop { allowed.append(model.endToken) }
                let best = allowed.max { (logits[Int($0)], -$0) < (logits[Int($1)], -$1) }
                var greedy = GuidedDecoder(model: model, options: GenerationOptions())
                var scratch: [Int32] = []
                #expect(try greedy.pick(logits, automaton: automaton, allowed: &scratch) == best)
                let fed = automaton.feed(byte)
                #expect(fed)
            }
        }
    }
}
