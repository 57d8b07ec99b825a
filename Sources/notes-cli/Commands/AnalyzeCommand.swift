// `notes analyze`: analyse notes now, in the foreground.
import Notebook
import Notes

struct AnalyzeCommand: NotesCommand {
    static let all = Flag("--all", help: "Analyse every note.")
    static let stale = Flag("--stale", help: "Analyse the notes whose full analysis is missing or out of date (the default).")
    static let quick = Flag("--quick", help: "Only the quick stage, without generation: vectors, and the quick analysis of notes that have none.")
    static let vectors = Flag("--vectors", help: "Only the vectors for search by meaning (seconds for a fresh import of thousands of notes).")
    static let notes = Argument("id", type: .note, help: "Notes to analyse (handles, or unique starts or ends of their ids).", optional: true, repeating: true)

    static let configuration = CommandConfiguration(
        name: "analyze",
        abstract: "Analyse notes now with the local model.",
        usage: "[<id> ...] [--all | --stale | --quick | --vectors] [--json]",
        discussion: """
            With ids, analyses those notes again. With --all, every note. Otherwise (or with
            --stale), the notes without a full analysis of their current text. Without ids, every
            note's vectors for search by meaning are brought current first (only the notes whose
            text changed are embedded again). --quick gives every
            note without any analysis of its text the quick one (category, checklist items,
            deadlines, its opening as summary; no generation), for a fresh import: with more
            than 8 notes waiting it needs no model (the category from tags and keywords). The
            daemon then replaces each with the full one. On a terminal the fields appear as they are
            generated. The daemon does the same in the background.
            """,
        options: [all, stale, quick, vectors, Common.json],
        arguments: [notes]
    )

    let references: [String]
    let all: Bool
    let quick: Bool
    let vectorsOnly: Bool
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        references = arguments.all(Self.notes)
        all = arguments[Self.all]
        quick = arguments[Self.quick]
        vectorsOnly = arguments[Self.vectors]
        json = arguments[Common.json]
        let stale = arguments[Self.stale]
        if [all, stale, quick, vectorsOnly].filter({ $0 }).count > 1 { throw UsageError(message: "choose one of --all, --stale, --quick and --vectors") }
        if !references.isEmpty, all || quick || vectorsOnly || stale { throw UsageError(message: "give ids or --all/--stale/--quick/--vectors, not both") }
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let analyzer = try Analyzers.make(environment: context.environment, notebook: notebook)
        let selection: AnalyzeNotes.Selection = !references.isEmpty ? .notes(try references.map { try notebook.id(of: $0) })
            : all ? .notes(try notebook.notes().map(\.id).reversed()) : quick ? .quickPending : vectorsOnly ? .vectorsOnly : .pending
        let run = AnalyzeNotes(notebook: notebook, analyzer: analyzer, embedder: TextEmbeddings.fromEnvironment(context.environment), clock: { Timestamp.current })
        let terminal = context.terminal
        let live = !json && terminal.err.isTerminal && !quick
        var results: [JSON] = []
        var progress: ProgressBar?
        var vectors = (lacking: 0, made: 0)
        var total = 0
        var throughput: Throughput?
        // On a terminal the response streams into one line (with the count); else a progress bar.
        let partial = { (done: Int) -> (@Sendable (String) -> Void)? in
            guard live, let throughput else { return nil }
            let counter = "[" + (total == 1 ? "1/1" : throughput.report(done: done, now: Timestamp.current.milliseconds)) + "] "
            return { @Sendable (text: String) in LiveLine.shared.show(counter + text) }
        }
        try run.run(selection, partial: partial) { event in
            switch event {
            case let .vectorsToMake(count):
                vectors.lacking = count
                progress = ProgressBar(terminal: terminal, total: count, label: "Vectors")
            case let .vectorsMade(count):
                vectors.made = count
                progress?.update(count)
            case let .vectorsFailed(notes, error):
                terminal.printError("Warning: cannot make the vectors of \(notes) note\(notes == 1 ? "" : "s"): \(error)")
            case let .toAnalyse(count):
                if vectors.lacking > 0 {
                    progress?.finish()
                    if !json, vectors.lacking > 20 { terminal.printError("Vectors made for \(vectors.made) note\(vectors.made == 1 ? "" : "s").") }
                }
                total = count
                if count == 0 {
                    if json { terminal.emit(.array([])) } else { terminal.printError("Every note is analysed.") }
                    return
                }
                progress = ProgressBar(terminal: terminal, total: live ? 0 : count, label: quick ? "Quick analysis" : "Analysing")
                throughput = Throughput(total: count, started: Timestamp.current.milliseconds)
            case let .analysed(id, analysis, stored, done):
                if live { LiveLine.shared.finish() }
                results.append(AnalyzeCommand.result(id, stored: stored, analysis, notebook: notebook, terminal: terminal, verbose: !json && total <= 20))
                progress?.update(done)
                // Off a terminal (a log, a pipe) a long run says how far it is, a line a note.
                if !json, total > 20, !terminal.err.isTerminal, stored, let analysis {
                    terminal.printError("[\(done)/\(total)] " + AnalyzeCommand.line(id, analysis, notebook: notebook))
                }
            }
        }
        if vectorsOnly {
            if vectors.lacking > 0 {
                progress?.finish()
                if !json { terminal.printError("Vectors made for \(vectors.made) note\(vectors.made == 1 ? "" : "s").") }
            }
            if json { terminal.emit(.array([])) }
            return
        }
        guard total > 0 else { return }
        progress?.finish()
        if json { terminal.emit(.array(results)) } else if total > 20 { terminal.printError("Analysed \(results.count) notes.") }
    }

    /// `3f2a1c  Title: work, urgency 4, 2 tasks`.
    static func line(_ id: NoteID, _ analysis: Analysis, notebook: LocalNotebook) -> String {
        let title = (try? notebook.note(id: id))?.title ?? ""
        let count = analysis.tasks.count
        return ((try? notebook.handle(of: id)) ?? id.rawValue) + "  \(title): \(analysis.category.rawValue), urgency \(analysis.urgency), \(count) task\(count == 1 ? "" : "s")"
    }

    /// A note's line in the output: what is stored now, and whether this result was.
    static func result(_ id: NoteID, stored: Bool, _ analysis: Analysis?, notebook: LocalNotebook, terminal: Terminal, verbose: Bool) -> JSON {
        let current = (try? notebook.analysis(for: id)) ?? analysis
        if verbose, let note = try? notebook.note(id: id) {
            terminal.print(terminal.yellow((try? notebook.handle(of: id)) ?? id.rawValue) + "  " + note.title)
            if let current {
                terminal.print("    \(current.category.rawValue), urgency \(current.urgency): \(current.summary)")
                for task in current.tasks { terminal.print("    [\(task.done ? "x" : " ")] \(task.text)" + (task.due.map { "  (due \($0))" } ?? "")) }
            }
            if !stored { terminal.printError("    (the note changed meanwhile; this result was not stored)") }
        }
        return .object([("id", .string(id.rawValue)), ("stored", .bool(stored)), ("analysis", current?.json ?? .null)])
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
