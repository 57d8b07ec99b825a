// `notes list`: notes, newest change first, with filters.
import Notebook
import Notes

struct ListCommand: NotesCommand {
    static let category = Option("--category", type: .choice("category", Category.self),
                                 help: "Only notes analysed into this category (\(Category.allCases.map(\.rawValue).joined(separator: ", "))).")
    static let urgency = Option("--urgency", type: .integer("1-5", in: Analysis.urgencyRange), help: "Only notes with this urgency.")

    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List notes, most recently changed first.",
        options: [Common.tagFilter, category, urgency, Common.since, Common.until, Common.limit, Common.json]
    )

    let filter: NoteFilter
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        var filter = arguments.noteFilter
        filter.category = arguments[Self.category]
        filter.urgency = arguments[Self.urgency]
        self.filter = filter
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let notes = try notebook.notesWithAnalyses(matching: filter, forLines: !json)
        if json {
            context.terminal.emit(each: notes) { $0.note.json(analysis: $0.analysis) }
            return
        }
        if notes.isEmpty {
            if try notebook.counts().notes == 0 {
                context.terminal.printError("No notes yet. Add one with: notes add \"...\"")
            } else {
                // A category or an urgency comes from the analysis: unanalysed notes have none yet.
                context.printEmpty("No notes match.", notice: filter.category != nil || filter.urgency != nil ? context.pendingAnalysisNotice() : nil)
            }
            return
        }
        // Listing every note, the handles need no second read of the ids.
        let ids = notes.map(\.note.id)
        let handles = filter.keepsAll ? NoteHandle.handles(for: ids, among: []) : try context.handles(for: ids)
        for (note, analysis) in notes {
            context.terminal.print(context.terminal.noteLine(note, shortID: handles[note.id] ?? note.id.rawValue, analysis: analysis))
        }
    }
}
