// `notes model`: which local model analyses notes, and whether it can.
import AI
import Notebook
import Notes

struct ModelCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "model",
        abstract: "Show the local model: availability, file, size, parameters, context, chat template.",
        discussion: """
            Two models: one scores the category (NOTES_MODEL selects another GGUF file), one reads
            tasks and summaries (NOTES_READER_MODEL, or 'none' for the rules alone).
            NOTES_LLAMA_LIBRARY selects another libllama.
            """,
        options: [Common.json]
    )

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let analyzer = try Analyzers.make(environment: context.environment)
        let info = analyzer.model.info()
        let reading = Analyzers.reader(environment: context.environment)
        if json {
            context.terminal.print(info.jsonString)
            return
        }
        let reader = reading.reader.map { "\n\nReader (tasks and summaries):\n" + $0.model.info().description }
            ?? "\n\nReader:       unavailable: \(reading.missing ?? "")\n              tasks and summaries come from the rules"
        context.terminal.print(info.description + reader + "\nAnalyzer:     \(analyzer.analyzerVersion)"
                              + "\nSummaries:    " + (analyzer.summaries == .model ? "written by the model for notes over 30 words (NOTES_SUMMARIES=model)"
                                                                               : "the note's opening sentences (NOTES_SUMMARIES=model lets the model write them)"))
    }
}
