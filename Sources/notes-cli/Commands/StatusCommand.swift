// `notes status`: where the notebook is and what is in it.
import Notes
import Storage

struct StatusCommand: NotesCommand {
    static let configuration = CommandConfiguration(name: "status", abstract: "Show the notebook's location and contents.", options: [.json])

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        _ = try arguments.requirePositionals([])
        json = arguments.has("json")
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let counts = try store.counts()
        let schema = Int(try store.database.scalarInt("PRAGMA user_version") ?? 0)
        if json {
            context.terminal.emit(.object([
                ("home", .string(context.home)),
                ("database", .string(context.databasePath)),
                ("schema_version", .int(schema)),
                ("notes", .int(counts.notes)),
                ("deleted", .int(counts.deleted)),
                ("tags", .int(counts.tags)),
            ]))
            return
        }
        let terminal = context.terminal
        terminal.print("Notebook   \(context.home)")
        terminal.print("Database   \(context.databasePath) (schema \(schema))")
        terminal.print("Notes      \(counts.notes) (\(counts.deleted) deleted), \(counts.tags) tags")
    }
}
