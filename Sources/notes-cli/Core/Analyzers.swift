// The analyzer the commands use: the local model named by the environment and configuration.
import AI
import Notes
import Storage

enum Analyzers {
    /// With `store`, the user's category corrections become examples (read once: a daemon
    /// started before a correction learns it at its next start). `NOTES_SUMMARIES` chooses
    /// where summaries come from.
    static func make(context: Context, store: NoteStore? = nil) throws(CommandFailure) -> NoteAnalyzer {
        guard let summaries = NoteAnalyzer.Summaries.fromEnvironment(context.environment) else {
            let choices = NoteAnalyzer.Summaries.allCases.map(\.rawValue).joined(separator: " or ")
            throw CommandFailure("NOTES_SUMMARIES is \"\(context.environment["NOTES_SUMMARIES"] ?? "")\"; use \(choices)")
        }
        let corrections = store.flatMap { try? $0.categoryCorrections(limit: NoteAnalyzer.maximumCorrections) } ?? []
        return NoteAnalyzer(model: NoteAnalyzer.model(environment: context.environment), corrections: corrections, summaries: summaries)
    }
}
