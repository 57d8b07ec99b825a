// `notes status`: where the notebook is and what is in it.
import Notebook
import Notes

struct StatusCommand: NotesCommand {
    static let configuration = CommandConfiguration(name: "status", abstract: "Show the notebook's location and contents.", options: [Common.json])

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let counts = try notebook.counts()
        let schema = try notebook.schemaVersion()
        // Cheap checks only (file, library): status never loads the model.
        let analyzer = try Analyzers.make(environment: context.environment)
        let pending = try notebook.pendingAnalysisCount(analyzerVersion: analyzer.analyzerVersion)
        let unavailable = analyzer.unavailableReason()
        let readerMissing = Analyzers.reader(environment: context.environment).missing
        let embedder = TextEmbeddings.fromEnvironment(context.environment)
        let vectorsMissing = TextEmbeddings.missing(embedder)
        let lackingVectors = try embedder.map { try notebook.lackingVectorCount(model: $0.version) } ?? counts.notes
        let daemon = DaemonLock.runningPID(home: context.notebookHome)
        let teachers = try Analyzers.categoryTeachers(notebook: notebook, environment: context.environment)
        if json {
            context.terminal.emit(.object([
                ("home", .string(context.home)),
                ("database", .string(context.databasePath)),
                ("schema_version", .int(schema)),
                ("notes", .int(counts.notes)),
                ("deleted", .int(counts.deleted)),
                ("tags", .int(counts.tags)),
                ("links", .int(counts.links)),
                ("broken_links", .int(counts.brokenLinks)),
                ("pending_analysis", .int(pending)),
                ("model", .string(unavailable.map { "unavailable: \($0)" } ?? "available")),
                ("reader", .string(readerMissing.map { "unavailable: \($0)" } ?? "available")),
                ("category_corrections", .int(teachers.corrections)),
                ("category_examples", .int(teachers.examples)),
                ("pending_vectors", .int(lackingVectors)),
                ("embedding_model", .string(vectorsMissing.map { "unavailable: \($0)" } ?? "available")),
                ("daemon_pid", daemon.map { .int(Int($0)) } ?? .null),
            ]))
            return
        }
        let terminal = context.terminal
        terminal.print("Notebook   \(context.home)")
        terminal.print("Database   \(context.databasePath) (schema \(schema))")
        terminal.print("Notes      \(counts.notes) (\(counts.deleted) deleted), \(counts.tags) tags, \(counts.links) links (\(counts.brokenLinks) broken)")
        terminal.print("Analysis   \(pending) pending; model " + (unavailable.map { "unavailable: \($0)" } ?? "available"))
        let corrections = "\(teachers.corrections) correction\(teachers.corrections == 1 ? "" : "s") of yours"
        terminal.print("Categories " + (teachers.examples > 0 ? "\(corrections) and \(teachers.examples) bundled examples vote by meaning"
            : "\(corrections) as examples (the newest \(teachers.inPrompt)); no vote by meaning without the embedding model")
            + " (notes set ID --category C)")
        if let readerMissing { terminal.print("Reading    unavailable: \(readerMissing); tasks and summaries come from the rules") }
        terminal.print("Vectors    \(lackingVectors) note\(lackingVectors == 1 ? "" : "s") without a current one; embedding model "
            + (vectorsMissing.map { "unavailable: \($0); search is by words only" } ?? "available"))
        terminal.print("Daemon     " + (daemon.map { "running (pid \($0))" } ?? "not running"))
    }
}
