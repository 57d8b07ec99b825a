// `notes daemon`: analyses new and changed notes in the background, one at a time.
import Notebook
import Notes

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
        let watcher = try ChangeWatcher(notebook: context.notebookHome)
        let log = DaemonLog(terminal: context.terminal, environment: context.environment)
        ProcessMemory.keepLargeBlocksReturnable()
        var options = DaemonOptions()
        options.once = once
        options.keepAlive = keepAlive
        options.syncInterval = syncInterval
        options.didUnloadModels = { ProcessMemory.giveMemoryBack() }
        let daemon = NotebookDaemon(home: context.notebookHome, options: options, environment: context.environment, log: log,
                                    describe: { NotesCLI.describe($0, context: context) })
        var asleep = startAsleep
        while case let .modelsFellAsleep(pending) = try daemon.serve(wakeups: watcher, asleepWith: asleep) {
            // Everything serve opened is closed now (the lock, the database, the query socket).
            context.terminal.flush()
            let arguments = Self.withoutStartAsleep(CommandLine.arguments) + [Self.startAsleep.spec.names[0], String(pending)]
            switch FreshProcess.replace(arguments: arguments, holding: ChangeWatcher.stopSignals, unless: { watcher.pendingSignal() != nil }) {
            case .signalled:
                log.info("stopping on signal \(watcher.pendingSignal() ?? 0)")
                return log.info("stopped")
            case let .failed(reason):
                // Asleep in this process: the models are unloaded, only some of their memory stays.
                log.warning("cannot start afresh without the models (\(reason)); they sleep in this process")
                ProcessMemory.giveMemoryBack()
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
        let status = try DaemonStatus(home: context.notebookHome, environment: context.environment)
        let pid = status.pid, pending = status.pending, reason = status.modelUnavailable
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
