// `notes show`: one note in full, with its analysis.
import Notebook
import Notes

struct ShowCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a note, its analysis, its links and backlinks, and the three notes nearest in meaning.",
        options: [Common.json],
        arguments: [Common.note]
    )

    let reference: String
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = arguments[Common.note]!
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let note = try notebook.note(reference)
        let id = note.id
        let analysis = try notebook.analysis(for: id)
        let terminal = context.terminal
        if json {
            terminal.emit(note.json(analysis: analysis))
            return
        }
        terminal.print(terminal.bold(note.title))
        terminal.print(terminal.dim("id \(note.id)  created \(note.created.iso8601)  updated \(note.updated.iso8601)"))
        if !note.tags.isEmpty { terminal.print(terminal.cyan(note.tags.map { "#" + $0 }.joined(separator: " "))) }
        if let analysis {
            let stale = analysis.contentHash != note.contentHash ? terminal.yellow(" (from an earlier version of the note)") : ""
            let stage = analysis.stage == .quick ? terminal.dim(" (quick analysis; the model's reading follows)") : ""
            terminal.print(terminal.dim("\(analysis.category.rawValue), urgency \(analysis.urgency)") + stale + stage)
            if !analysis.summary.isEmpty { terminal.print(terminal.dim("Summary: ") + analysis.summary) }
            for (index, task) in analysis.tasks.enumerated() {
                terminal.print("  \(index + 1). [\(task.done ? "x" : " ")] \(task.text)" + (task.due.map { terminal.dim("  due " + $0) } ?? ""))
            }
        }
        terminal.print()
        terminal.print(note.body)
        let links = try notebook.links(from: id)
        let backlinks = try notebook.backlinks(to: id)
        if !links.isEmpty || !backlinks.isEmpty {
            terminal.print()
            for line in try terminal.linkLines(links: links, backlinks: backlinks, context: context) { terminal.print(line) }
        }
        // From the stored vectors only: showing a note never loads the embedding model.
        if let related = try NotebookSearch(notebook: notebook, embedder: TextEmbeddings.fromEnvironment(context.environment)).related(to: id, limit: 3, computeIfMissing: false),
           !related.isEmpty {
            terminal.print()
            terminal.print(terminal.dim("Related:"))
            let short = try context.handles(for: related.map(\.id))
            for note in related {
                terminal.print("  " + terminal.yellow(short[note.id] ?? note.id.rawValue) + "  " + note.title + terminal.dim("  \(note.roundedSimilarity)"))
            }
        }
    }
}
