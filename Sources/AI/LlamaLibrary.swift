// Access to llama.cpp's functions, loaded on first use (see CLlama).
import CLlama

public enum LlamaLibrary {
    /// The function table, or the reason libllama could not be loaded. `path` overrides the
    /// search (NOTES_LLAMA_LIBRARY); by default the run path set at build time is searched.
    public static func load(path: String? = nil) -> Result<notes_llama_api, LlamaLibraryError> {
        var message = [CChar](repeating: 0, count: 512)
        guard let api = notes_llama_open(path, &message, message.count) else {
            return .failure(LlamaLibraryError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(api.pointee)
    }
}

public struct LlamaLibraryError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { "cannot load llama.cpp: \(message)" }
}
