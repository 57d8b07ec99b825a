// What the daemon's files (Daemon/) still take from the CLI: the notebook's store, and the
// embedding model by the environment. They move to Notebook/Daemon; this file goes with them.
@_spi(Daemon) import Notebook
import Storage

extension Context {
    // Only the daemon's files still use this; they move to Notebook/Daemon.
    func store() throws -> NoteStore { try notebook().store }
}

// Only the daemon's files still use this; they move to Notebook/Daemon.
enum Embeddings {
    static func make(context: Context) -> (any TextEmbedding)? { TextEmbeddings.fromEnvironment(context.environment) }
    static func make(environment: [String: String]) -> (any TextEmbedding)? { TextEmbeddings.fromEnvironment(environment) }
    static func missing(_ model: (any TextEmbedding)?) -> String? { TextEmbeddings.missing(model) }
}
