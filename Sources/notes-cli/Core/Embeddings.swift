// The embedding model the commands use, named by the environment (Notebook makes it its port).
import AI
import Notebook

enum Embeddings {
    /// `NOTES_EMBEDDING_MODEL` (a GGUF path, or `none`), else the one set-up installs.
    static func make(context: Context) -> (any TextEmbedding)? {
        make(environment: context.environment)
    }

    /// The same, from the environment alone (for the daemon's query thread, which has no context).
    static func make(environment: [String: String]) -> (any TextEmbedding)? {
        TextEmbeddings.fromEnvironment(environment)
    }

    /// For a search: the query's vector comes from the running daemon's warm model when it
    /// answers, else from this process's own.
    static func forSearch(context: Context) -> (any TextEmbedding)? {
        DaemonQueryEmbedding.forSearch(environment: context.environment, home: context.notebookHome)
    }

}
