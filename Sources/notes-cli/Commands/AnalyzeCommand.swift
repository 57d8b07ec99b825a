// `notes analyze`: analyse notes now, in the foreground.
import AI
import Notes
import Storage

struct AnalyzeCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "analyze",
        abstract: "Analyse notes now with the local model.",
        usage: "[<id> ...] [--all | --stale] [--json]",
        discussion: """
            With ids, analyses those notes again. With --all, every note. Otherwise (or with
            --stale), the notes without an analysis of their current text. On a terminal the
            fields appear as they are generated. The daemon does the same in the background.
            """,
        options: [
            .flag("--all", help: "Analyse every note."),
            .flag("--stale", help: "Analyse the notes whose analysis is missing or out of date (the default)."),
            .json,
        ],
        positionals: [PositionalSpec(name: "id", help: "Notes to analyse (ids or unique prefixes).", optional: true, repeating: true)]
    )

    let references: [String]
    let all: Bool
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        references = arguments.positionals
        all = arguments.has("all")
        json = arguments.has("json")
        if all, arguments.has("stale") { throw UsageError(message: "choose --all or --stale, not both") }
        if !references.isEmpty, all || arguments.has("stale") { throw UsageError(message: "give ids or --all/--stale, not both") }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let analyzer = try Analyzers.make(context: context, store: store)
        let ids: [NoteID]
        if !references.isEmpty {
            ids = try references.map { try store.resolve($0) }
        } else if all {
            ids = try store.notes().map(\.id).reversed()
        } else {
            ids = try store.pendingAnalysis(analyzerVersion: analyzer.analyzerVersion)
        }
        let terminal = context.terminal
        if ids.isEmpty {
            if json { terminal.emit(.array([])) } else { terminal.printError("Every note is analysed.") }
            return
        }
        if let reason = analyzer.unavailableReason() {
            throw CommandFailure("the model is unavailable: \(reason). \(ids.count) note\(ids.count == 1 ? "" : "s") stay pending; see 'notes model'.")
        }
        try waitFor { try await analyzer.prewarm() }
        let live = !json && terminal.err.isTerminal
        // On a terminal the response streams into one line (with the count); else a progress bar.
        let progress = ProgressBar(terminal: terminal, total: live ? 0 : ids.count, label: "Analysing")
        var results: [JSON] = []
        for (index, id) in ids.enumerated() {
            guard let note = try store.note(id) else { continue }
            let counter = "[\(index + 1)/\(ids.count)] "
            let show: (@Sendable (String) -> Void)? = live ? { @Sendable (text: String) in LiveLine.shared.show(counter + text) } : nil
            let analysis = try waitFor { try await analyzer.analyze(note, today: Clock.now(), partial: show) }
            if show != nil { LiveLine.shared.finish() }
            let stored = try store.saveAnalysis(analysis, for: id)
            let current = try store.analysis(for: id) ?? analysis
            if json {
                results.append(.object([("id", .string(id.rawValue)), ("stored", .bool(stored)), ("analysis", current.json)]))
            } else if ids.count <= 20 {
                let short = String(id.rawValue.prefix(13))
                terminal.print(terminal.yellow(short) + "  " + note.title)
                terminal.print("    \(current.category.rawValue), urgency \(current.urgency): \(current.summary)")
                for task in current.tasks { terminal.print("    [\(task.done ? "x" : " ")] \(task.text)") }
                if !stored { terminal.printError("    (the note changed meanwhile; this result was not stored)") }
            }
            progress.update(index + 1)
        }
        progress.finish()
        if json { terminal.emit(.array(results)) } else if ids.count > 20 { terminal.printError("Analysed \(ids.count) notes.") }
    }
}

/// One line on standard error, rewritten as a response streams in.
final class LiveLine: @unchecked Sendable {
    static let shared = LiveLine()
    private let output = OutputStream(descriptor: 2)

    func show(_ text: String) {
        let flat = text.replacingOccurrences("\n", with: " ")
        output.write("\r\u{1B}[2K" + String(flat.suffix(110)))
        output.flush()
    }

    func finish() {
        output.write("\r\u{1B}[2K")
        output.flush()
    }
}
