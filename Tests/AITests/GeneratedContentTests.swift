// Parsing generated JSON, partial snapshots, and conversion to typed values.
import Testing
@testable import AI

@Suite struct GeneratedContentTests {
    @Test func parsesEscapesAndSurrogatePairs() throws {
        let content = try GeneratedContent(json: #"{"a": "x\"y\\z\n\u00e9\ud83d\ude00", "b": [1, -2.5, true, null]}"#)
        #expect(try content.value(String.self, forProperty: "a") == "x\"y\\z\né😀")
        guard case .structure(let properties, let keys) = content.kind, case .array(let items)? = properties["b"]?.kind else {
            Issue.record("not an object with an array"); return
        }
        #expect(keys == ["a", "b"])
        #expect(items.count == 4)
    }

    @Test func rejectsMalformedJSON() {
        for text in ["{", "{\"a\" 1}", "[1,]", "01", "\"\u{1}\"", "{\"a\": 1, \"a\": 2}", "\"\\ud83d\"", "tru", "1 2"] {
            #expect(throws: GenerationDecodingError.self, "\(text)") { try GeneratedContent(json: text) }
        }
    }

    @Test func quotingRoundTrips() throws {
        let text = "tab\t quote\" backslash\\ bell\u{7} é 😀"
        let content = GeneratedContent(kind: .string(text))
        #expect(try String(GeneratedContent(json: content.jsonString)) == text)
    }

    @Test func partialDocumentsCloseWhereTheyStop() throws {
        let partial = try GeneratedContent(json: #"{"category": "work", "tasks": ["call", "wri"#, partial: true)
        #expect(!partial.isComplete)
        #expect(try partial.value(String.self, forProperty: "category") == "work")
        guard case .structure(let properties, _) = partial.kind, case .array(let tasks)? = properties["tasks"]?.kind else {
            Issue.record("no tasks"); return
        }
        #expect(tasks.count == 2)
        #expect(try String(tasks[1]) == "wri")
        #expect(!tasks[1].isComplete)
    }

    @Test func typedConversionNamesTheProblem() throws {
        let content = try GeneratedContent(json: #"{"category": "work", "urgency": "high", "tasks": [], "summary": "s"}"#)
        do {
            _ = try NoteSummary(content)
            Issue.record("converted a string to an integer")
        } catch {
            #expect(error.message.contains("urgency"))
        }
        let missing = try GeneratedContent(json: #"{"category": "work"}"#)
        #expect(try missing.value(Int?.self, forProperty: "urgency") == nil)
    }

    @Test func validationChecksEveryConstraint() throws {
        let schema = NoteSummary.generationSchema
        let good = try GeneratedContent(json: #"{"category": "work", "urgency": 3, "tasks": ["a"], "summary": "s"}"#)
        try schema.validate(good)
        for bad in [#"{"category": "play", "urgency": 3, "tasks": [], "summary": "s"}"#,
                    #"{"category": "work", "urgency": 10, "tasks": [], "summary": "s"}"#,
                    #"{"category": "work", "urgency": 3, "tasks": ["a", "b", "c", "d"], "summary": "s"}"#,
                    #"{"category": "work", "urgency": 3, "summary": "s"}"#,
                    #"{"category": "work", "urgency": 3, "tasks": [], "summary": "s", "extra": 1}"#] {
            #expect(throws: GenerationDecodingError.self, "\(bad)") { try schema.validate(GeneratedContent(json: bad)) }
        }
    }

    @Test func aDynamicSchemaBuiltAtRunTimeDescribesItselfAsJSONSchema() throws {
        let fields = [("title", "string"), ("stars", "integer")]
        let schema = GenerationSchema.object("Review", properties: fields.map { name, type in
            .init(name, type == "string" ? .string(maxLength: 40) : .integer(1...5))
        })
        let text = schema.jsonSchema.jsonString
        #expect(text == #"{"type": "object", "properties": {"title": {"type": "string", "maxLength": 40}, "stars": {"type": "integer", "minimum": 1, "maximum": 5}}, "required": ["title", "stars"]}"#)
    }
}
