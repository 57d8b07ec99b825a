// The analyzer the commands use: the local model named by the environment and configuration.
import AI
import Notes
import Storage

enum Analyzers {
    /// With `store`, the user's category corrections become examples (read once; the daemon
    /// swaps them in when `corrections(store:)` changes). `NOTES_SUMMARIES` chooses where
    /// summaries come from.
    static func make(context: Context, store: NoteStore? = nil) throws(CommandFailure) -> NoteAnalyzer {
        try make(context: context, corrections: store.map { Analyzers.corrections(store: $0) } ?? [])
    }

    static func make(context: Context, corrections: [(text: String, category: Category)]) throws(CommandFailure) -> NoteAnalyzer {
        guard let summaries = NoteAnalyzer.Summaries.fromEnvironment(context.environment) else {
            let choices = NoteAnalyzer.Summaries.allCases.map(\.rawValue).joined(separator: " or ")
            throw CommandFailure("NOTES_SUMMARIES is \"\(context.environment["NOTES_SUMMARIES"] ?? "")\"; use \(choices)")
        }
        return NoteAnalyzer(model: NoteAnalyzer.model(environment: context.environment), reader: reader(context: context).reader,
                            corrections: corrections, summaries: summaries)
    }

    /// The model that reads tasks and summaries, when it can run; else why not (the analysis then
    /// takes them from the rules, and says so in `notes model` and `notes status`).
    static func reader(context: Context) -> (reader: NoteReader?, missing: String?) {
        guard let model = NoteReader.model(environment: context.environment) else { return (nil, "off (NOTES_READER_MODEL=none)") }
        if case let .unavailable(reason) = model.availability { return (nil, reason) }
        return (NoteReader(model: model), nil)
    }

    /// The corrections an analyzer made now would read as examples.
    static func corrections(store: NoteStore) -> [(text: String, category: Category)] {
        (try? store.categoryCorrections(limit: NoteAnalyzer.maximumCorrections)) ?? []
    }
}
