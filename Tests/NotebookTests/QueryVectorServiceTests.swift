// The daemon's query-vector service over a real Unix socket, with the fake embedder: a search
// gets the daemon's vector when it answers, and its own otherwise, never an error.
import Foundation
import NotebookTestSupport
import Synchronization
import Testing
@testable import Notebook

@Suite struct QueryVectorServiceTests {
    /// A short directory: a socket path has at most 107 bytes.
    func withHome(_ body: (String) throws -> Void) throws {
        let home = "/tmp/qv-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try body(home)
    }

    final class Counter: Sendable {
        let made = Atomic<Int>(0)
        let unloaded = Atomic<Int>(0)
        /// Signalled once per unload, for a test that waits for one.
        let unloads = DispatchSemaphore(value: 0)
    }

    func start(_ home: String, keepAlive: KeepAlive, counter: Counter, version: String = "fake-embedder-1") throws -> QueryVectorService {
        try QueryVectorService.start(path: NotebookHome(path: home).daemonSocket, keepAlive: keepAlive,
                                     makeEmbedder: {
                                         counter.made.add(1, ordering: .relaxed)
                                         let embedder = FakeEmbedder()
                                         embedder.version = version
                                         return embedder
                                     },
                                     didUnload: {
                                         counter.unloaded.add(1, ordering: .relaxed)
                                         counter.unloads.signal()
                                     },
                                     log: { Issue.record("unexpected log: \($0)") })
    }

    @Test func theDaemonAnswersWithItsModelsVector() throws {
        try withHome { home in
            let counter = Counter()
            let service = try start(home, keepAlive: .init(duration: nil), counter: counter)
            defer { service.stop() }
            let path = NotebookHome(path: home).daemonSocket
            // The owner's alone, though the home here is a directory anyone may enter.
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
            let expected = FakeEmbedder().vector("the cat's jabs")
            #expect(QueryVectorService.ask(path: path, query: "the cat's jabs", version: "fake-embedder-1", timeoutMilliseconds: 0) == expected)
            #expect(QueryVectorService.ask(path: path, query: "Εμβόλια της γάτας", version: "fake-embedder-1", timeoutMilliseconds: 0) == FakeEmbedder().vector("Εμβόλια της γάτας"))
            // Loaded once for both, kept (forever).
            #expect(counter.made.load(ordering: .relaxed) == 1)
            #expect(counter.unloaded.load(ordering: .relaxed) == 0)
        }
    }

    @Test func anotherModelOrNoDaemonMeansNoAnswer() throws {
        try withHome { home in
            let path = NotebookHome(path: home).daemonSocket
            #expect(QueryVectorService.ask(path: path, query: "vet", version: "fake-embedder-1", timeoutMilliseconds: 0) == nil)
            let service = try start(home, keepAlive: .init(duration: nil), counter: Counter(), version: "other-model")
            #expect(QueryVectorService.ask(path: path, query: "vet", version: "fake-embedder-1", timeoutMilliseconds: 0) == nil)
            service.stop()
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(QueryVectorService.ask(path: path, query: "vet", version: "other-model", timeoutMilliseconds: 0) == nil)
        }
    }

    @Test func aSearchFallsBackToItsOwnModel() throws {
        try withHome { home in
            let local = FakeEmbedder()
            local.version = "local-only"
            let embedding = DaemonQueryEmbedding(local: local, socketPath: NotebookHome(path: home).daemonSocket)
            // A socket file a killed daemon left behind: nothing listens, the search embeds itself.
            let stale = try start(home, keepAlive: .init(duration: nil), counter: Counter())
            stale.stop()
            #expect(try embedding.embed(query: "hoover") == local.vector("hoover"))
            #expect(embedding.version == "local-only")
        }
    }

    @Test func aStaleSocketIsReplacedAndTheModelSleepsWhenIdle() throws {
        try withHome { home in
            let path = NotebookHome(path: home).daemonSocket
            // What kill -9 leaves: a bound socket file with no listener (closed when dropped).
            _ = try LocalSocket.listen(at: path)
            #expect(FileManager.default.fileExists(atPath: path))
            let counter = Counter()
            let service = try start(home, keepAlive: .init(duration: 0), counter: counter)
            defer { service.stop() }
            #expect(QueryVectorService.ask(path: path, query: "rent", version: "fake-embedder-1", timeoutMilliseconds: 0) != nil)
            // keep-alive 0: the model is dropped as soon as the query is answered.
            // (The limit only keeps a broken service from hanging the run: the unload comes at once.)
            #expect(counter.unloads.wait(timeout: .now() + 600) == .success)
            #expect(counter.unloaded.load(ordering: .relaxed) == 1)
            #expect(QueryVectorService.ask(path: path, query: "rent", version: "fake-embedder-1", timeoutMilliseconds: 0) != nil)
            #expect(counter.made.load(ordering: .relaxed) == 2)
        }
    }

    @Test func garbageGetsAnErrorAndTheServiceGoesOn() throws {
        try withHome { home in
            let path = NotebookHome(path: home).daemonSocket
            let service = try start(home, keepAlive: .init(duration: nil), counter: Counter())
            defer { service.stop() }
            let socket = try LocalSocket.connect(to: path, timeoutMilliseconds: 0)
            try socket.write(Array("GET / HTTP/1.0\n\n".utf8))
            #expect(try socket.readLine().hasPrefix("error "))
            let huge = String(repeating: "x", count: QueryVectorProtocol.maximumQueryBytes + 1)
            #expect(QueryVectorService.ask(path: path, query: huge, version: "fake-embedder-1", timeoutMilliseconds: 0) == nil)
            #expect(QueryVectorService.ask(path: path, query: "teeth", version: "fake-embedder-1", timeoutMilliseconds: 0) == FakeEmbedder().vector("teeth"))
        }
    }
}
