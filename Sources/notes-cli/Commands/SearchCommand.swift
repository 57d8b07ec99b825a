// `notes search`: by words and by meaning together, best match first.
import Notebook
import Notes

struct SearchCommand: NotesCommand {
    static let exact = Flag("--exact", help: "By words only (no search by meaning).")
    static let meaning = Flag("--meaning", help: "By meaning only.")
    static let query = Argument("query", type: .text("query"), help: "What to look for.", repeating: true)

    static let configuration = CommandConfiguration(
        name: "search",
        abstract: "Search notes by words and by meaning, best match first.",
        discussion: """
            Finds the notes that have the words (all of them, stemmed: 'meeting' finds 'meetings')
            and the notes that mean the same in other words ('the vet' finds 'the cat's jabs'),
            ranked together; a note with the very words always ranks above one that only means
            something similar. Use "quoted phrases", prefix* terms, OR, NOT or -word. Titles,
            bodies, summaries and tasks are searched.
            Filters, alone or with words: tag:home, category:work, urgency:>=4 (or 4, <3, ...),
            created:2026-11 (a day, month or year; today, yesterday; <7d: in the last 7 days,
            >30d: before that), updated: likewise, due:<7d (an open task due within 7 days,
            overdue ones included; due:today, due:2026-12-04, due:>=2026-12), links:ID (notes
            linking to ID). A leading - negates a filter. Alone, filters list the notes newest
            change first.
            """,
        options: [exact, meaning, Common.tagFilter, Common.since, Common.until, Common.limit, Common.json],
        arguments: [query],
        dashWords: true
    )

    let query: String
    let filter: NoteFilter
    let mode: NotebookSearch.Mode
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        query = arguments.all(Self.query).joined(separator: " ")
        filter = arguments.noteFilter
        json = arguments[Common.json]
        if arguments[Self.exact], arguments[Self.meaning] { throw UsageError(message: "choose one of --exact and --meaning") }
        mode = arguments[Self.exact] ? .words : arguments[Self.meaning] ? .meaning : .hybrid
        if let invalid = NotebookSearch.invalidFilter(in: query) { throw UsageError(message: invalid.description) }
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let search = NotebookSearch(notebook: notebook, embedder: mode == .words ? nil : DaemonQueryEmbedding.forSearch(environment: context.environment, home: context.notebookHome))
        if mode == .meaning, let reason = search.meaningUnavailable {
            throw CommandFailure("cannot search by meaning: \(reason)")
        }
        if mode != .words { search.embedNewestNotes() }
        let (results, short) = try notebook.reading {
            let results = try search.search(query, filter: filter, mode: mode, now: Timestamp.current)
            return (results, json || results.isEmpty ? [:] : try context.handles(for: results.map(\.hit.id)))
        }
        let terminal = context.terminal
        if json {
            terminal.emit(.array(results.map(\.json)))
            return
        }
        // Notes whose vectors are still to be made (a new model's backlog) are found by their
        // words only until then: a person reading the results is told (scripts do not pay for it).
        if mode != .words, terminal.err.isTerminal, search.meaningUnavailable == nil,
           let version = search.embedderVersion, let waiting = try? notebook.lackingVectorCount(model: version), waiting > 0 {
            terminal.printError(terminal.dim("\(waiting) \(waiting == 1 ? "note waits" : "notes wait") for vectors and \(waiting == 1 ? "is" : "are") found by words only until the daemon or 'notes analyze --vectors' makes them."))
        }
        if results.isEmpty {
            context.printEmpty("No notes match '\(query)'.", notice: context.pendingAnalysisNotice())
            return
        }
        for result in results {
            let how = result.match == .meaning ? terminal.dim("  (by meaning)") : ""
            terminal.print(terminal.yellow(short[result.hit.id] ?? result.hit.id.rawValue) + "  " + terminal.bold(result.hit.title) + how)
            terminal.print("    " + terminal.highlighted(result.hit.snippet))
        }
    }
}
