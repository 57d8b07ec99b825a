// The analyzer the notebook uses: the local models named by the environment and configuration,
// and the user's category corrections as examples.
import AI
import Notes
import Storage

/// A setting that names no analyzer; nothing was analysed.
struct AnalyzerSettingError: Error, CustomStringConvertible {
    let description: String
}

public enum Analyzers {
    /// With `store`, the user's category corrections become examples (read once; the daemon
    /// swaps them in when `corrections(store:)` changes). `NOTES_SUMMARIES` chooses where
    /// summaries come from.
    public static func make(environment: [String: String], store: NoteStore? = nil) throws -> NoteAnalyzer {
        try make(environment: environment, corrections: store.map { Analyzers.corrections(store: $0) } ?? [])
    }

    public static func make(environment: [String: String], corrections: [(text: String, category: Category)]) throws -> NoteAnalyzer {
        guard let summaries = NoteAnalyzer.Summaries.fromEnvironment(environment) else {
            let choices = NoteAnalyzer.Summaries.allCases.map(\.rawValue).joined(separator: " or ")
            throw AnalyzerSettingError(description: "NOTES_SUMMARIES is \"\(environment["NOTES_SUMMARIES"] ?? "")\"; use \(choices)")
        }
        return NoteAnalyzer(model: NoteAnalyzer.model(environment: environment), reader: reader(environment: environment).reader,
                            corrections: corrections, summaries: summaries)
    }

    /// The model that reads tasks and summaries, when it can run; else why not (the analysis then
    /// takes them from the rules, and says so in `notes model` and `notes status`).
    public static func reader(environment: [String: String]) -> (reader: NoteReader?, missing: String?) {
        guard let model = NoteReader.model(environment: environment) else { return (nil, "off (NOTES_READER_MODEL=none)") }
        if case let .unavailable(reason) = model.availability { return (nil, reason) }
        return (NoteReader(model: model), nil)
    }

    /// The corrections an analyzer made now would read as examples.
    public static func corrections(store: NoteStore) -> [(text: String, category: Category)] {
        (try? store.categoryCorrections(limit: NoteAnalyzer.maximumCorrections)) ?? []
    }
}
