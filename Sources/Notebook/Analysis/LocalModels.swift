// What `notes model` shows: the three local models the notebook uses, each with its file and
// whether it can run.
import AI
import Analysis
import Notes

public struct LocalModels {
    /// Scores a note's category (`NOTES_MODEL`).
    public let category: ModelInfo
    /// Reads tasks and summaries (`NOTES_READER_MODEL`); nil when switched off.
    public let reader: ModelInfo?
    /// Why the reader does not run (switched off, or its model's reason); nil when it can.
    public let readerMissing: String?
    /// Turns notes and queries into vectors for search by meaning (`NOTES_EMBEDDING_MODEL`).
    public let embedding: EmbeddingFile
    /// What analyses record as their analyzer: a change of it makes notes pending again.
    public let analyzerVersion: String
    public let summaries: NoteAnalyzer.Summaries

    /// The embedding model's file: checked, never loaded (its parameters are not worth the wait).
    public struct EmbeddingFile {
        /// The file's own name, through a link; nil when switched off.
        public let name: String?
        public let path: String?
        public let sizeBytes: Int?
        /// Why vectors are not made (switched off, or the model's reason); nil when they are.
        public let missing: String?

        /// What `notes model` says of it, one field a line, as `ModelInfo.description` does.
        public var description: String {
            var lines: [String] = []
            if let name { lines.append("Name:         \(name)") }
            lines.append("Model:        " + (missing.map { "unavailable: \($0); search is by words only" } ?? "available"))
            if let path { lines.append("Path:         \(path)") }
            if let sizeBytes { lines.append("Size:         \(ModelInfo.megabytes(sizeBytes)) (\(sizeBytes) bytes)") }
            return lines.joined(separator: "\n")
        }
    }

    /// Loads the category model and the reader when they can run, for their parameters (the
    /// 1.5B reader takes a few seconds); the embedding model is only checked.
    public static func inspect(environment: [String: String]) throws -> LocalModels {
        let analyzer = try Analyzers.make(environment: environment)
        let reading = Analyzers.reader(environment: environment)
        // The reader's file even when it cannot run, so the user sees which file that is.
        let reader = reading.reader?.model ?? NoteReader.model(environment: environment)
        let embedder = TextEmbeddings.fromEnvironment(environment)
        let embeddingPath = embedder?.modelPath
        let embedding = EmbeddingFile(
            name: embeddingPath.map { String(FileSystem.realPath($0).split(separator: "/").last ?? Substring($0)) },
            path: embeddingPath,
            sizeBytes: embeddingPath.flatMap { FileSystem.identity(of: $0) }.map { Int($0.size) },
            missing: TextEmbeddings.missing(embedder))
        return LocalModels(category: analyzer.model.info(), reader: reader?.info(), readerMissing: reading.missing,
                           embedding: embedding, analyzerVersion: analyzer.analyzerVersion, summaries: analyzer.summaries)
    }

    /// The category model's keys at the top, as `notes model --json` wrote them before the
    /// others were shown, then `reader` and `embedding` objects with the same names for the same
    /// things (a switched-off one has nulls and says why in `unavailableReason`).
    public var json: JSON {
        let embeddingJSON: JSON = .object([
            ("name", .optional(embedding.name)),
            ("available", .bool(embedding.missing == nil)),
            ("unavailableReason", .optional(embedding.missing)),
            ("path", .optional(embedding.path)),
            ("sizeBytes", embedding.sizeBytes.map(JSON.int) ?? .null),
        ])
        let readerJSON: JSON = reader?.json ?? .object([
            ("name", .null), ("available", .bool(false)), ("unavailableReason", .optional(readerMissing)), ("path", .null), ("sizeBytes", .null),
        ])
        return .object((category.json.object ?? []) + [
            ("reader", readerJSON),
            ("embedding", embeddingJSON),
            ("analyzer", .string(analyzerVersion)),
            ("summaries", .string(summaries.rawValue)),
        ])
    }
}
