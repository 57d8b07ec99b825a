// Tools and the transcript on the fake token model: the union of the tools' calls and the answer
// always parses into a real tool with valid arguments or an answer, the transcript keeps every
// entry and each request sees it, the call limit holds, and failures are typed and lose nothing.
import AITestSupport
import Foundation
import Synchronization
import Testing
@testable import AI

/// A conversation backend over the fake token model: random logits, a context of `contextSize`
/// tokens, and a record of the messages each step was given.
final class FakeConversationModel: SessionBackend, @unchecked Sendable {
    let fake: FakeTokenModel
    let contextSize: Int
    private(set) var steps: [[ChatMessage]] = []

    init(seed: UInt64, contextSize: Int = 1_000_000) {
        fake = FakeTokenModel(seed: seed)
        self.contextSize = contextSize
    }

    var vocabulary: Vocabulary { fake.vocabulary }
    func tokenize(_ bytes: [UInt8]) -> [Int32]? { fake.tokenize(bytes) }
    func append(_ tokens: [Int32]) throws(GenerationError) -> UnsafeBufferPointer<Float> { try fake.append(tokens) }
    func appendEach(_ tokens: [Int32]) throws(GenerationError) -> [UnsafeBufferPointer<Float>] { try fake.appendEach(tokens) }
    func dropLast(_ count: Int) { fake.dropLast(count) }

    func evaluate(_ tokens: [Int32]) throws(GenerationError) -> (logits: UnsafeBufferPointer<Float>, reused: Int) {
        guard tokens.count < contextSize else { throw .exceededContextWindowSize(tokens: tokens.count, contextSize: contextSize) }
        return (try fake.append(tokens), 0)
    }

    func conversationTokens(_ messages: [ChatMessage]) throws(GenerationError) -> [Int32] {
        steps.append(messages)
        let text = messages.map { "\($0.role.rawValue): \($0.content)\n" }.joined()
        return fake.tokenize(Array(text.utf8)) ?? []
    }
}

/// Records its calls; its arguments are a bounded string and an integer range.
final class LookupTool: Tool {
    struct Arguments: Generable {
        var word: String
        var count: Int
        static let generationSchema = GenerationSchema.object("Lookup", properties: [
            .init("word", .string(minLength: 1, maxLength: 8)),
            .init("count", .integer(1...3)),
        ])
        init(_ content: GeneratedContent) throws(GenerationDecodingError) {
            word = try content.value(forProperty: "word")
            count = try content.value(forProperty: "count")
        }
    }

    let name: String
    let description = "Looks a word up."
    let calls = Mutex<[Arguments]>([])
    let isOffered: Bool

    init(name: String, isOffered: Bool = true) {
        self.name = name
        self.isOffered = isOffered
    }

    func call(arguments: Arguments) async throws -> String {
        calls.withLock { $0.append(arguments) }
        return "\(name) saw \(arguments.word) \(arguments.count) times"
    }
}

struct FailingTool: Tool {
    struct Broken: Error, CustomStringConvertible { var description: String { "the index is gone" } }
    struct Arguments: Generable {
        static let generationSchema = GenerationSchema.object("Nothing", properties: [.init("why", .string(maxLength: 4))])
        init(_ content: GeneratedContent) {}
    }
    let name = "fail"
    let description = "Always fails."
    func call(arguments: Arguments) async throws -> String { throw Broken() }
}

let shortAnswer = GenerationSchema.object("Reply", properties: [
    .init("answer", .string(maxLength: 12)),
    .init("sources", .array(of: .string(anyOf: ["N1", "N2"]), maximumCount: 2)),
])

@Suite struct UnionSchemaTests {
    @Test func alternativesMustBeObjectsThatBeginUnlike() {
        #expect(throws: SchemaError.self) { try GenerationSchema.anyOf([]).validateDefinition() }
        #expect(throws: SchemaError.self) { try GenerationSchema.anyOf([.string()]).validateDefinition() }
        let optionalFirst = GenerationSchema.object(properties: [.init("a", .string(), optional: true)])
        #expect(throws: SchemaError.self) { try GenerationSchema.anyOf([optionalFirst]).validateDefinition() }
        let call = LanguageModelSession.callSchema(LookupTool(name: "look"))
        // An answer whose first key is "name" would begin like every call.
        let clash = GenerationSchema.object(properties: [.init("name", .string())])
        #expect(throws: SchemaError.self) { try GenerationSchema.anyOf([call, clash]).validateDefinition() }
        #expect(throws: SchemaError.self) { try GenerationSchema.anyOf([call, call]).validateDefinition() }
        #expect(throws: Never.self) { try GenerationSchema.anyOf([call, LanguageModelSession.callSchema(LookupTool(name: "lookup")), shortAnswer]).validateDefinition() }
    }

    @Test func randomLogitsAlwaysGiveOneValidAlternative() async throws {
        let tools = [LookupTool(name: "look"), LookupTool(name: "lookup"), LookupTool(name: "find")]
        let union = try #require(LanguageModelSession.stepSchema(tools: tools, answer: .some(shortAnswer)))
        let compiled = try CompiledSchema(union)
        var chosen = Set<String>()
        for round in 0..<150 {
            let model = FakeTokenModel(seed: UInt64(round))
            var decoder = GuidedDecoder(model: model, options: GenerationOptions(sampling: .random(top: 8, seed: UInt64(round)), temperature: 2))
            let result = try await decoder.generate(schema: compiled, logits: model.nextLogits()) { _ in }
            let text = try #require(String(validating: result.bytes, as: UTF8.self))
            let content = try GeneratedContent(json: text)
            #expect(throws: Never.self, "round \(round): \(text)") { try union.validate(content) }
            #expect((try? JSONSerialization.jsonObject(with: Data(result.bytes))) != nil, "round \(round): \(text)")
            if let (tool, arguments) = LanguageModelSession.toolCall(in: content, offered: tools) {
                chosen.insert(tool.name)
                #expect(throws: Never.self) { try LookupTool.Arguments(arguments) }
            } else {
                chosen.insert("answer")
                #expect(throws: Never.self) { try shortAnswer.validate(content) }
            }
        }
        #expect(chosen == ["look", "lookup", "find", "answer"])
    }

    @Test func theSchemaInThePromptIsAnAnyOf() throws {
        let union = try #require(LanguageModelSession.stepSchema(tools: [LookupTool(name: "look")], answer: .some(shortAnswer)))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(union.jsonSchema.jsonString.utf8)) as? [String: Any])
        #expect((json["anyOf"] as? [Any])?.count == 2)
    }
}

@Suite struct ConversationTests {
    @Test func eachRequestSeesTheTranscriptOfTheOnesBefore() async throws {
        let backend = FakeConversationModel(seed: 3)
        let session = LanguageModelSession(backend: backend, tools: [], instructions: "Be brief.")
        let options = GenerationOptions(maximumResponseTokens: 80)
        let first = try await session.respond(to: "My cat is called Miso.", schema: shortAnswer, options: options)
        _ = try await session.respond(to: "What is my cat called?", schema: shortAnswer, options: options)
        let transcript = await session.transcript
        #expect(transcript.count == 5)
        guard case .instructions(let instructions) = transcript[0], case .prompt(let prompt) = transcript[1],
              case .response(let response) = transcript[2], case .prompt(let second) = transcript[3], case .response = transcript[4] else {
            Issue.record("unexpected entries: \(transcript.entries)")
            return
        }
        #expect(instructions.text == "Be brief.")
        #expect(prompt.text == "My cat is called Miso.")
        #expect(response.text == first.rawContent)
        #expect(second.text == "What is my cat called?")
        // The second request's prompt held the first exchange.
        let seen = try #require(backend.steps.last)
        #expect(seen.map(\.role) == [.system, .user, .assistant, .user])
        #expect(seen[1].content == "My cat is called Miso." && seen[2].content == first.rawContent)
    }

    @Test func toolCallsNameARealToolWithValidArgumentsAndStayUnderTheLimit() async throws {
        for seed in UInt64(0)..<12 {
            let tools = [LookupTool(name: "look"), LookupTool(name: "find")]
            let backend = FakeConversationModel(seed: seed)
            let session = LanguageModelSession(backend: backend, tools: tools, maximumToolCalls: 2)
            // The first step must call "find", the others may answer.
            let response = try await session.respond(to: "Find it.", options: GenerationOptions(sampling: .random(top: 6, seed: seed), maximumResponseTokens: 80)) {
                transcript in transcript.count > 2 ? .answer(shortAnswer) : .callTool(only: ["find"])
            }
            #expect(throws: Never.self) { try shortAnswer.validate(response.content) }
            let entries = await session.transcript.entries
            let calls = entries.compactMap { entry -> Transcript.ToolCall? in if case .toolCall(let call) = entry { call } else { nil } }
            let outputs = entries.compactMap { entry -> Transcript.ToolOutput? in if case .toolOutput(let output) = entry { output } else { nil } }
            #expect((1...2).contains(calls.count), "seed \(seed)")
            #expect(outputs.map(\.toolName) == calls.map(\.toolName))
            guard case .toolCall(let first) = entries[2], first.toolName == "find", case .response(let last) = entries.last else {
                Issue.record("seed \(seed): \(entries)")
                continue
            }
            #expect(last.text == response.rawContent)
            let made = tools.flatMap { tool in tool.calls.withLock { $0 } }
            #expect(made.count == calls.count)
            #expect(made.allSatisfy { (1...8).contains($0.word.unicodeScalars.count) && (1...3).contains($0.count) })
            // The tools and the call format are in the system message.
            let system = try #require(backend.steps.first?.first)
            #expect(system.role == .system && system.content.contains("- look: Looks a word up.") && system.content.contains("\"name\""))
        }
    }

    @Test func aToolNotOfferedIsNeverCalled() async throws {
        for seed in UInt64(0)..<12 {
            let offered = LookupTool(name: "look")
            let withdrawn = LookupTool(name: "find", isOffered: false)
            let session = LanguageModelSession(backend: FakeConversationModel(seed: seed), tools: [offered, withdrawn], maximumToolCalls: 3)
            // Required to call a tool, the step can only call the one offered.
            _ = try await session.respond(to: "Find it.", options: GenerationOptions(sampling: .random(top: 6, seed: seed), maximumResponseTokens: 80)) {
                transcript in transcript.count > 2 ? .answer(shortAnswer) : .callTool()
            }
            let made = (offered: offered.calls.withLock { $0.count }, withdrawn: withdrawn.calls.withLock { $0.count })
            #expect(made.withdrawn == 0 && made.offered >= 1, "seed \(seed)")
        }
    }

    @Test func aToolsErrorNamesTheToolAndLeavesTheTranscriptAsItWas() async throws {
        let session = LanguageModelSession(backend: FakeConversationModel(seed: 1), tools: [FailingTool()])
        await #expect(throws: GenerationError.toolCallFailed(ToolCallError(toolName: "fail", underlyingError: FailingTool.Broken()))) {
            try await session.respond(to: "Go.", options: GenerationOptions(maximumResponseTokens: 40)) { _ in .callTool() }
        }
        #expect(await session.transcript.count == 1)
        do {
            _ = try await session.respond(to: "Go.", options: GenerationOptions(maximumResponseTokens: 40)) { _ in .callTool() }
        } catch let GenerationError.toolCallFailed(error) {
            #expect(error.toolName == "fail")
            #expect(error.underlyingError is FailingTool.Broken)
            #expect(error.description == "the tool fail failed: the index is gone")
        }
    }

    @Test func aTranscriptTooLongForTheContextIsReportedNotCut() async throws {
        let session = LanguageModelSession(backend: FakeConversationModel(seed: 2, contextSize: 400), tools: [])
        let options = GenerationOptions(maximumResponseTokens: 80)
        let long = String(repeating: "note text ", count: 30)
        _ = try await session.respond(to: long, schema: shortAnswer, options: options)
        let before = await session.transcript
        await #expect {
            try await session.respond(to: long, schema: shortAnswer, options: options)
        } throws: { error in
            guard case GenerationError.exceededContextWindowSize(let tokens, 400) = error else { return false }
            return tokens >= 400
        }
        #expect(await session.transcript == before)
    }

    @Test func requiringACallWhenNoneCanBeMadeIsAnError() async throws {
        let session = LanguageModelSession(backend: FakeConversationModel(seed: 4), tools: [LookupTool(name: "look")], maximumToolCalls: 0)
        await #expect(throws: GenerationError.self) {
            try await session.respond(to: "Go.", options: GenerationOptions(maximumResponseTokens: 40)) { _ in .callTool() }
        }
        await #expect(throws: GenerationError.self) {
            try await session.respond(to: "Go.", options: GenerationOptions(maximumResponseTokens: 40)) { _ in .callTool(only: ["missing"]) }
        }
        #expect(await session.transcript.count == 1)
    }
}
