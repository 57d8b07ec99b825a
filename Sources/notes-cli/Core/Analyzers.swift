// The analyzer the commands use: the local model named by the environment and configuration.
import AI
import Notes
import Storage

enum Analyzers {
    /// With `store`, the user's category corrections become examples (read once: a daemon
    /// started before a correction learns it at its next start).
    static func make(context: Context, store: NoteStore? = nil) -> NoteAnalyzer {
        let corrections = store.flatMap { try? $0.categoryCorrections(limit: NoteAnalyzer.maximumCorrections) } ?? []
        return NoteAnalyzer(model: NoteAnalyzer.model(environment: context.environment), corrections: corrections)
    }
}
