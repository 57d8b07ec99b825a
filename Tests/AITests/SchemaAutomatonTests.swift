// The automaton's rules one by one: exact ranges, strings, escapes, UTF-8, counts, fixed text.
import AITestSupport
import Testing
@testable import AI

private func accepts(_ schema: GenerationSchema, _ text: String) throws -> Bool {
    var automaton = SchemaAutomaton(schema: try CompiledSchema(schema))
    return automaton.feed(bytes: Array(text.utf8)) && automaton.canStop
}

private func acceptsBytes(_ schema: GenerationSchema, _ bytes: [UInt8]) throws -> Bool {
    var automaton = SchemaAutomaton(schema: try CompiledSchema(schema))
    return automaton.feed(bytes: bytes) && automaton.canStop
}

@Suite struct SchemaAutomatonTests {
    @Test func integerRangesAreExact() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<40 {
            let low = Int.random(in: -150...150, using: &generator)
            let high = low + Int.random(in: 0...120, using: &generator)
            let schema = GenerationSchema.integer(low...high)
            for value in -400...400 {
                #expect(try accepts(schema, String(value)) == (low...high).contains(value), "\(value) in \(low)...\(high)")
            }
        }
    }

    @Test func oneToFiveNeverGivesTenOrHundred() throws {
        let schema = GenerationSchema.integer(1...5)
        for text in ["10", "100", "0", "6", "-1", "01", "1.0", "", "-"] { #expect(try !accepts(schema, text), "\(text)") }
        for text in ["1", "3", "5"] { #expect(try accepts(schema, text)) }
        // Inside an object the number ends at the comma: "10" must be refused at its second digit.
        var automaton = SchemaAutomaton(schema: try CompiledSchema(.object(properties: [.init("u", .integer(1...5)), .init("v", .boolean)])))
        let accepted1 = automaton.feed(bytes: Array("{\"u\": 1".utf8))
        #expect(accepted1)
        let accepted2 = automaton.feed(UInt8(ascii: "0"))
        #expect(!accepted2)
    }

    @Test func integersHaveNoLeadingZerosOrNegativeZero() throws {
        let schema = GenerationSchema.integer(-100...100)
        for text in ["00", "01", "-0", "-01", "--1", "+1"] { #expect(try !accepts(schema, text), "\(text)") }
        for text in ["0", "-1", "-100", "100"] { #expect(try accepts(schema, text), "\(text)") }
    }

    @Test func numbersRespectRangesAndDigits() throws {
        let schema = GenerationSchema.number(minimum: -1.5, maximum: 2.25, fractionDigits: 2)
        for text in ["0", "2.25", "-1.5", "-1.49", "1", "0.5", "2.2"] { #expect(try accepts(schema, text), "\(text)") }
        for text in ["2.26", "-1.51", "3", "2.255", "1.", ".5", "00.1", "1e2"] { #expect(try !accepts(schema, text), "\(text)") }
        #expect(try !accepts(.number(minimum: 0.5, maximum: 0.7, fractionDigits: 3), "0.4"))
        #expect(try accepts(.number(minimum: 0.5, maximum: 0.7, fractionDigits: 3), "0.65"))
    }

    @Test func stringsEscapeAndCountScalars() throws {
        let schema = GenerationSchema.string(maxLength: 3)
        for text in ["\"\"", "\"abc\"", "\"a\\\"b\"", "\"\\u00e9\\n\"", "\"日本語\"", "\"😀\""] { #expect(try accepts(schema, text), "\(text)") }
        for text in ["\"abcd\"", "\"a\nb\"", "\"\\x\"", "\"\\ud83d\"", "\"abc", "\"a\"b\""] { #expect(try !accepts(schema, text), "\(text)") }
        #expect(try !accepts(.string(minLength: 2), "\"a\""))
    }

    @Test func invalidUTF8IsRejected() throws {
        let schema = GenerationSchema.string()
        #expect(try acceptsBytes(schema, [0x22, 0xC3, 0xA9, 0x22]))
        for bad: [UInt8] in [[0x22, 0xC3, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xFF, 0x22],
                             [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x80, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22]] {
            #expect(try !acceptsBytes(schema, bad), "\(bad)")
        }
    }

    @Test func enumValuesAndKeysAreFastForwarded() throws {
        let schema = GenerationSchema.object(properties: [
            .init("category", .string(anyOf: ["work", "personal"])),
            .init("done", .boolean),
        ])
        var automaton = SchemaAutomaton(schema: try CompiledSchema(schema))
        #expect(automaton.takeForcedBytes() == Array("{\"category\": \"".utf8))
        let accepted3 = automaton.feed(UInt8(ascii: "p"))
        #expect(accepted3)
        #expect(automaton.takeForcedBytes() == Array("ersonal\", \"done\": ".utf8))
        let accepted4 = automaton.feed(bytes: Array("false".utf8))
        #expect(accepted4)
        #expect(automaton.takeForcedBytes() == Array("}".utf8))
        #expect(automaton.isDone)
    }

    @Test func arraysKeepTheirCounts() throws {
        let schema = GenerationSchema.array(of: .integer(0...9), minimumCount: 1, maximumCount: 2)
        for text in ["[1]", "[1, 2]"] { #expect(try accepts(schema, text), "\(text)") }
        for text in ["[]", "[1, 2, 3]", "[1,2]", "[1 ]"] { #expect(try !accepts(schema, text), "\(text)") }
        #expect(try accepts(.array(of: .boolean, maximumCount: 0), "[]"))
        #expect(try accepts(.array(of: .string()), "[]"))
    }

    @Test func optionalPropertiesMayBeLeftOut() throws {
        let schema = GenerationSchema.object(properties: [
            .init("a", .integer(0...9), optional: true), .init("b", .integer(0...9)), .init("c", .integer(0...9), optional: true),
        ])
        for text in ["{\"b\": 1}", "{\"a\": 1, \"b\": 2}", "{\"b\": 1, \"c\": 2}", "{\"a\": 0, \"b\": 1, \"c\": 2}"] {
            #expect(try accepts(schema, text), "\(text)")
        }
        for text in ["{}", "{\"a\": 1}", "{\"c\": 1, \"b\": 2}"] { #expect(try !accepts(schema, text), "\(text)") }
        #expect(try accepts(.object(properties: [.init("x", .boolean, optional: true)]), "{}"))
    }

    @Test func theTrieAllowsExactlyTheTokensTheAutomatonAccepts() throws {
        let model = FakeTokenModel(seed: 3)
        let schema = try CompiledSchema(.object(properties: [.init("n", .integer(1...5)), .init("s", .string(maxLength: 4))]))
        var automaton = SchemaAutomaton(schema: schema)
        for prefix in ["", "{\"n\": ", "{\"n\": 3, \"s\": \"a", "{\"n\": 3, \"s\": \"\\"] {
            automaton = SchemaAutomaton(schema: schema)
            let accepted5 = automaton.feed(bytes: Array(prefix.utf8))
            #expect(accepted5)
            var viaTrie = Set<Int32>()
            model.vocabulary.trie.forEachAllowed(from: automaton) { viaTrie.insert($0) }
            let oneByOne = Set(model.vocabulary.pieces.indices.filter { index in
                var copy = automaton
                return !model.vocabulary.pieces[index].isEmpty && copy.feed(bytes: model.vocabulary.pieces[index])
            }.map { Int32($0) })
            #expect(viaTrie == oneByOne, "after \(prefix)")
        }
    }

    @Test func patternsMatchWholeStrings() throws {
        let phone = GenerationSchema.string(pattern: #"^\d{3}-\d{4}$"#)
        for text in ["\"555-1234\"", "\"000-0000\""] { #expect(try accepts(phone, text), "\(text)") }
        for text in ["\"5551234\"", "\"555-123\"", "\"555-12345\"", "\"a55-1234\""] { #expect(try !accepts(phone, text), "\(text)") }
        let words = GenerationSchema.string(maxLength: 9, pattern: "(yes|no)( [a-z]+)?")
        for text in ["\"yes\"", "\"no way\"", "\"yes sir\""] { #expect(try accepts(words, text), "\(text)") }
        for text in ["\"ye\"", "\"no  way\"", "\"yes sirrrrr\"", "\"No\""] { #expect(try !accepts(words, text), "\(text)") }
        // Fixed parts of a pattern are fast-forwarded.
        var automaton = SchemaAutomaton(schema: try CompiledSchema(.string(pattern: "id-[0-9]{2}")))
        #expect(automaton.takeForcedBytes() == Array("\"id-".utf8))
        #expect(throws: SchemaError.self) { try CompiledSchema(.string(pattern: "(ab")) }
        #expect(throws: SchemaError.self) { try CompiledSchema(.string(maxLength: 3, pattern: "[a-z]{5}")) }
        #expect(throws: SchemaError.self) { try CompiledSchema(.string(pattern: "\\\"")) }
    }

    @Test func invalidSchemasAreRefusedWithTheirPath() {
        #expect(throws: SchemaError.self) { try CompiledSchema(.integer(minimum: 5, maximum: 1)) }
        #expect(throws: SchemaError.self) { try CompiledSchema(.object(properties: [.init("a", .boolean), .init("a", .boolean)])) }
        #expect(throws: SchemaError.self) { try CompiledSchema(.object(properties: [.init("t", .string(anyOf: []))])) }
        #expect(throws: SchemaError.self) { try CompiledSchema(.number(minimum: -1.99, maximum: -1.79, fractionDigits: 0)) }
    }
}
