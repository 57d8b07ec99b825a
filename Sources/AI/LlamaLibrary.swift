// Access to llama.cpp's functions, loaded on first use (see CLlama).
import CLlama
import Notes
import Glibc

enum LlamaLibrary {
    /// Where libllama is looked for, in order: `NOTES_LLAMA_LIBRARY`, the pinned install under
    /// `$NOTES_DEPS` (default /opt/notes-deps), then the bare name through the run path.
    static func candidates(environment: [String: String] = ProcessEnvironment.current) -> [String] {
        var result: [String] = []
        let settings = Settings(environment)
        if let explicit = settings[.llamaLibrary] { result.append(explicit) }
        result.append("\(settings.deps)/llama/lib/libllama.so")
        result.append("libllama.so")
        return result
    }

    /// The function table, or why libllama could not be loaded. `path` tries that file only.
    static func load(path: String? = nil) -> Result<notes_llama_api, LlamaLibraryError> {
        locate(path: path).map(\.api)
    }

    /// The table and the candidate it came from (after a first success, every call returns that
    /// same table: the library stays loaded for the life of the process).
    static func locate(path: String? = nil) -> Result<(api: notes_llama_api, path: String), LlamaLibraryError> {
        var reasons: [String] = []
        for candidate in path.map({ [$0] }) ?? candidates() {
            var message = [CChar](repeating: 0, count: 512)
            if let api = notes_llama_open(candidate, &message, message.count) {
                return .success((api.pointee, candidate))
            }
            reasons.append(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return .failure(LlamaLibraryError(message: reasons.joined(separator: "; ")))
    }
}

struct LlamaLibraryError: Error, CustomStringConvertible, Sendable {
    let message: String
    var description: String { "cannot load llama.cpp: \(message)" }
}
