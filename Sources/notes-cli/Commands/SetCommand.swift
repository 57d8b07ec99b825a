// `notes set`: the user corrects an analysis; the correction outlives every re-analysis.
import Notebook
import Notes

struct SetCommand: NotesCommand {
    static let category = Option("--category", type: .choice("category", Category.self),
                                 help: "One of \(Category.allCases.map(\.rawValue).joined(separator: ", ")).")
    static let urgency = Option("--urgency", type: .integer("1-5", in: Analysis.urgencyRange), help: "1 (whenever) to 5 (today).")

    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Correct a note's category or urgency.",
        discussion: "Your correction wins over this analysis and every later one.",
        options: [category, urgency],
        arguments: [Common.note]
    )

    let reference: String
    let category: Category?
    let urgency: Int?

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = arguments[Common.note]!
        category = arguments[Self.category]
        urgency = arguments[Self.urgency]
        if category == nil, urgency == nil { throw UsageError(message: "give --category, --urgency or both") }
    }

    func run(_ context: Context) throws {
        let analysis = try context.notebook().correct(reference, category: category, urgency: urgency, environment: context.environment, today: Timestamp.current)
        context.terminal.printError("Set: \(analysis.category.rawValue), urgency \(analysis.urgency)")
    }
}
