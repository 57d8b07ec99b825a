// The daemon's loop: watch the notebook, analyse what is pending, let the models sleep when there
// is no work, sync. Given its clock, models, remotes and wake-ups, so tests drive it in-process;
// the executable parses the options, starts it, and starts afresh when the models fell asleep.
#if canImport(Glibc)
import Glibc
#endif
import Analysis
import Notes
import Storage

/// What wakes the loop when it has no work: a write to the notebook, a stop signal, the time
/// (`ChangeWatcher`; tests script their own).
public protocol DaemonWakeups: AnyObject {
    /// A stop signal that arrived, if any; never blocks. Asked during an analysis too.
    func pendingSignal() -> Int32?
    /// Waits up to `milliseconds` (-1: forever); with `input`, also for input on it.
    func wait(milliseconds: Int32, input: Int32?) -> Wakeup
}

public enum Wakeup: Equatable, Sendable {
    case changed, signal(Int32), timeout
    /// The descriptor given to `wait` has input (or its end).
    case readable
}

extension DaemonWakeups {
    public func wait(milliseconds: Int32) -> Wakeup { wait(milliseconds: milliseconds, input: nil) }
}

public enum LogLevel: Int, Sendable { case error = 3, warning = 4, info = 6, debug = 7 }

/// Where the daemon says what it does, one line an event.
public protocol DaemonLogging: AnyObject {
    func log(_ level: LogLevel, _ message: String)
    /// For the daemon's other threads (the quick lane, the query service): whole lines that
    /// never interleave with the loop's.
    var forOtherThreads: @Sendable (LogLevel, String) -> Void { get }
}

extension DaemonLogging {
    public func info(_ message: String) { log(.info, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func error(_ message: String) { log(.error, message) }
}

/// The analyzer and the embedding model the daemon runs. Corrections are taught to the same
/// analyzer (`teach`), so that a loaded model stays loaded when they change.
public struct DaemonModels<Analyzer: NoteAnalyzing> {
    /// The user's category corrections, with their vectors.
    public var corrections: (NoteStore) -> [CategoryCorrection]
    public var makeAnalyzer: ([CategoryCorrection]) throws -> Analyzer
    public var teach: (Analyzer, [CategoryCorrection]) -> Analyzer
    /// Called again by the query service after each of its models' sleeps.
    public var makeEmbedder: @Sendable () -> (any TextEmbedding)?

    public init(corrections: @escaping (NoteStore) -> [CategoryCorrection], makeAnalyzer: @escaping ([CategoryCorrection]) throws -> Analyzer,
                teach: @escaping (Analyzer, [CategoryCorrection]) -> Analyzer, makeEmbedder: @escaping @Sendable () -> (any TextEmbedding)?) {
        self.corrections = corrections
        self.makeAnalyzer = makeAnalyzer
        self.teach = teach
        self.makeEmbedder = makeEmbedder
    }
}

extension DaemonModels where Analyzer == NoteAnalyzer {
    /// The local models the environment names (`Analyzers`, `TextEmbeddings`).
    public static func local(environment: [String: String]) -> DaemonModels {
        DaemonModels(corrections: { Analyzers.corrections(store: $0, environment: environment) },
                     makeAnalyzer: { try Analyzers.make(environment: environment, corrections: $0) },
                     teach: { analyzer, corrections in
                         analyzer.with(corrections: corrections.map { ($0.text, $0.category) },
                                       neighbours: Analyzers.neighbours(environment: environment, corrections: corrections))
                     },
                     makeEmbedder: { TextEmbeddings.fromEnvironment(environment) })
    }
}

public struct DaemonOptions: Sendable {
    /// Analyse what is pending, then return (no quick lane, no query service, no sync).
    public var once = false
    public var keepAlive = KeepAlive.standard
    /// Milliseconds between syncs with a remote.
    public var syncInterval: Int64 = 300_000
    /// The quick stage on a thread of its own, and the warm query vectors on the notebook's
    /// socket; tests of the loop leave them out.
    public var quickLane = true
    public var queryService = true
    /// After the query service's model is unloaded (the executable hands its memory back).
    public var didUnloadModels: @Sendable () -> Void = {}

    public init() {}
}

public final class NotebookDaemon<Analyzer: NoteAnalyzing> {
    public enum Ending: Equatable, Sendable {
        case stopped
        /// After the keep-alive without work, with this many notes pending (those whose
        /// analysis failed): the executable starts afresh without the models.
        case modelsFellAsleep(pending: Int)
    }

    let home: NotebookHome
    let options: DaemonOptions
    let models: DaemonModels<Analyzer>
    let log: any DaemonLogging
    let clock: @Sendable () -> Timestamp
    let remotes: (LocalNotebook) -> any DaemonSyncing
    let describe: (any Error) -> String

    /// `remotes`: given the opened notebook (`LocalRemotes` in use); `describe`: the user's words
    /// for a failure, for the log.
    public init(home: NotebookHome, options: DaemonOptions, models: DaemonModels<Analyzer>, log: any DaemonLogging,
                clock: @escaping @Sendable () -> Timestamp = { Timestamp.current },
                remotes: @escaping (LocalNotebook) -> any DaemonSyncing, describe: @escaping (any Error) -> String) {
        self.home = home
        self.options = options
        self.models = models
        self.log = log
        self.clock = clock
        self.remotes = remotes
        self.describe = describe
    }

    /// The loop, from taking the notebook's lock to a stop signal (with `once`, to the end of
    /// the pending work), or until the models fall asleep; what it opened (the lock, the
    /// database, the query socket, the quick lane) is closed on return, so that a fresh
    /// process can take over. `asleepWith`: start without prewarming, that many notes pending
    /// then, until a change brings work.
    public func serve(wakeups: any DaemonWakeups, asleepWith pendingAsleep: Int? = nil) throws -> Ending {
        let notebook = try LocalNotebook.open(home)
        let store = notebook.store
        let lock = try DaemonLock(home: home)
        defer { withExtendedLifetime(lock) {} }
        var corrections = models.corrections(store)
        var analyzer = try models.makeAnalyzer(corrections)
        let embedder = models.makeEmbedder()
        var worker = AnalysisWorker(store: store, analyzer: analyzer, embedder: embedder, log: log, clock: clock)
        // Before anything that may load a model: a note added from now on gets its quick stage at once.
        var stopQuickLane = options.quickLane && !options.once ? try startQuickLane(analyzer: analyzer) : nil
        defer { stopQuickLane?() }
        // Work that arrived while the last process gave way to this one wakes the models at once.
        let startsAsleep = pendingAsleep != nil
        var asleep = try pendingAsleep.map { try worker.queue.pendingCount() <= $0 } ?? false
        if !startsAsleep {
            log.info("started: pid \(getpid()), notebook \(home.path), analyzer \(analyzer.analyzerVersion)")
            if let missing = TextEmbeddings.missing(embedder) { log.warning("no vectors for search by meaning: \(missing)") }
        }
        let queries = options.queryService && !options.once && embedder != nil ? startQueryService() : nil
        defer { queries?.stop() }
        var syncer = AutoSync(remotes: remotes(notebook), log: log, interval: options.syncInterval, clock: clock, describe: describe)
        if startsAsleep {
            log.info("started afresh without the models: pid \(getpid()), notebook \(home.path), analyzer \(analyzer.analyzerVersion)"
                + (asleep ? "; they load when a change brings work" : "; work is pending, so they wake"))
        }
        let once = options.once
        var waitingReason: String?
        var nextAvailabilityCheck: Int64 = 0
        var lastWork = now
        while true {
            if let signal = wakeups.pendingSignal() {
                log.info("stopping on signal \(signal)")
                break
            }
            if !worker.ready, !asleep, now >= nextAvailabilityCheck {
                if let reason = analyzer.unavailableReason() {
                    if reason != waitingReason {
                        log.warning("waiting for the model: \(reason); \(try store.pendingAnalysisCount(analyzerVersion: analyzer.analyzerVersion)) notes pending")
                        waitingReason = reason
                    }
                    nextAvailabilityCheck = now + 60_000
                } else {
                    try worker.prewarm()
                }
            }
            if !once { syncer.runIfDue() }
            // A backlog's quick stage needs no model and vectors only the embedding model: both
            // go on while the analyzer waits (once it is ready, its steps do them).
            if !worker.ready, try worker.stepWithoutModel() {
                lastWork = now
                continue
            }
            if worker.ready, try worker.analyzeNext(stopping: { wakeups.pendingSignal() != nil }) {
                lastWork = now
                continue
            }
            if once { break }
            if worker.ready, options.keepAlive.shouldSleep(lastWork: lastWork, now: now) {
                log.info("no work for \(options.keepAlive.description): the model sleeps (unloaded) until a change brings work")
                return .modelsFellAsleep(pending: try worker.queue.pendingCount())
            }
            let sleepTime = worker.ready ? options.keepAlive.sleepTime(lastWork: lastWork) : nil
            let deadlines = [syncer.nextDeadline, worker.ready || asleep ? nil : nextAvailabilityCheck, sleepTime].compactMap { $0 }
            let timeout = deadlines.min().map { Int32(clamping: max(0, $0 - now)) } ?? -1
            switch wakeups.wait(milliseconds: timeout) {
            case let .signal(signal):
                log.info("stopping on signal \(signal)")
                log.info("stopped")
                return .stopped
            case .changed:
                try syncer.noteLocalChange(store: store)
                if asleep, try worker.queue.pendingCount() > 0 {
                    asleep = false
                    lastWork = now
                    log.info("a change brings work: the model wakes")
                }
                // A category set by hand (`notes set`) is an example for the next notes.
                // Texts and categories only, on every change (the vectors are read when they
                // changed); a vector a note gains meanwhile is not a change.
                let latest = (try? store.categoryCorrections()) ?? []
                if !latest.elementsEqual(corrections, by: { $0.text == $1.text && $0.category == $1.category }) {
                    corrections = models.corrections(store)
                    analyzer = models.teach(analyzer, corrections)
                    // Prewarmed again: the examples are part of the prompt's fixed beginning.
                    worker = AnalysisWorker(store: store, analyzer: analyzer, embedder: embedder, log: log, clock: clock)
                    // The quick lane votes with the same corrections: it starts again with them.
                    if let stop = stopQuickLane {
                        stop()
                        do {
                            stopQuickLane = try startQuickLane(analyzer: analyzer)
                        } catch {
                            stopQuickLane = nil
                            log.warning("the quick stage cannot start again: \(error); new notes wait for the model")
                        }
                    }
                    log.info("category corrections changed: the examples are read again")
                }
            case .timeout, .readable:
                break
            }
        }
        log.info("stopped")
        return .stopped
    }

    private var now: Int64 { clock().milliseconds }

    /// The quick stage on a thread of its own (`QuickLane`), told of changes by its own watch of
    /// the notebook, so that a note's category and deadlines come within moments while the loop
    /// loads the models, reads another note, or sleeps; the returned function stops both.
    private func startQuickLane(analyzer: any NoteAnalyzing) throws -> () -> Void {
        let path = home.path
        let write = log.forOtherThreads
        let lane = try QuickLane(openStore: { try NoteStore.open(home: path) }, analyzer: analyzer, clock: clock, report: { event, handle in
            switch event {
            case let .stored(id, analysis, milliseconds):
                write(.info, "analysed \(handle(id)) (quick, without the model) in \(milliseconds) ms: \(analysis.category.rawValue), "
                    + "urgency \(analysis.urgency), \(analysis.tasks.count) task\(analysis.tasks.count == 1 ? "" : "s")")
            case let .failed(id, error): write(.error, "cannot analyse \(handle(id)) (quick): \(error)")
            default: break
            }
        }, failed: { error in write(.error, "the quick stage stopped: \(error); it now waits for the model") })
        let feed: QuickLaneFeed
        do {
            feed = try QuickLaneFeed(directory: path, fileNames: home.databaseFileNames, lane: lane)
        } catch {
            try? waitFor { await lane.stop() }
            throw error
        }
        return {
            feed.stop()
            try? waitFor { await lane.stop() }
        }
    }

    /// Answers `notes search` with query vectors from a warm model (see QueryVectorService);
    /// without it, searches still work, each loading the model itself.
    private func startQueryService() -> QueryVectorService? {
        do {
            return try QueryVectorService.start(path: home.daemonSocket, keepAlive: options.keepAlive, makeEmbedder: models.makeEmbedder,
                                                didUnload: options.didUnloadModels,
                                                log: { [write = log.forOtherThreads] in write(.warning, $0) })
        } catch {
            log.warning("searches will load the embedding model themselves: \(error)")
            return nil
        }
    }
}

extension NotebookDaemon where Analyzer == NoteAnalyzer {
    /// The daemon of the notebook at `home`, with the local models and remotes the environment names.
    public convenience init(home: NotebookHome, options: DaemonOptions, environment: [String: String], log: any DaemonLogging,
                            describe: @escaping (any Error) -> String) {
        self.init(home: home, options: options, models: .local(environment: environment), log: log,
                  remotes: { LocalRemotes(notebook: $0, environment: environment) }, describe: describe)
    }
}

/// What `notes daemon status` tells.
public struct DaemonStatus: Sendable, Equatable {
    /// The running daemon's, or nil when none runs (-1: one runs, its pid unreadable).
    public var pid: Int32?
    /// Notes without an analysis of their current text by the analyzer the environment names.
    public var pending: Int
    /// Why the analyzer cannot run, or nil when it can.
    public var modelUnavailable: String?

    public init(home: NotebookHome, environment: [String: String]) throws {
        pid = DaemonLock.runningPID(home: home)
        let analyzer = try Analyzers.make(environment: environment)
        pending = try LocalNotebook.open(home).pendingAnalysisCount(analyzerVersion: analyzer.analyzerVersion)
        modelUnavailable = analyzer.unavailableReason()
    }
}

/// A failure to start one of the daemon's watches.
public struct DaemonStartError: Error, CustomStringConvertible {
    public let description: String
}
