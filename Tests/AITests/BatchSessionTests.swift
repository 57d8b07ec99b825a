// How a session answers prompts as they come (`respond(pulling:done:)`): every request gets one
// answer, a failing one stops no other, at most `batchSize` run at once, and a finished answer's
// place is taken by the next request at once. On the default model, one thread, short answers.
import Foundation
import Synchronization
import Testing
@testable import AI

@Suite(.serialized, .enabled(if: TestModel.isPresent, "the default model is not installed"))
struct BatchSessionTests {
    enum Event: Equatable { case given(Int), done(Int) }

    let schema = NoteSummary.generationSchema
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 48)

    func session() -> LanguageModelSession {
        LanguageModelSession(model: TestModel.shared, instructions: "You analyse notes.", contextSize: 2_048, batchSize: 2)
    }

    @Test func everyRequestGetsOneAnswerAtMostTwoRunAndAFinishedOnesPlaceIsTakenAtOnce() async throws {
        let prompts = ["Call the dentist tomorrow.", "Pay the rent by Friday.", String(repeating: "word ", count: 2_500),
                       "Buy milk and eggs.", "Book the train to Lyon for the 12th."]
        let log = Mutex([Event]())
        let results = Mutex([Int: LanguageModelSession.BatchResult]())
        try await session().respond(pulling: {
            log.withLock { events in
                let given = events.filter { if case .given = $0 { true } else { false } }.count
                guard given < prompts.count else { return nil }
                events.append(.given(given))
                return LanguageModelSession.BatchRequest(prompt: prompts[given], schema: schema)
            }
        }, options: options) { index, result in
            log.withLock { $0.append(.done(index)) }
            results.withLock { $0[index] = result }
        }
        let events = log.withLock { $0 }
        let answers = results.withLock { $0 }
        #expect(answers.keys.sorted() == Array(prompts.indices), "one answer for each request")
        if case .failure(.exceededContextWindowSize) = answers[2] {} else { Issue.record("the over-long prompt fails alone: \(String(describing: answers[2]))") }
        for index in [0, 1, 3, 4] {
            let content = try #require(try? answers[index]?.get().content)
            #expect(throws: Never.self, "request \(index) answers in the schema") { try schema.validate(content) }
        }
        // Never more than two running; after each answer done (but the last ones) the next request is given at once.
        var running = 0
        for (position, event) in events.enumerated() {
            switch event {
            case .given: running += 1
            case .done(let index):
                running -= 1
                let moreToGive = events[(position + 1)...].contains { if case .given = $0 { true } else { false } }
                if moreToGive, index != 2 {
                    #expect(events[position + 1] == .given(events[..<position].filter { if case .given = $0 { true } else { false } }.count),
                            "the place of request \(index) is taken at once: \(events)")
                }
            }
            #expect(running <= 2, "at most two at once: \(events)")
        }
    }

    @Test func theArrayFormAnswersInOrder() async throws {
        let requests = ["Call the dentist tomorrow.", "Pay the rent by Friday.", "Buy milk."].map {
            LanguageModelSession.BatchRequest(prompt: $0, schema: schema)
        }
        let answers = try await session().respond(toEach: requests, options: options)
        #expect(answers.count == 3)
        for answer in answers { #expect(throws: Never.self) { try answer.get() } }
    }
}
