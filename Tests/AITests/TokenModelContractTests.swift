// The TokenModel contract (AI/Decoding/TokenModel.swift), checked on every model behind the
// port: llama.cpp's context over the default model, and the seeded FakeTokenModel that the
// guided decoder's property tests trust to behave as a real model does.
import AITestSupport
import Foundation
import Testing
@testable import AI

enum TokenModelKind: String, CaseIterable, CustomTestStringConvertible {
    case llama, fake
    var testDescription: String { rawValue }

    /// The kinds this machine can check: llama.cpp only with the default model installed.
    static var available: [TokenModelKind] { allCases.filter { $0 != .llama || TestModel.isPresent } }

    func make() throws -> any TokenModel {
        switch self {
        case .llama: return try LlamaContext(model: TestModel.shared.loaded(), configuration: TestModel.shared.configuration)
        case .fake:
            let fake = FakeTokenModel(seed: 5)
            fake.contextual = true
            return fake
        }
    }
}

@Suite(.serialized) struct TokenModelContractTests {
    /// Text a schema's output is made of: JSON punctuation, digits, Greek, an emoji.
    static let samples = ["{\"category\": \"work\", \"urgency\": 3}", "Ραντεβού με τον οδοντίατρο 9:30", "done 😀\n\t-1.5e3"]

    func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int32 { Sampler.argmax(logits) }

    @Test(arguments: TokenModelKind.available)
    func endTokensAreInTheVocabulary(_ kind: TokenModelKind) throws {
        let model = try kind.make()
        #expect(!model.vocabulary.endOfGeneration.isEmpty)
        for token in model.vocabulary.endOfGeneration {
            #expect((0..<model.vocabulary.count).contains(Int(token)))
        }
        #expect(model.vocabulary.pieces.count == model.vocabulary.count)
    }

    @Test(arguments: TokenModelKind.available)
    func tokensSpellTheBytesTheyWereMadeFrom(_ kind: TokenModelKind) throws {
        let model = try kind.make()
        for sample in Self.samples {
            let bytes = Array(sample.utf8)
            let tokens = try #require(model.tokenize(bytes), "\(sample)")
            #expect(tokens.allSatisfy { (0..<model.vocabulary.count).contains(Int($0)) })
            #expect(tokens.flatMap { model.vocabulary.pieces[Int($0)] } == bytes, "\(sample)")
        }
    }

    @Test(arguments: TokenModelKind.available)
    func appendGivesOneLogitPerToken(_ kind: TokenModelKind) throws {
        let model = try kind.make()
        let tokens = try #require(model.tokenize(Array(Self.samples[0].utf8)))
        let logits = try model.append(tokens)
        #expect(logits.count == model.vocabulary.count)
        #expect(logits.allSatisfy { $0.isFinite })
        let each = try model.appendEach(Array(tokens.prefix(3)))
        #expect(each.count == 3)
        #expect(each.allSatisfy { $0.count == model.vocabulary.count })
    }

    /// What a refused draft relies on: dropping tokens and appending them again (one evaluation,
    /// or one each) gives the logits the same sequence gave before.
    @Test(arguments: TokenModelKind.available)
    func droppedTokensAppendedAgainGiveTheSameNextToken(_ kind: TokenModelKind) throws {
        let model = try kind.make()
        let tokens = try #require(model.tokenize(Array(Self.samples[0].utf8)))
        #expect(tokens.count > 4)
        let first = argmax(try model.append(tokens))
        model.dropLast(3)
        let again = try model.appendEach(Array(tokens.suffix(3)))
        #expect(argmax(again[2]) == first)
        model.dropLast(3)
        #expect(argmax(try model.append(Array(tokens.suffix(3)))) == first)
    }
}
