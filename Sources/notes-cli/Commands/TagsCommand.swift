// `notes tags`: every tag with its number of notes.
import Notebook
import Notes

struct TagsCommand: NotesCommand {
    static let configuration = CommandConfiguration(name: "tags", abstract: "List tags with their number of notes.", options: [Common.json])

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let tags = try context.notebook().tags()
        if json {
            context.terminal.emit(.array(tags.map { .object([("tag", .string($0.tag)), ("count", .int($0.count))]) }))
            return
        }
        if tags.isEmpty { context.terminal.printError("No tags yet: write #tag in a note, or use --tag.") }
        for (tag, count) in tags { context.terminal.print(context.terminal.cyan("#" + tag) + "  \(count)") }
    }
}
