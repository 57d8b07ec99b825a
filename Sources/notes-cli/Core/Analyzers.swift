// The analyzer the commands use: the local model named by the environment and configuration.
import AI
import Notes

enum Analyzers {
    static func make(context: Context) -> NoteAnalyzer {
        NoteAnalyzer(model: NoteAnalyzer.model(environment: context.environment))
    }
}
