// `notes list`: notes, newest change first, with filters.
import Notes
import Storage

struct ListCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List notes, most recently changed first.",
        options: [
            .tagFilter,
            .value("--category", placeholder: "category", help: "Only notes analysed into this category (\(Category.allCases.map(\.rawValue).joined(separator: ", ")))."),
            .value("--urgency", placeholder: "1-5", help: "Only notes with this urgency."),
            .since, .until, .limit, .json,
        ]
    )

    let filter: NoteFilter
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        _ = try arguments.requirePositionals([])
        var filter = try arguments.noteFilter(now: Clock.now())
        if let category = arguments.value("category") {
            guard let parsed = Category(rawValue: category.lowercased()) else {
                throw UsageError(message: "unknown category '\(category)' (one of \(Category.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            filter.category = parsed
        }
        if let urgency = arguments.value("urgency") {
            guard let number = Int(urgency), Analysis.urgencyRange.contains(number) else { throw UsageError(message: "--urgency must be 1 to 5") }
            filter.urgency = number
        }
        self.filter = filter
        json = arguments.has("json")
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let notes = try store.notesWithAnalyses(matching: filter)
        if json {
            context.terminal.emit(.array(notes.map { $0.note.json(analysis: $0.analysis) }))
            return
        }
        if notes.isEmpty {
            context.terminal.printError(try store.counts().notes == 0 ? "No notes yet. Add one with: notes add \"...\"" : "No notes match.")
            return
        }
        let handles = try context.handles(for: notes.map(\.note.id))
        for (note, analysis) in notes {
            context.terminal.print(context.terminal.noteLine(note, shortID: handles[note.id] ?? note.id.rawValue, analysis: analysis))
        }
    }
}
