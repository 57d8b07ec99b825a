// `notes model`: which local model analyses notes, and whether it can.
import AI
import Notes

struct ModelCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "model",
        abstract: "Show the local model: availability, file, size, parameters, context, chat template.",
        discussion: "NOTES_MODEL selects another GGUF file; NOTES_LLAMA_LIBRARY another libllama.",
        options: [.json]
    )

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        _ = try arguments.requirePositionals([])
        json = arguments.has("json")
    }

    func run(_ context: Context) throws {
        let analyzer = try Analyzers.make(context: context)
        let info = analyzer.model.info()
        context.terminal.print(json ? info.jsonString : info.description + "\nAnalyzer:     \(analyzer.analyzerVersion)"
                              + "\nSummaries:    " + (analyzer.summaries == .model ? "written by the model for notes over 30 words (NOTES_SUMMARIES=model)"
                                                                               : "the note's opening sentences (NOTES_SUMMARIES=model lets the model write them)"))
    }
}
