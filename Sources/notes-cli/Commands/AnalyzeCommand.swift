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
        let embedder = TextEmbeddings.fromEnvironment(context.environment)
        let ids: [NoteID]? = !references.isEmpty ? try references.map { try notebook.id(of: $0) } : all ? try notebook.notes().map(\.id).reversed() : nil
        let terminal = context.terminal
        var results: [JSON] = []
        var done = 0
        var failure: (any Error)?
        var progress: ProgressBar?
        var total = 0
        let queue = AnalysisQueue(notebook: notebook, analyzer: analyzer, embedder: embedder, clock: Clock.now) { event in
            switch event {
            case .started: return
            case let .embedded(stored, _):
                done += stored.count
                progress?.update(done)
                return
            case let .embeddingFailed(notes, error):
                terminal.printError("Warning: cannot make the vectors of \(notes.count) note\(notes.count == 1 ? "" : "s"): \(error)")
                return
            case let .stored(id, analysis, _): results.append(AnalyzeCommand.result(id, stored: true, analysis, notebook: notebook, terminal: terminal, verbose: !json && total <= 20))
            case let .changedMeanwhile(id): results.append(AnalyzeCommand.result(id, stored: false, nil, notebook: notebook, terminal: terminal, verbose: !json && total <= 20))
            case let .failed(_, error): failure = error
            }
            done += 1
            progress?.update(done)
            // Off a terminal (a log, a pipe) a long run says how far it is, a line a note.
            if !json, total > 20, !terminal.err.isTerminal, case let .stored(id, analysis, _) = event {
                terminal.printError("[\(done)/\(total)] " + AnalyzeCommand.line(id, analysis, notebook: notebook))
            }
        }
        if vectorsOnly, let missing = TextEmbeddings.missing(embedder) {
            throw CommandFailure("cannot make vectors: \(missing)")
        }
        if ids == nil, embedder?.unavailableReason() == nil {
            let lacking = try queue.lackingVectorCount()
            if lacking > 0 {
                progress = ProgressBar(terminal: terminal, total: lacking, label: "Vectors")
                while try queue.embedNext() {}
                progress?.finish()
                if !json, lacking > 20 || vectorsOnly { terminal.printError("Vectors made for \(done) note\(done == 1 ? "" : "s").") }
            }
        }
        if vectorsOnly {
            if json { terminal.emit(.array([])) }
            return
        }
        done = 0
        total = try ids?.count ?? (quick ? queue.pendingQuickCount() : queue.pendingCount())
        if total == 0 {
            if json { terminal.emit(.array([])) } else { terminal.printError("Every note is analysed.") }
            return
        }
        // A backlog's quick stage needs no model; a few notes' loads only the category's, on first use.
        let usesModel = try !quick || ids != nil || queue.quickStageUsesModel()
        if usesModel, let reason = analyzer.unavailableReason() {
            throw CommandFailure("the model is unavailable: \(reason). \(total) note\(total == 1 ? "" : "s") stay pending; see 'notes model'.")
        }
        if !quick { try waitFor { try await analyzer.prewarm() } }
        let live = !json && terminal.err.isTerminal && !quick
        // On a terminal the response streams into one line (with the count); else a progress bar.
        progress = ProgressBar(terminal: terminal, total: live ? 0 : total, label: quick ? "Quick analysis" : "Analysing")
        let throughput = Throughput(total: total, started: Clock.now().milliseconds)
        func show(_ index: Int) -> (@Sendable (String) -> Void)? {
            let counter = "[" + (total == 1 ? "1/1" : throughput.report(done: index - 1, now: Clock.now().milliseconds)) + "] "
            return live ? { @Sendable (text: String) in LiveLine.shared.show(counter + text) } : nil
        }
        if let ids {
            for id in ids {
                let partial = show(done + 1)
                try waitFor { try await queue.analyze(id, partial: partial) }
                if live { LiveLine.shared.finish() }
                if let failure { throw failure }
            }
        } else {
            let stages: AnalysisQueue.Stages = quick ? .quickOnly : .fullOnly
            while true {
                let partial = show(done + 1)
                guard try waitFor({ try await queue.step(stages, partial: partial) }) else { break }
                if live { LiveLine.shared.finish() }
                if let failure { throw failure }
            }
        }
        progress?.finish()
        if json { terminal.emit(.array(results)) } else if total > 20 { terminal.printError("Analysed \(done) notes.") }
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
