// The embedding model the commands use, named by the environment, as the notebook's port.
import AI
import Notebook

extension EmbeddingModel: TextEmbedding {
    public func unavailableReason() -> String? {
        if case let .unavailable(reason) = availability { return reason }
        return nil
    }
}

enum Embeddings {
    /// `NOTES_EMBEDDING_MODEL` (a GGUF path, or `none`), else the one set-up installs.
    static func make(context: Context) -> EmbeddingModel? {
        EmbeddingModel.fromEnvironment(context.environment)
    }

    /// Why vectors are not made, for `notes status`: switched off, or the model's reason.
    static func missing(_ model: EmbeddingModel?) -> String? {
        guard let model else { return "off (NOTES_EMBEDDING_MODEL=none)" }
        return model.unavailableReason()
    }
}
