// Search by meaning without loading a model per search: the running daemon keeps the embedding
// model warm and answers each `notes search` with the query's vector over a socket in the
// notebook's home. A search process that loads all-MiniLM-L6-v2 itself pays for mapping its
// weights, making a context and its first evaluation (about 15 ms since the vocabulary is ours,
// in a table beside the model, not llama.cpp's), so a warm model is what brings a hybrid search
// near the words-only one. Without a daemon, or with one that cannot answer, the search embeds
// the query itself: the daemon is a speed-up, never a dependency.
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import AI

/// The wire format, one request and one answer per connection:
///   request: "notes query-vector 1\n", the model's version, "\n", the query's byte count, "\n", the query
///   answer:  "ok <count>\n" then count float32 (little-endian), or "error <reason>\n"
enum QueryVectorProtocol {
    static let greeting = "notes query-vector 1"
    /// A search query is a few words: anything longer is not one.
    static let maximumQueryBytes = 64 * 1024
    static let maximumDimensions = 8192
}

/// The daemon's side: a thread that answers query vectors, with its own embedding model, loaded
/// on the first query and unloaded after `keepAlive` without one (so a sleeping daemon holds no
/// model). Its model is a second handle on the same file as the daemon's analysis embedder: the
/// weights are a mapping of one file, so the two share their pages, and a search never waits
/// behind a backlog being embedded.
public final class QueryVectorService: Sendable {
    let path: String
    private let listener: LocalSocket
    private let stopped = Flag()

    /// Binds the socket (a stale one from a killed daemon is replaced) and starts answering.
    /// `makeEmbedder` gives a fresh, unloaded model; `didUnload` runs after the model was
    /// dropped (the daemon hands freed memory back); `log` gets one line per problem.
    public static func start(path: String, keepAlive: KeepAlive,
                             makeEmbedder: @escaping @Sendable () -> (any TextEmbedding)?,
                             didUnload: @escaping @Sendable () -> Void,
                             log: @escaping @Sendable (String) -> Void) throws -> QueryVectorService {
        let service = QueryVectorService(path: path, listener: try LocalSocket.listen(at: path))
        let worker = Worker(listener: service.listener, stopped: service.stopped, keepAlive: keepAlive,
                            makeEmbedder: makeEmbedder, didUnload: didUnload, log: log)
        try Background.detach { worker.run() }
        return service
    }

    private init(path: String, listener: LocalSocket) {
        self.path = path
        self.listener = listener
    }

    /// Stops answering and removes the socket file (after a kill the next daemon replaces it).
    public func stop() {
        guard !stopped.value.exchange(true, ordering: .acquiringAndReleasing) else { return }
        unlink(path)
        // Wakes the thread from its wait: it sees the flag and ends.
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
    }

    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    /// The vector of `query` from the daemon listening at `path`, made by the model `version`;
    /// nil when no daemon listens, or it cannot answer in time, or its model is another.
    static func ask(path: String, query: String, version: String, timeoutMilliseconds: Int = 3000) -> [Float]? {
        let bytes = Array(query.utf8)
        guard bytes.count <= QueryVectorProtocol.maximumQueryBytes,
              let socket = try? LocalSocket.connect(to: path, timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        do {
            try socket.write(Array("\(QueryVectorProtocol.greeting)\n\(version)\n\(bytes.count)\n".utf8) + bytes)
            let answer = try socket.readLine()
            guard answer.hasPrefix("ok "), let count = Int(answer.dropFirst(3)), (1...QueryVectorProtocol.maximumDimensions).contains(count) else { return nil }
            let floats = try socket.read(count: count * 4)
            return floats.withUnsafeBytes { raw in (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) } }
        } catch {
            return nil
        }
    }

    /// The answering thread's state, touched by that thread alone.
    private final class Worker: @unchecked Sendable {
        let listener: LocalSocket
        let stopped: Flag
        let keepAlive: KeepAlive
        let makeEmbedder: @Sendable () -> (any TextEmbedding)?
        let didUnload: @Sendable () -> Void
        let log: @Sendable (String) -> Void
        var embedder: (any TextEmbedding)?
        var lastQuery: Int64 = 0

        init(listener: LocalSocket, stopped: Flag, keepAlive: KeepAlive, makeEmbedder: @escaping @Sendable () -> (any TextEmbedding)?,
             didUnload: @escaping @Sendable () -> Void, log: @escaping @Sendable (String) -> Void) {
            self.listener = listener
            self.stopped = stopped
            self.keepAlive = keepAlive
            self.makeEmbedder = makeEmbedder
            self.didUnload = didUnload
            self.log = log
        }

        func run() {
            while !stopped.isSet {
                let wake = embedder == nil ? nil : keepAlive.sleepTime(lastWork: lastQuery)
                let timeout = wake.map { Int32(clamping: max(0, $0 - Self.monotonicMilliseconds())) } ?? -1
                do {
                    if let client = try listener.accept(timeoutMilliseconds: timeout) {
                        answer(client)
                    } else if embedder != nil, keepAlive.shouldSleep(lastWork: lastQuery, now: Self.monotonicMilliseconds()) {
                        embedder = nil
                        didUnload()
                    }
                } catch {
                    if !stopped.isSet { log("search queries are no longer answered by the daemon: \(error)") }
                    return
                }
            }
        }

        private func answer(_ client: LocalSocket) {
            client.setTimeout(milliseconds: 2000)
            do {
                guard try client.readLine() == QueryVectorProtocol.greeting else { return try reply(client, error: "not a query-vector request") }
                let version = try client.readLine()
                guard let count = Int(try client.readLine()), (0...QueryVectorProtocol.maximumQueryBytes).contains(count) else {
                    return try reply(client, error: "bad query length")
                }
                let query = String(decoding: try client.read(count: count), as: UTF8.self)
                if embedder == nil { embedder = makeEmbedder() }
                guard let embedder else { return try reply(client, error: "search by meaning is off in the daemon") }
                guard embedder.version == version else { return try reply(client, error: "the daemon's model is \(embedder.version)") }
                let vector = try embedder.embed(query: query)
                lastQuery = Self.monotonicMilliseconds()
                var bytes = Array("ok \(vector.count)\n".utf8)
                bytes.reserveCapacity(bytes.count + vector.count * 4)
                for value in vector { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
                try client.write(bytes)
            } catch {
                // The client went away or the model failed: the search falls back to its own.
                try? reply(client, error: "\(error)".replacingNewlines)
            }
        }

        private func reply(_ client: LocalSocket, error: String) throws {
            try client.write(Array("error \(error)\n".utf8))
        }

        /// Idle time is measured on the monotonic clock: a clock change is not a quiet hour.
        static func monotonicMilliseconds() -> Int64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
        }
    }
}

/// The search's side: the query's vector from the daemon when one answers, else from `local`.
/// Everything else (notes' vectors, the version, availability) is `local`'s.
public struct DaemonQueryEmbedding: TextEmbedding {
    let local: any TextEmbedding
    let socketPath: String

    public init(local: any TextEmbedding, socketPath: String) {
        self.local = local
        self.socketPath = socketPath
    }

    public var version: String { local.version }
    public var queryFloor: Float { local.queryFloor }
    public var relatedFloor: Float { local.relatedFloor }
    public func unavailableReason() -> String? { local.unavailableReason() }
    public var modelPath: String? { local.modelPath }

    public func embed(query: String) throws -> [Float] {
        if let vector = QueryVectorService.ask(path: socketPath, query: query, version: local.version) { return vector }
        return try local.embed(query: query)
    }

    public func embed(documents: [String]) throws -> [[[Float]]] { try local.embed(documents: documents) }
}

extension String {
    fileprivate var replacingNewlines: String { String(map { $0.isNewline ? " " : $0 }) }
}

extension DaemonQueryEmbedding {
    /// The embedding a search uses: `NOTES_EMBEDDING_MODEL` (else the one set-up installs; nil
    /// when it is `none`), asking the notebook's running daemon for query vectors first.
    public static func forSearch(environment: [String: String], home: NotebookHome) -> DaemonQueryEmbedding? {
        TextEmbeddings.fromEnvironment(environment).map { DaemonQueryEmbedding(local: $0, socketPath: home.daemonSocket) }
    }
}
