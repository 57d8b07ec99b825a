// `notes search`: full-text search, best match first.
import Notes
import Storage

struct SearchCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "search",
        abstract: "Search notes, best match first.",
        discussion: """
            Words must all match (stemmed: 'meeting' finds 'meetings'). Use "quoted phrases",
            prefix* terms, OR, NOT or -word. Titles, bodies, summaries and tasks are searched.
            links:ID keeps the notes that link to the note ID (any unique prefix of its id),
            -links:ID those that do not; alone, it lists them newest change first.
            """,
        options: [.tagFilter, .since, .until, .limit, .json],
        positionals: [PositionalSpec(name: "query", help: "What to look for.", repeating: true)]
    )

    let query: String
    let filter: NoteFilter
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing <query>") }
        query = arguments.positionals.joined(separator: " ")
        filter = try arguments.noteFilter(now: Clock.now())
        json = arguments.has("json")
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let hits = try store.search(query, filter: filter)
        let terminal = context.terminal
        if json {
            terminal.emit(.array(hits.map { hit in
                .object([
                    ("id", .string(hit.id.rawValue)),
                    ("title", .string(hit.title)),
                    ("snippet", .string(hit.snippet.replacingOccurrences(SearchHit.highlightStart, with: "**")
                        .replacingOccurrences(SearchHit.highlightEnd, with: "**"))),
                    ("score", .double((hit.score * 1000).rounded() / 1000)),
                ])
            }))
            return
        }
        if hits.isEmpty {
            terminal.printError("No notes match '\(query)'.")
            return
        }
        let short = try context.shortIDs(for: hits.map(\.id))
        for hit in hits {
            terminal.print(terminal.yellow(short[hit.id] ?? hit.id.rawValue) + "  " + terminal.bold(hit.title))
            terminal.print("    " + terminal.highlighted(hit.snippet))
        }
    }
}
