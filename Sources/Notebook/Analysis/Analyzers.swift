// The analyzer the notebook uses: the local models named by the environment and configuration,
// and the user's category corrections as examples.
import AI
import Analysis
import Notes
import Storage

/// A setting that names no analyzer; nothing was analysed.
struct AnalyzerSettingError: Error, CustomStringConvertible {
    let description: String
}

public enum Analyzers {
    /// With `store`, the user's category corrections become examples (read once; the daemon
    /// swaps them in when `corrections(store:)` changes) and vote with the bundled examples
    /// nearest in meaning (`CategoryNeighbours`, when the embedding model can run).
    /// `NOTES_SUMMARIES` chooses where summaries come from.
    public static func make(environment: [String: String], store: NoteStore? = nil) throws -> NoteAnalyzer {
        try make(environment: environment, corrections: store.map { Analyzers.corrections(store: $0, environment: environment) } ?? [])
    }

    /// The same, with `notebook`'s corrections.
    public static func make(environment: [String: String], notebook: LocalNotebook) throws -> NoteAnalyzer {
        try make(environment: environment, store: notebook.store)
    }

    /// `voting` false: no vote of the labelled notes (nothing to embed), for a caller whose
    /// category is already known.
    public static func make(environment: [String: String], corrections: [CategoryCorrection], voting: Bool = true) throws -> NoteAnalyzer {
        guard let summaries = NoteAnalyzer.Summaries.fromEnvironment(environment) else {
            let choices = NoteAnalyzer.Summaries.allCases.map(\.rawValue).joined(separator: " or ")
            throw AnalyzerSettingError(description: "\(Settings.Variable.summaries.rawValue) is \"\(Settings(environment).exactly(.summaries) ?? "")\"; use \(choices)")
        }
        return NoteAnalyzer(model: NoteAnalyzer.model(environment: environment), reader: reader(environment: environment).reader,
                            corrections: corrections.map { ($0.text, $0.category) }, neighbours: voting ? neighbours(environment: environment, corrections: corrections) : nil,
                            summaries: summaries)
    }

    /// The model that reads tasks and summaries, when it can run; else why not (the analysis then
    /// takes them from the rules, and says so in `notes model` and `notes status`).
    public static func reader(environment: [String: String]) -> (reader: NoteReader?, missing: String?) {
        guard let model = NoteReader.model(environment: environment) else { return (nil, "off (NOTES_READER_MODEL=none)") }
        if case let .unavailable(reason) = model.availability { return (nil, reason) }
        return (NoteReader(model: model), nil)
    }

    /// Every correction, newest first, with its stored vector by the embedding model the
    /// environment names (the category scorer's prompt reads the newest
    /// `NoteAnalyzer.maximumCorrections`; the neighbours, all of them).
    public static func corrections(store: NoteStore, environment: [String: String]) -> [CategoryCorrection] {
        let version = TextEmbeddings.fromEnvironment(environment)?.version
        return ((try? store.categoryCorrections(vectorModel: version)) ?? []).map { CategoryCorrection(text: $0.text, category: $0.category, vector: $0.vector) }
    }

    /// The bundled examples and the corrections, voting through the embedding model the
    /// environment names; nil when it cannot run (the category is then the scorer's alone).
    /// Only the cheap checks run here: nothing is embedded before the first vote.
    public static func neighbours(environment: [String: String], corrections: [CategoryCorrection]) -> CategoryNeighbours? {
        guard let embedder = TextEmbeddings.fromEnvironment(environment), embedder.unavailableReason() == nil else { return nil }
        return CategoryNeighbours(modelVersion: embedder.version, corrections: corrections,
                                  cacheDirectory: ModelConfiguration.cacheDirectory(environment)) { texts in
            // A note's first part is its vector here, as chunk 0 is in the store.
            try embedder.embed(documents: texts.map(CategoryNeighbours.firstPart(of:))).map { $0.first ?? [] }
        }
    }

    /// Who teaches the categories: the user's corrections (all of them vote, the newest
    /// `inPrompt` are also the scorer's examples) and, when the embedding model can run, the
    /// bundled examples (else none: no vote by meaning).
    public static func categoryTeachers(notebook: LocalNotebook, environment: [String: String]) throws -> (corrections: Int, examples: Int, inPrompt: Int) {
        let corrections = try notebook.store.categoryCorrectionCount()
        let examples = neighbours(environment: environment, corrections: []) == nil ? 0 : CategoryNeighbours.examples.count
        return (corrections, examples, min(corrections, NoteAnalyzer.maximumCorrections))
    }
}
