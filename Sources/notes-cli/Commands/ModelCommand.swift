// `notes model`: which local models analyse and embed notes, and whether each can run.
import Notebook
import Notes

struct ModelCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "model",
        abstract: "Show the local models: availability, file, size, parameters, context, chat template.",
        discussion: """
            Two models analyse: one scores the category (NOTES_MODEL selects another GGUF file),
            one reads tasks and summaries (NOTES_READER_MODEL, or 'none' for the rules alone); a
            third embeds notes for search by meaning (NOTES_EMBEDDING_MODEL, or 'none').
            NOTES_LLAMA_LIBRARY selects another libllama. With --json the category model's keys
            come first, then "reader" and "embedding" objects with the same keys.
            """,
        options: [Common.json]
    )

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let models = try LocalModels.inspect(environment: context.environment)
        if json {
            context.terminal.emit(models.json)
            return
        }
        var reader = models.reader.map { "\n\nReader (tasks and summaries):\n" + $0.description }
            ?? "\n\nReader:       unavailable: \(models.readerMissing ?? "")"
        if models.readerMissing != nil { reader += "\n              tasks and summaries come from the rules" }
        let vectors = "\n\nEmbedding (search by meaning):\n" + models.embedding.description
        let summaries = models.summaries == .model ? "written by the model for notes over 30 words (NOTES_SUMMARIES=model)"
            : "the note's opening sentences (NOTES_SUMMARIES=model lets the model write them)"
        let category = "Category (scores each note's category):\n" + models.category.description
        context.terminal.print(category + reader + vectors + "\n\nAnalyzer:     \(models.analyzerVersion)\nSummaries:    " + summaries)
    }
}
