// Standard input cut into messages: lines, their ends, and a line over the size limit.
@testable import MCP
import Testing

struct RequestLinesTests {
    @Test func linesComeWholeWhateverTheChunks() {
        var lines = RequestLines()
        #expect(lines.append(Array("{\"a\":".utf8)).isEmpty)
        #expect(lines.append(Array("1}\r\n\n  \n{\"b\"".utf8)) == [.message(Array("{\"a\":1}".utf8))])
        #expect(lines.append(Array(":2}\n".utf8)) == [.message(Array("{\"b\":2}".utf8))])
        #expect(lines.append(Array("{\"c\":3}".utf8)).isEmpty)
        #expect(lines.finish() == .message(Array("{\"c\":3}".utf8)))
        #expect(lines.finish() == nil)
    }

    @Test func aLineOverTheLimitKeepsOnlyItsStartAndTheNextLineIsWhole() {
        var lines = RequestLines(limit: 100)
        let start = "{\"jsonrpc\": \"2.0\", \"id\": \"q-7\", \"method\": \"tools/call\", \"params\": {\"text\": \""
        var answers = lines.append(Array(start.utf8))
        for _ in 0..<10 { answers += lines.append([UInt8](repeating: UInt8(ascii: "x"), count: 10_000)) }
        answers += lines.append(Array("\"}}\n{\"id\": 2}\n".utf8))
        #expect(answers.count == 2)
        guard case let .tooLarge(size, limit, kept) = answers.first else { Issue.record("not too large: \(answers)"); return }
        #expect(size == start.utf8.count + 100_000 + 3)
        #expect(limit == 100)
        #expect(kept.count <= RequestLines.keptStart)
        #expect(RequestLines.requestID(inStartOf: kept) == .string("q-7"))
        #expect(answers.last == .message(Array("{\"id\": 2}".utf8)))
    }

    @Test(arguments: [
        ("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"x\",\"params\":{\"a\":\"xxxx", RequestID.int(12)),
        ("{\"method\":\"x\",\"params\":{\"a\":[1,{\"b\":\"}\"}]},\"id\":\"late\",\"more\":\"xxxx", .string("late")),
        ("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"id\":5,\"a\":\"xxxx", nil),
        ("{\"id\":123", nil),
        ("[{\"id\":1}", nil),
        ("garbage", nil),
    ] as [(String, RequestID?)])
    func theIDOfATooLargeRequestIsFoundWhenItComesFirst(start: String, id: RequestID?) {
        #expect(RequestLines.requestID(inStartOf: Array(start.utf8)) == id)
    }
}
