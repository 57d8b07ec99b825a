// The JSON value: what it writes, and the strict parser's answers to valid and hostile text.
import Notes
import Testing

struct JSONTests {
    @Test func writesWithAStableKeyOrder() {
        let value = JSON.object([("b", .int(1)), ("a", .array([.string("x\n\"y\""), .null, .bool(true), .double(1.5)]))])
        #expect(value.render(indent: nil) == #"{"b":1,"a":["x\n\"y\"",null,true,1.5]}"#)
        #expect(value.render() == "{\n  \"b\": 1,\n  \"a\": [\n    \"x\\n\\\"y\\\"\",\n    null,\n    true,\n    1.5\n  ]\n}")
        #expect(JSON.double(.infinity).render() == "null")
    }

    @Test func anArrayWrittenItemByItemIsTheSameBytesAsOneRendered() {
        let items: [JSON] = [.object([("id", .int(1)), ("tags", .array([])), ("a", .object([("t", .array([.string("é\u{2028}")]))]))]),
                             .null, .array([.bool(false)])]
        for indent in [2, nil] as [Int?] {
            var bytes: [UInt8] = []
            var drained: [UInt8] = []
            JSON.writeArray(items, to: &bytes, indent: indent, drain: { drained += $0; $0.removeAll() }) { $0 }
            #expect(String(decoding: drained + bytes, as: UTF8.self) == JSON.array(items).render(indent: indent))
            var empty: [UInt8] = []
            JSON.writeArray([Int](), to: &empty, indent: indent, drain: { _ in }) { .int($0) }
            #expect(String(decoding: empty, as: UTF8.self) == "[]")
        }
    }

    @Test func parsesWhatItWrites() throws {
        let value = JSON.object([("id", .int(-7)), ("t", .string("é \u{1F600} \u{2028}")), ("n", .array([.double(0.25), .object([])]))])
        #expect(try JSON.parse(value.render()) == value)
        #expect(try JSON.parse(value.render(indent: nil)) == value)
    }

    @Test func readsEscapesNumbersAndLookups() throws {
        let value = try JSON.parse(#" {"a": "\u00e9\ud83d\ude00\/\t", "big": 12345678901234567890123, "e": 1E3, "i": 42} "#)
        #expect(value["a"]?.string == "é😀/\t")
        #expect(value["big"] == .double(12345678901234567890123))
        #expect(value["e"] == .double(1000))
        #expect(value["e"]?.int == 1000)
        #expect(value["i"]?.int == 42)
        #expect(value["missing"] == nil)
        #expect(value.object?.map(\.0) == ["a", "big", "e", "i"])
    }

    @Test(arguments: [
        ("", "unexpected end of JSON at byte 0"),
        ("{\"a\": 1,}", "expected a property name at byte 8"),
        ("[1 2]", "expected , or ] at byte 3"),
        ("{\"a\": 1, \"a\": 2}", "duplicate property \"a\" at byte 9"),
        ("01", "leading zero in a number at byte 0"),
        ("1e400", "number out of range at byte 0"),
        ("-", "expected a digit at byte 1"),
        ("\"\\ud800\"", "unpaired surrogate at byte 1"),
        ("\"\\udc00x\"", "unpaired surrogate at byte 1"),
        ("\"\\x\"", "invalid escape at byte 1"),
        ("\"a\nb\"", "control character in a string at byte 2"),
        ("\"abc", "unterminated string at byte 4"),
        ("nul", "expected null at byte 3"),
        ("{} {}", "unexpected text after the JSON value at byte 3"),
        ("NaN", "unexpected character at byte 0"),
    ])
    func refusesWhatIsNotJSON(text: String, message: String) {
        #expect(throws: JSONParseError.self) { try JSON.parse(text) }
        do { _ = try JSON.parse(text) } catch { #expect(error.description == message) }
    }

    @Test func refusesInvalidUTF8WithItsOffset() {
        let bytes: [UInt8] = Array("{\"a\": \"ok".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        do {
            _ = try JSON.parse(bytes)
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error == JSONParseError(message: "invalid UTF-8 in a string", offset: 9))
        }
        // Outside a string, a non-ASCII byte is no token at all.
        #expect(throws: JSONParseError.self) { try JSON.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) }
    }

    @Test func limitsDepthAndNumberLength() throws {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError(message: "JSON nested deeper than 64 levels", offset: 64)) { try JSON.parse(deep) }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSON.parse(fine) }
        // A hostile depth far past the limit fails the same way, without exhausting the stack.
        #expect(throws: JSONParseError.self) { try JSON.parse(String(repeating: "{\"a\":", count: 100_000)) }
        let long = "1" + String(repeating: "0", count: 400)
        #expect(throws: JSONParseError(message: "number longer than 400 characters", offset: 0)) { try JSON.parse(long) }
    }
}
