// End to end with the real default model (skipped only when its file is absent), and the
// model's availability.
import Foundation
import Testing
import TestSupport
@testable import AI
import Notes

struct NoteSummary: Generable, Sendable, Equatable {
    var category: String
    var urgency: Int
    var tasks: [String]
    var summary: String

    static let generationSchema = GenerationSchema.object("NoteSummary", properties: [
        .init("category", description: "What the note is about", .string(anyOf: ["work", "personal", "study", "health", "finance", "other"])),
        .init("urgency", description: "1 (whenever) to 5 (today)", .integer(1...5)),
        .init("tasks", description: "Things to do", .array(of: .string(maxLength: 30), maximumCount: 2)),
        .init("summary", .string(maxLength: 40)),
    ])

    init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        category = try content.value(forProperty: "category")
        urgency = try content.value(forProperty: "urgency")
        tasks = try content.value(forProperty: "tasks")
        summary = try content.value(forProperty: "summary")
    }
}

enum TestModel {
    static let path = DefaultModelFile.path
    static var isPresent: Bool { DefaultModelFile.isPresent }
    /// One loaded model for every test, as in the product. One thread: tests run beside other
    /// work, and two llama.cpp threads on busy cores wait on each other at every step.
    static let shared = LanguageModel(configuration: ModelConfiguration(modelPath: path, contextSize: 1024, threads: 1))

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "notes-ai-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

@Suite struct AvailabilityTests {
    @Test func aMissingFileIsUnavailable() {
        let model = LanguageModel(configuration: ModelConfiguration(modelPath: "/nonexistent/model.gguf"))
        #expect(model.availability == .unavailable("model file not found: /nonexistent/model.gguf"))
        #expect(throws: GenerationError.self) { try model.loaded() }
    }

    @Test func aFileThatIsNotGGUFIsUnavailable() throws {
        let directory = TestModel.temporaryDirectory()
        let path = directory + "/model.gguf"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: path))
        let model = LanguageModel(configuration: ModelConfiguration(modelPath: path))
        #expect(model.availability == .unavailable("not a GGUF file: \(path)"))
        let info = model.info()
        #expect(info.parameters == nil)
        #expect(info.description.contains("unavailable: not a GGUF file"))
        #expect(info.jsonString.contains("\"available\": false"))
    }

    @Test func aTruncatedGGUFIsUnavailableAfterLoading() throws {
        let directory = TestModel.temporaryDirectory()
        let path = directory + "/model.gguf"
        try Data("GGUF\u{3}\0\0\0garbage".utf8).write(to: URL(fileURLWithPath: path))
        let model = LanguageModel(configuration: ModelConfiguration(modelPath: path))
        guard model.availability == .available else { return }  // no library here: covered above
        #expect(throws: GenerationError.self) { try model.loaded() }
        #expect(!model.availability.isAvailable)
    }

    @Test func configurationFollowsTheEnvironment() {
        let configuration = ModelConfiguration.fromEnvironment(["NOTES_MODEL": "/m.gguf", "NOTES_HOME": "/h"])
        #expect(configuration.modelPath == "/m.gguf")
        #expect(configuration.prefixCacheDirectory == "/h/cache/prefixes")
        #expect(ModelConfiguration.fromEnvironment(["NOTES_DEPS": "/d"], configuredModelPath: "/c.gguf").modelPath == "/c.gguf")
        #expect(ModelConfiguration.fromEnvironment(["NOTES_DEPS": "/d", "HOME": "/u"]).modelPath == "/d/default-model.gguf")
        #expect(LlamaLibrary.candidates(environment: ["NOTES_LLAMA_LIBRARY": "/x.so", "NOTES_DEPS": "/d"])
            == ["/x.so", "/d/llama/lib/libllama.so", "libllama.so"])
    }
}

@Suite(.serialized, .enabled(if: TestModel.isPresent, "the default model is not installed"))
struct LanguageModelSessionTests {
    let instructions = "You analyse notes. Reply with the category, the urgency, the tasks and a one-line summary."

    @Test func modelInfoDescribesTheDefaultModel() {
        let info = TestModel.shared.info()
        #expect(info.availability == .available)
        #expect((info.parameters ?? 0) > 100_000_000)
        #expect((info.sizeBytes ?? 0) > 50_000_000)
        // Gemma 3 270M (base) carries no chat template: the documented plain format is used.
        if let template = info.chatTemplate {
            #expect(info.description.contains(PromptFormat.templateName(template)))
        } else {
            #expect(info.description.contains("plain"))
        }
        let json = try? JSONSerialization.jsonObject(with: Data(info.jsonString.utf8)) as? [String: Any]
        #expect(json?["contextSize"] as? Int == 1024)
    }

    @Test func aNoteBecomesAValidTypedValue() async throws {
        let session = LanguageModelSession(model: TestModel.shared, instructions: instructions)
        let response = try await session.respond(to: "Call the dentist tomorrow morning to move the appointment.",
                                                 generating: NoteSummary.self, options: GenerationOptions(maximumResponseTokens: 200))
        #expect(["work", "personal", "study", "health", "finance", "other"].contains(response.content.category))
        #expect((1...5).contains(response.content.urgency))
        #expect(response.content.tasks.count <= 2)
        #expect(response.statistics.fastForwardedTokens > 0)
        #expect(try JSONSerialization.jsonObject(with: Data(response.rawContent.utf8)) is [String: Any])
    }

    @Test func prewarmedPrefixIsReusedAndPersisted() async throws {
        let directory = TestModel.temporaryDirectory()
        let configuration = ModelConfiguration(modelPath: TestModel.path, contextSize: 1024, threads: 1, prefixCacheDirectory: directory)
        let model = LanguageModel(configuration: configuration)
        let prefix = "Note:\n"
        let first = LanguageModelSession(model: model, instructions: instructions)
        let outcome = try await first.prewarm(promptPrefix: prefix, schema: NoteSummary.generationSchema)
        guard case .evaluated(let tokens) = outcome else { Issue.record("expected an evaluation, got \(outcome)"); return }
        let response = try await first.respond(to: prefix + "Pay the rent on Friday.", generating: NoteSummary.self,
                                                options: GenerationOptions(maximumResponseTokens: 200))
        #expect(response.statistics.reusedPromptTokens >= tokens - 1)

        // A new session (as in a new process) restores the saved state instead of evaluating.
        let second = LanguageModelSession(model: model, instructions: instructions)
        #expect(try await second.prewarm(promptPrefix: prefix, schema: NoteSummary.generationSchema) == .restored(tokens: tokens))
        let restored = try await second.respond(to: prefix + "Pay the rent on Friday.", generating: NoteSummary.self,
                                                 options: GenerationOptions(maximumResponseTokens: 200))
        #expect(restored.statistics.reusedPromptTokens >= tokens - 1)
        #expect(restored.content == response.content)

        // A damaged file is detected and rebuilt, never used.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".kv") }
        #expect(files.count == 1)
        let file = directory + "/" + files[0]
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: file))
        let third = LanguageModelSession(model: model, instructions: instructions)
        #expect(try await third.prewarm(promptPrefix: prefix, schema: NoteSummary.generationSchema) == .evaluated(tokens: tokens))
        let fourth = LanguageModelSession(model: model, instructions: instructions)
        #expect(try await fourth.prewarm(promptPrefix: prefix, schema: NoteSummary.generationSchema) == .restored(tokens: tokens))
    }

    @Test func streamingYieldsGrowingSnapshotsEndingComplete() async throws {
        let session = LanguageModelSession(model: TestModel.shared, instructions: instructions)
        var snapshots: [ResponseSnapshot] = []
        for try await snapshot in session.streamResponse(to: "Buy milk and eggs.", generating: NoteSummary.self,
                                                         options: GenerationOptions(maximumResponseTokens: 200)) {
            snapshots.append(snapshot)
        }
        #expect(snapshots.count > 3)
        let last = try #require(snapshots.last)
        #expect(last.isComplete)
        let value = try last.value(NoteSummary.self)
        #expect((1...5).contains(value.urgency))
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) { #expect(later.rawContent.hasPrefix(earlier.rawContent)) }
        #expect(snapshots.dropLast().allSatisfy { !$0.isComplete && $0.content != nil })
    }

    @Test func cancellingStopsBetweenDecodeSteps() async throws {
        let session = LanguageModelSession(model: TestModel.shared)
        let task = Task { try await session.respond(to: "Write a very long story about a lighthouse.", options: GenerationOptions(maximumResponseTokens: 2000)) }
        // Cancelled once decoding has begun: it stops at a step boundary, long before 2000 tokens.
        await session.untilResponding()
        task.cancel()
        await #expect(throws: GenerationError.cancelled) { try await task.value }
    }

    @Test func aSecondRequestWhileOneRunsIsRefused() async throws {
        let session = LanguageModelSession(model: TestModel.shared)
        let long = Task { try await session.respond(to: "Count from one to fifty in words.", options: GenerationOptions(maximumResponseTokens: 60)) }
        await session.untilResponding()
        await #expect(throws: GenerationError.concurrentRequests) { try await session.respond(to: "Hello") }
        _ = try await long.value
    }

    @Test func plainTextAndSampledResponsesWork() async throws {
        let session = LanguageModelSession(model: TestModel.shared, instructions: "Answer briefly.")
        let text = try await session.respond(to: "What is the capital of France?", options: GenerationOptions(maximumResponseTokens: 20))
        #expect(!text.content.isEmpty)
        // Fresh sessions evaluate the same tokens the same way, so a seed repeats the answer
        // (within one session, a reused prefix may round the logits differently).
        let options = GenerationOptions(sampling: .random(top: 20, seed: 42), temperature: 0.8, maximumResponseTokens: 200)
        let a = try await LanguageModelSession(model: TestModel.shared).respond(to: "Water the plants.", generating: NoteSummary.self, options: options)
        let b = try await LanguageModelSession(model: TestModel.shared).respond(to: "Water the plants.", generating: NoteSummary.self, options: options)
        #expect(a.content == b.content)
    }

    @Test func choicesAreScoredByLikelihood() async throws {
        let session = LanguageModelSession(model: TestModel.shared, instructions: "Fruit: apple\nFruit: pear\nFruit: plum\n",
                                           promptStyle: .continuation)
        // Prewarmed, so that every request re-evaluates the prompt's last token the same way
        // (alone): the kernels compute a token otherwise alone than among others.
        try await session.prewarm(promptPrefix: "Fruit:")
        let scores = try await session.logProbabilities(of: [" apple", " tractor", " pear and a plum"], after: "Fruit:")
        #expect(scores.count == 3)
        #expect(scores.allSatisfy { $0 < 0 && $0.isFinite })
        #expect(scores[0] > scores[1], "a fruit after fruits is likelier than a tractor")
        // A longer choice is its first token's probability times the rest's: never likelier.
        let first = try await session.logProbabilities(of: [" pear"], after: "Fruit:")
        #expect(scores[2] < first[0])
        // Scoring leaves the cache holding the prompt alone: the same request scores the same.
        let again = try await session.logProbabilities(of: [" apple", " tractor", " pear and a plum"], after: "Fruit:")
        for (a, b) in zip(scores, again) { #expect(abs(a - b) < 1e-3) }
    }

    @Test func aPromptLargerThanTheContextIsReported() async throws {
        let session = LanguageModelSession(model: TestModel.shared)
        let huge = String(repeating: "note ", count: 3000)
        await #expect(throws: GenerationError.self) { try await session.respond(to: huge) }
        do {
            _ = try await session.respond(to: huge)
        } catch {
            guard case .exceededContextWindowSize = error else { Issue.record("unexpected \(error)"); return }
        }
    }
}

/// The usage example from the report, with the domain's own types: a note into a Generable value.
struct NoteAnalysis: Generable, Sendable {
    var category: Notes.Category
    var urgency: Int
    var tasks: [String]
    var summary: String

    static let generationSchema = GenerationSchema.object("NoteAnalysis", properties: [
        .init("category", .string(anyOf: Notes.Category.allCases.map(\.rawValue))),
        .init("urgency", description: "1 (whenever) to 5 (today)", .integer(Analysis.urgencyRange)),
        .init("tasks", .array(of: .string(maxLength: 60), maximumCount: 3)),
        .init("summary", .string(maxLength: 60)),
    ])

    init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        let name: String = try content.value(forProperty: "category")
        guard let category = Notes.Category(rawValue: name) else { throw GenerationDecodingError("unknown category \(name)") }
        self.category = category
        urgency = try content.value(forProperty: "urgency")
        tasks = try content.value(forProperty: "tasks")
        summary = try content.value(forProperty: "summary")
    }
}

@Suite(.enabled(if: TestModel.isPresent, "the default model is not installed"))
struct UsageExampleTests {
    @Test func aNoteIsAnalysedIntoTheDomainsTypes() async throws {
        let session = LanguageModelSession(model: TestModel.shared, instructions: "Analyse the user's note.")
        try await session.prewarm(schema: NoteAnalysis.generationSchema)
        let response = try await session.respond(to: "Renew the passport before the trip in May.", generating: NoteAnalysis.self)
        let analysis = response.content
        #expect(Analysis.urgencyRange.contains(analysis.urgency))
        #expect(analysis.tasks.count <= 3)
    }
}

/// A conversation on a chat model: the follow-up needs the first answer. Qwen2.5-Coder-0.5B,
/// the smallest installed model with a chat template (Gemma 3 270M is a base model).
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: ConversationModel.path), "the small reader model is not installed"))
struct ConversationEndToEndTests {
    @Test func aFollowUpSeesTheFirstAnswer() async throws {
        let model = LanguageModel(configuration: ModelConfiguration(modelPath: ConversationModel.path, contextSize: 1024, threads: 2))
        let session = LanguageModelSession(model: model, tools: [], instructions: "You answer in one word.")
        let word = GenerationSchema.object("Word", properties: [.init("word", .string(minLength: 1, maxLength: 16))])
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 30)
        let first = try await session.respond(to: "Name one colour of the rainbow.", schema: word, options: options)
        let colour = try first.content.value(String.self, forProperty: "word")
        let again = try await session.respond(to: "Which colour did you just name? Say it again.", schema: word, options: options)
        #expect(try again.content.value(String.self, forProperty: "word").lowercased() == colour.lowercased())
        #expect(await session.transcript.count == 5)
        // A session of independent requests has no memory: its transcript is the last request.
        let independent = LanguageModelSession(model: model, instructions: "You answer in one word.")
        _ = try await independent.respond(to: "Name one colour of the rainbow.", schema: word, options: options)
        _ = try await independent.respond(to: "Which colour did you just name?", schema: word, options: options)
        #expect(await independent.transcript.count == 3)
    }
}

enum ConversationModel {
    static let path = (ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps") + "/small-reader-model.gguf"
}
