// The port through which the notebook turns text into vectors, whatever model does it (AI's
// MultilingualEmbeddingModel and EmbeddingModel, below; the tests a fake).
import AI
import Notes
import Storage

public protocol TextEmbedding: Sendable {
    /// Stored with every vector: vectors of another version are not current.
    var version: String { get }

    /// Below this cosine a note is not about what a query asks: each model spreads unrelated
    /// texts over a range of its own.
    var queryFloor: Float { get }

    /// The same between two notes (`notes related`), which a model places closer than a query
    /// and a note.
    var relatedFloor: Float { get }

    /// Why embeddings cannot be made now (no model file, no library), or nil when they can.
    func unavailableReason() -> String?

    /// The model's file, for `notes model`; nil for one that has none to show.
    var modelPath: String? { get }

    /// One unit-length vector for a search query.
    func embed(query: String) throws -> [Float]

    /// For each document (a note's title and body), the unit-length vectors of its chunks, in
    /// order, at least one.
    func embed(documents: [String]) throws -> [[[Float]]]
}

extension TextEmbedding {
    /// Embeds the notes (their title and body) and stores the vectors of those that still have
    /// the text embedded; returns the ids stored. The one way the notebook makes notes' vectors.
    func embedAndStore(_ notes: [Note], in store: NoteStore) throws -> [NoteID] {
        let vectors = try embed(documents: notes.map { NoteText.fullText(title: $0.title, body: $0.body) })
        return try store.saveVectors(zip(notes, vectors).map { (id: $0.id, contentHash: $0.contentHash, chunks: $1) }, model: version)
    }

    public var modelPath: String? { nil }
    /// all-MiniLM-L6-v2 puts unrelated short texts near 0.0 to 0.2, and paraphrases above 0.4.
    public var queryFloor: Float { 0.3 }
    public var relatedFloor: Float { 0.3 }
}

extension EmbeddingModel: TextEmbedding {
    public var modelPath: String? { path }

    public func unavailableReason() -> String? {
        if case let .unavailable(reason) = availability { return reason }
        return nil
    }
}

extension MultilingualEmbeddingModel: TextEmbedding {
    public var modelPath: String? { path }

    public func unavailableReason() -> String? {
        if case let .unavailable(reason) = availability { return reason }
        return nil
    }

    /// multilingual-e5-small's cosines are all high. Measured on the dev queries of
    /// bench/search/multilingual.py: the note looked for scored 0.79 to 0.95 against its query,
    /// half the others below 0.78.
    public var queryFloor: Float { 0.78 }
    /// Two notes are closer still: on bench/search's related probes each note's pair scored 0.824
    /// or more, the other notes among its 50 nearest mostly 0.83 to 0.87.
    public var relatedFloor: Float { 0.82 }
}

/// The embedding model the environment names.
public enum TextEmbeddings {
    /// `NOTES_EMBEDDING_MODEL`: `none` (search by words only, no vectors made), or a GGUF run
    /// through llama.cpp: multilingual-e5-small when a unigram table is beside it (set-up's), any
    /// other as an English sentence model (all-MiniLM-L6-v2); unset, the multilingual model
    /// set-up installs in `$NOTES_DEPS/e5`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.current) -> (any TextEmbedding)? {
        let settings = Settings(environment)
        let library = settings[.llamaLibrary]
        guard let path = settings[.embeddingModel] else {
            return MultilingualEmbeddingModel(path: settings.deps + "/e5/" + MultilingualEmbeddingModel.installedName, libraryPath: library)
        }
        if path == "none" { return nil }
        if MultilingualEmbeddingModel.reads(path) { return MultilingualEmbeddingModel(path: path, libraryPath: library) }
        return EmbeddingModel.fromEnvironment(environment)
    }

    /// Why vectors are not made with `model` (from `fromEnvironment`): switched off, or the
    /// model's reason; nil when they are.
    public static func missing(_ model: (any TextEmbedding)?) -> String? {
        guard let model else { return "off (NOTES_EMBEDDING_MODEL=none)" }
        return model.unavailableReason()
    }
}
