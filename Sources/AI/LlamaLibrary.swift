// Access to llama.cpp's functions, loaded on first use (see Sources/CLlama/shim.h).
import CLlama

public enum LlamaLibrary {
    /// Where libllama is looked for, in order: `NOTES_LLAMA_LIBRARY`, the pinned install under
    /// `$NOTES_DEPS` (default /opt/notes-deps, written by scripts/setup.sh), the system's.
    public static func candidates(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let explicit = environment["NOTES_LLAMA_LIBRARY"], !explicit.isEmpty { paths.append(explicit) }
        let deps = environment["NOTES_DEPS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/opt/notes-deps"
        paths.append(deps + "/llama/lib/libllama.so")
        paths.append("libllama.so")
        return paths
    }

    /// The function table, or why libllama could not be loaded from any candidate.
    public static func load(environment: [String: String]) -> Result<notes_llama_api, LlamaLibraryError> {
        var reasons: [String] = []
        for path in candidates(environment: environment) {
            var message = [CChar](repeating: 0, count: 512)
            if let api = notes_llama_open(path, &message, message.count) { return .success(api.pointee) }
            reasons.append(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return .failure(LlamaLibraryError(message: reasons.joined(separator: "; ")))
    }
}

public struct LlamaLibraryError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { "cannot load llama.cpp: \(message)" }
}
