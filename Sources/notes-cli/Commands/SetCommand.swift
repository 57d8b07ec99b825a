// `notes set`: the user corrects an analysis; the correction outlives every re-analysis.
import Notes
import Storage

struct SetCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Correct a note's category or urgency.",
        discussion: "Your correction wins over this analysis and every later one.",
        options: [
            .value("--category", placeholder: "category", help: "One of \(Category.allCases.map(\.rawValue).joined(separator: ", "))."),
            .value("--urgency", placeholder: "1-5", help: "1 (whenever) to 5 (today)."),
        ],
        positionals: [.noteID]
    )

    let reference: String
    let category: Category?
    let urgency: Int?

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = try arguments.requirePositionals(["id"])[0]
        if let text = arguments.value("category") {
            guard let parsed = Category(rawValue: text.lowercased()) else {
                throw UsageError(message: "unknown category '\(text)' (one of \(Category.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            category = parsed
        } else {
            category = nil
        }
        if let text = arguments.value("urgency") {
            guard let number = Int(text), Analysis.urgencyRange.contains(number) else { throw UsageError(message: "--urgency must be 1 to 5") }
            urgency = number
        } else {
            urgency = nil
        }
        if category == nil, urgency == nil { throw UsageError(message: "give --category, --urgency or both") }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let id = try store.resolve(reference)
        try store.correct(id, category: category, urgency: urgency)
        let analysis = try store.analysis(for: id)
        context.terminal.printError("Set: \(analysis?.category.rawValue ?? "?"), urgency \(analysis?.urgency ?? 0)")
    }
}
