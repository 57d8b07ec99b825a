// `notes daemon`: analyses new and changed notes in the background, one at a time.
#if canImport(Glibc)
import Glibc
#endif
import Notebook
import Notes
import Storage

struct DaemonCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "daemon",
        abstract: "Analyse new and changed notes in the background.",
        usage: "[status] [--once] [--sync-interval <seconds>] [--json]",
        discussion: """
            Prewarms the model, then makes the vectors (for search by meaning) of every note whose
            text has none, and analyses every note that has no analysis of its current text, and waits for changes without polling. With a sync remote, it also
            syncs on an interval and shortly after local changes. One daemon per notebook.
            SIGTERM or SIGINT stops it cleanly; after a crash or kill -9 the next start resumes.
            'notes daemon status' tells whether one runs and how many notes are pending.
            See contrib/notes-daemon.service to run it as a systemd user service.
            """,
        options: [
            .flag("--once", help: "Analyse what is pending, then exit."),
            .value("--sync-interval", placeholder: "seconds", help: "With a sync remote: sync this often (default 300), and 10 s after local changes."),
            .json,
        ],
        positionals: [PositionalSpec(name: "status", help: "Show whether a daemon runs, instead of running one.", optional: true)]
    )

    let statusOnly: Bool
    let once: Bool
    let json: Bool
    let syncInterval: Int64

    init(arguments: ParsedArguments) throws(UsageError) {
        switch arguments.positionals {
        case []: statusOnly = false
        case ["status"]: statusOnly = true
        default: throw UsageError(message: "unexpected argument '\(arguments.positionals[0])' (did you mean 'notes daemon status'?)")
        }
        once = arguments.has("once")
        json = arguments.has("json")
        if let text = arguments.value("sync-interval") {
            guard let seconds = Int64(text), seconds >= 10 else { throw UsageError(message: "--sync-interval takes a number of seconds, at least 10") }
            syncInterval = seconds * 1000
        } else {
            syncInterval = 300_000
        }
        if json, !statusOnly { throw UsageError(message: "--json goes with 'notes daemon status'") }
    }

    func run(_ context: Context) throws {
        if statusOnly { return try printStatus(context) }
        let store = try context.store()
        let watcher = try ChangeWatcher(directory: context.home, fileNames: [NoteStore.databaseFileName, NoteStore.databaseFileName + "-wal"])
        let lock = try DaemonLock(home: context.home)
        defer { withExtendedLifetime(lock) {} }
        let log = DaemonLog(terminal: context.terminal, environment: context.environment)
        var corrections = Analyzers.corrections(store: store)
        var analyzer = try Analyzers.make(context: context, corrections: corrections)
        log.info("started: pid \(getpid()), notebook \(context.home), analyzer \(analyzer.analyzerVersion)")
        let embedder = Embeddings.make(context: context)
        if let missing = Embeddings.missing(embedder) { log.warning("no vectors for search by meaning: \(missing)") }
        var worker = AnalysisWorker(store: store, analyzer: analyzer, embedder: embedder, log: log)
        var syncer = AutoSync(context: context, log: log, interval: syncInterval)
        var waitingReason: String?
        var nextAvailabilityCheck: Int64 = 0
        while true {
            if let signal = watcher.pendingSignal() {
                log.info("stopping on signal \(signal)")
                break
            }
            let now = Clock.now().milliseconds
            if !worker.ready, now >= nextAvailabilityCheck {
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
            // Vectors need only the embedding model: they are made while the analyzer waits too.
            if try worker.embedNext() { continue }
            if worker.ready, try worker.analyzeNext() { continue }
            if once { break }
            let deadlines = [once ? nil : syncer.nextDeadline, worker.ready ? nil : nextAvailabilityCheck].compactMap { $0 }
            let timeout = deadlines.min().map { Int32(clamping: max(0, $0 - Clock.now().milliseconds)) } ?? -1
            switch watcher.wait(milliseconds: timeout) {
            case let .signal(signal):
                log.info("stopping on signal \(signal)")
                return log.info("stopped")
            case .changed:
                try syncer.noteLocalChange(store: store)
                // A category set by hand (`notes set`) is an example for the next notes.
                let latest = Analyzers.corrections(store: store)
                if !latest.elementsEqual(corrections, by: ==) {
                    corrections = latest
                    analyzer = analyzer.with(corrections: corrections)
                    worker = AnalysisWorker(store: store, analyzer: analyzer, embedder: embedder, log: log)
                    log.info("category corrections changed: the examples are read again")
                }
            case .timeout:
                break
            }
        }
        log.info("stopped")
    }

    private func printStatus(_ context: Context) throws {
        let pid = DaemonLock.runningPID(home: context.home)
        let analyzer = try Analyzers.make(context: context)
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
        queue = AnalysisQueue(store: store, analyzer: analyzer, embedder: embedder, clock: Clock.now) { event in
            switch event {
            case let .embedded(notes, milliseconds): log.info("vectors of \(notes.count) note\(notes.count == 1 ? "" : "s") in \(milliseconds) ms")
            case let .embeddingFailed(notes, error): log.error("cannot make the vectors of \(notes.count) notes: \(error)")
            case let .started(id, stage): log.info("analysing \(id.rawValue.prefix(13))\(stage == .quick ? " (quick)" : "")")
            case let .stored(id, analysis, milliseconds):
                log.info("analysed \(id.rawValue.prefix(13))\(analysis.stage == .quick ? " (quick)" : "") in \(milliseconds) ms: "
                    + "\(analysis.category.rawValue), urgency \(analysis.urgency), \(analysis.tasks.count) tasks")
            case let .changedMeanwhile(id): log.info("note \(id.rawValue.prefix(13)) changed while it was analysed; analysing it again")
            case let .failed(id, error): log.error("cannot analyse \(id.rawValue.prefix(13)): \(error)")
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

    /// Makes the vectors of a batch of notes that lack them; false when none does.
    func embedNext() throws -> Bool { try queue.embedNext() }

    /// Analyses one note (a quick analysis before any full one); false when nothing is pending.
    func analyzeNext() throws -> Bool {
        let queue = self.queue
        return try waitFor { try await queue.step(.both) }
    }
}
