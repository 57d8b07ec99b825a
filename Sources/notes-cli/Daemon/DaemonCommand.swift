// `notes daemon`: analyses new and changed notes in the background, one at a time.
#if canImport(Glibc)
import Glibc
#endif
import Notebook
import Notes
import Storage

struct DaemonCommand: NotesCommand {
    static let once = Flag("--once", help: "Analyse what is pending, then exit.")
    static let keepAlive = Option("--keep-alive", type: ValueType(placeholder: "duration", parse: KeepAlive.init, invalid: { _, text in
        "--keep-alive takes a duration such as 5m, 90s, 1h, 0 or forever, not '\(text)'"
    }), help: "Unload the model after this long without work: 5m (the default), 90s, 1h, 0, or forever.")
    static let syncInterval = Option("--sync-interval", type: ValueType(placeholder: "seconds", parse: { Int64($0).flatMap { $0 >= 10 ? $0 : nil } }, invalid: { _, _ in
        "--sync-interval takes a number of seconds, at least 10"
    }), help: "With a sync remote: sync this often (default 300), and 10 s after local changes.")

    /// How the daemon starts again after its models fell asleep (see FreshProcess): without
    /// prewarming them until a change brings work, given the notes then pending (those whose
    /// analysis failed stay pending, and must not wake it at once).
    static let startAsleep = Option("--start-asleep", type: ValueType(placeholder: "pending", parse: { Int($0).flatMap { $0 >= 0 ? $0 : nil } }, invalid: { _, text in
        "--start-asleep takes a count of pending notes, not '\(text)'"
    }), help: "Start with the models asleep, this many notes pending.", hidden: true)

    static let configuration = CommandConfiguration(
        name: "daemon",
        abstract: "Analyse new and changed notes in the background.",
        discussion: """
            Prewarms the model, then makes the vectors (for search by meaning) of every note whose
            text has none, analyses every note that has no analysis of its current text, and
            waits for changes without polling. After --keep-alive without work (5 minutes unless
            said) the models sleep: the daemon starts afresh without them (the same pid), so their
            memory goes back to the system until the next change brings work. With a sync remote,
            it also syncs on an interval and shortly after local changes. One daemon per notebook.
            SIGTERM or SIGINT stops it cleanly; after a crash or kill -9 the next start resumes.
            'notes daemon status' tells whether one runs and how many notes are pending.
            See contrib/notes-daemon.service to run it as a systemd user service.
            """,
        options: [once, keepAlive, syncInterval, startAsleep]
    )
    static var subcommands: [any NotesCommand.Type] { [DaemonStatusCommand.self] }

    let once: Bool
    let syncInterval: Int64
    let keepAlive: KeepAlive
    /// Pending notes when the models fell asleep; nil: a start of the user's.
    let startAsleep: Int?

    init(arguments: ParsedArguments) throws(UsageError) {
        once = arguments[Self.once]
        syncInterval = (arguments[Self.syncInterval] ?? 300) * 1000
        keepAlive = arguments[Self.keepAlive] ?? .standard
        startAsleep = arguments[Self.startAsleep]
    }

    func run(_ context: Context) throws {
        _ = try context.store() // makes the notebook's directory, which the watcher needs
        let watcher = try ChangeWatcher(directory: context.home, fileNames: [NoteStore.databaseFileName, NoteStore.databaseFileName + "-wal"])
        let log = DaemonLog(terminal: context.terminal, environment: context.environment)
        DaemonCommand.keepLargeBlocksReturnable()
        var asleep = startAsleep
        while case let .modelsFellAsleep(pending) = try serve(context, watcher: watcher, log: log, asleepWith: asleep) {
            // Everything serve opened is closed now (the lock, the database, the query socket).
            context.closeStore()
            context.terminal.flush()
            let arguments = Self.withoutStartAsleep(CommandLine.arguments) + [Self.startAsleep.spec.names[0], String(pending)]
            switch FreshProcess.replace(arguments: arguments, holding: ChangeWatcher.stopSignals, unless: { watcher.pendingSignal() != nil }) {
            case .signalled:
                log.info("stopping on signal \(watcher.pendingSignal() ?? 0)")
                return log.info("stopped")
            case let .failed(reason):
                // Asleep in this process: the models are unloaded, only some of their memory stays.
                log.warning("cannot start afresh without the models (\(reason)); they sleep in this process")
                DaemonCommand.giveMemoryBack()
                asleep = pending
            }
        }
    }

    /// The arguments this process was started with, less a --start-asleep and its value.
    private static func withoutStartAsleep(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipValue = false
        for argument in arguments {
            if skipValue { skipValue = false; continue }
            if argument == startAsleep.spec.names[0] { skipValue = true; continue }
            if argument.hasPrefix(startAsleep.spec.names[0] + "=") { continue }
            kept.append(argument)
        }
        return kept
    }

    private enum Ending {
        case stopped
        /// With this many notes pending (those whose analysis failed).
        case modelsFellAsleep(pending: Int)
    }

    /// The daemon's loop, from taking the notebook's lock to a stop signal (or, with --once, the
    /// end of the pending work), or until the models fall asleep: what it opened it closes
    /// on return, so that a fresh process can take over. `asleepWith`: start without
    /// prewarming, with that many notes pending then, until a change brings work.
    private func serve(_ context: Context, watcher: ChangeWatcher, log: DaemonLog, asleepWith pendingAsleep: Int?) throws -> Ending {
        let store = try context.store()
        let lock = try DaemonLock(home: context.notebookHome)
        defer { withExtendedLifetime(lock) {} }
        var corrections = Analyzers.corrections(store: store, environment: context.environment)
        var analyzer = try Analyzers.make(environment: context.environment, corrections: corrections)
        let embedder = Embeddings.make(context: context)
        var worker = AnalysisWorker(store: store, analyzer: analyzer, embedder: embedder, log: log)
        // Before anything that may load a model: a note added from now on gets its quick stage at once.
        var stopQuickLane = once ? nil : try startQuickLane(context, analyzer: analyzer, log: log)
        defer { stopQuickLane?() }
        // Work that arrived while the last process gave way to this one wakes the models at once.
        let startsAsleep = pendingAsleep != nil
        var asleep = try pendingAsleep.map { try worker.queue.pendingCount() <= $0 } ?? false
        if !startsAsleep {
            log.info("started: pid \(getpid()), notebook \(context.home), analyzer \(analyzer.analyzerVersion)")
            if let missing = Embeddings.missing(embedder) { log.warning("no vectors for search by meaning: \(missing)") }
        }
        let queries = once || embedder == nil ? nil : startQueryService(context, log: log)
        defer { queries?.stop() }
        var syncer = AutoSync(context: context, log: log, interval: syncInterval)
        if startsAsleep {
            log.info("started afresh without the models: pid \(getpid()), notebook \(context.home), analyzer \(analyzer.analyzerVersion)"
                + (asleep ? "; they load when a change brings work" : "; work is pending, so they wake"))
        }
        var waitingReason: String?
        var nextAvailabilityCheck: Int64 = 0
        var lastWork = Clock.now().milliseconds
        while true {
            if let signal = watcher.pendingSignal() {
                log.info("stopping on signal \(signal)")
                break
            }
            let now = Clock.now().milliseconds
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
            if !once { try syncer.runIfDue(store: store) }
            // A backlog's quick stage needs no model and vectors only the embedding model: both
            // go on while the analyzer waits (once it is ready, its steps do them).
            if !worker.ready, try worker.stepWithoutModel() {
                lastWork = Clock.now().milliseconds
                continue
            }
            if worker.ready, try worker.analyzeNext(stopping: { watcher.pendingSignal() != nil }) {
                lastWork = Clock.now().milliseconds
                continue
            }
            if once { break }
            if worker.ready, keepAlive.shouldSleep(lastWork: lastWork, now: Clock.now().milliseconds) {
                log.info("no work for \(keepAlive.description): the model sleeps (unloaded) until a change brings work")
                return .modelsFellAsleep(pending: try worker.queue.pendingCount())
            }
            let sleepTime = worker.ready ? keepAlive.sleepTime(lastWork: lastWork) : nil
            let deadlines = [once ? nil : syncer.nextDeadline, worker.ready || asleep ? nil : nextAvailabilityCheck, sleepTime].compactMap { $0 }
            let timeout = deadlines.min().map { Int32(clamping: max(0, $0 - Clock.now().milliseconds)) } ?? -1
            switch watcher.wait(milliseconds: timeout) {
            case let .signal(signal):
                log.info("stopping on signal \(signal)")
                log.info("stopped")
                return .stopped
            case .changed:
                try syncer.noteLocalChange(store: store)
                if asleep, try worker.queue.pendingCount() > 0 {
                    asleep = false
                    lastWork = Clock.now().milliseconds
                    log.info("a change brings work: the model wakes")
                }
                // A category set by hand (`notes set`) is an example for the next notes.
                // Texts and categories only, on every change (the vectors are read when they
                // changed); a vector a note gains meanwhile is not a change.
                let latest = (try? store.categoryCorrections()) ?? []
                if !latest.elementsEqual(corrections, by: { $0.text == $1.text && $0.category == $1.category }) {
                    corrections = Analyzers.corrections(store: store, environment: context.environment)
                    analyzer = analyzer.with(corrections: corrections.map { ($0.text, $0.category) },
                                             neighbours: Analyzers.neighbours(environment: context.environment, corrections: corrections))
                    worker = AnalysisWorker(store: store, analyzer: analyzer, embedder: embedder, log: log)
                    // The quick lane votes with the same corrections: it starts again with them.
                    if let stop = stopQuickLane {
                        stop()
                        do {
                            stopQuickLane = try startQuickLane(context, analyzer: analyzer, log: log)
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

    /// The quick stage on a thread of its own (`QuickLane`), told of changes by its own watch of
    /// the notebook, so that a note's category and deadlines come within moments while this loop
    /// loads the models, reads another note, or sleeps; the returned function stops both.
    private func startQuickLane(_ context: Context, analyzer: any NoteAnalyzing, log: DaemonLog) throws -> () -> Void {
        let home = context.home
        let write = log.forOtherThreads
        let lane = try QuickLane(openStore: { try NoteStore.open(home: home) }, analyzer: analyzer, clock: { Clock.now() }, report: { event, handle in
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
            feed = try QuickLaneFeed(directory: home, fileNames: [NoteStore.databaseFileName, NoteStore.databaseFileName + "-wal"], lane: lane)
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
    private func startQueryService(_ context: Context, log: DaemonLog) -> QueryVectorService? {
        let environment = context.environment
        let path = context.notebookHome.daemonSocket
        do {
            return try QueryVectorService.start(path: path, keepAlive: keepAlive,
                                                makeEmbedder: { Embeddings.make(environment: environment) },
                                                didUnload: { DaemonCommand.giveMemoryBack() },
                                                log: { [write = log.forOtherThreads] in write(.warning, $0) })
        } catch {
            log.warning("searches will load the embedding model themselves: \(error)")
            return nil
        }
    }

    /// Freed model memory stays in the process's heap unless it is handed back (`malloc_trim`).
    static func giveMemoryBack() {
        typealias Trim = @convention(c) (Int) -> Int32
        _ = glibc("malloc_trim", as: Trim.self)?(0)
    }

    /// Blocks of 1 MB and more (a model's buffers) get pages of their own, which go back to the
    /// system when freed: glibc otherwise raises that limit after the first free to 32 MB, and
    /// buffers under it land in a heap that a sleep cannot always hand back.
    static func keepLargeBlocksReturnable() {
        typealias SetOption = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3 // M_MMAP_THRESHOLD
        _ = glibc("mallopt", as: SetOption.self)?(mmapThreshold, 1 << 20)
    }

    /// A glibc function no Swift module exports, looked up at run time (other C libraries lack it).
    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
        return dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        #else
        return nil
        #endif
    }
}

struct DaemonStatusCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "daemon status",
        abstract: "Show whether a daemon runs, how many notes are pending, and whether the model can run.",
        options: [Common.json]
    )

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let pid = DaemonLock.runningPID(home: context.notebookHome)
        let analyzer = try Analyzers.make(environment: context.environment)
        let pending = try context.store().pendingAnalysisCount(analyzerVersion: analyzer.analyzerVersion)
        let reason = analyzer.unavailableReason()
        if json {
            context.terminal.emit(.object([
                ("running", .bool(pid != nil)), ("pid", pid.map { .int(Int($0)) } ?? .null),
                ("pending", .int(pending)), ("model", .string(reason.map { "unavailable: \($0)" } ?? "available")),
            ]))
            return
        }
        context.terminal.print(pid.map { "Daemon     running (pid \($0))" } ?? "Daemon     not running (start it with: notes daemon)")
        context.terminal.print("Pending    \(pending) note\(pending == 1 ? "" : "s") to analyse")
        context.terminal.print("Model      " + (reason.map { "unavailable: \($0)" } ?? "available"))
    }
}

/// The daemon's side of the analysis queue: prewarming, and a log line for each note.
struct AnalysisWorker {
    let queue: AnalysisQueue
    let log: DaemonLog
    private(set) var ready = false

    init(store: NoteStore, analyzer: any NoteAnalyzing, embedder: (any TextEmbedding)?, log: DaemonLog) {
        self.log = log
        // The handle a person would type, as `notes list` shows it.
        let handle = { (id: NoteID) in (try? store.handle(of: id)) ?? id.rawValue }
        queue = AnalysisQueue(store: store, analyzer: analyzer, embedder: embedder, clock: Clock.now) { event in
            switch event {
            case let .embedded(notes, milliseconds): log.info("vectors of \(notes.count) note\(notes.count == 1 ? "" : "s") in \(milliseconds) ms")
            case let .embeddingFailed(notes, error): log.error("cannot make the vectors of \(notes.count) notes: \(error)")
            case let .started(id, stage): log.info("analysing \(handle(id))\(stage == .quick ? " (quick)" : "")")
            case let .stored(id, analysis, milliseconds):
                log.info("analysed \(handle(id))\(analysis.stage == .quick ? " (quick)" : "") in \(milliseconds) ms: "
                    + "\(analysis.category.rawValue), urgency \(analysis.urgency), \(analysis.tasks.count) task\(analysis.tasks.count == 1 ? "" : "s")")
            case let .changedMeanwhile(id): log.info("note \(handle(id)) changed while it was analysed; analysing it again")
            case let .failed(id, error): log.error("cannot analyse \(handle(id)): \(error)")
            }
        }
    }

    mutating func prewarm() throws {
        let started = Clock.now().milliseconds
        let analyzer = queue.analyzer
        try waitFor { try await analyzer.prewarm() }
        ready = true
        log.info("model ready in \(Clock.now().milliseconds - started) ms")
    }

    /// A backlog's quick stage or a batch of vectors, without the analyzer's model; false when
    /// neither has work.
    func stepWithoutModel() throws -> Bool {
        let queue = self.queue
        return try waitFor { try await queue.stepWithoutModel() }
    }

    /// Analyses one note (a quick analysis before any full one); false when nothing is pending.
    /// `stopping`: asked while a note (or a batch) is analysed; true cancels it, and the notes
    /// stay pending for the next start.
    func analyzeNext(stopping: @escaping () -> Bool) throws -> Bool {
        let queue = self.queue
        let before = try queue.pendingCount()
        let worked = try waitFor({ try await queue.step(.both) }, cancelWhen: stopping)
        if let line = try backlog.step(worked: worked, pendingBefore: before, pendingAfter: queue.pendingCount(), now: Clock.now().milliseconds) {
            log.info(line)
        }
        return worked
    }

    private let backlog = Backlog()
}
