// Where the model, the library and the prefix cache are, and how big a context to make.
import Notes

public struct ModelConfiguration: Sendable, Hashable {
    /// A GGUF file.
    public var modelPath: String
    /// A libllama file; nil searches `LlamaLibrary.candidates`.
    public var libraryPath: String?
    /// Tokens per session context (prompt and response together).
    public var contextSize: Int
    public var threads: Int
    /// Where prewarmed prefixes are saved; nil keeps them in memory only.
    public var prefixCacheDirectory: String?

    init(modelPath: String, libraryPath: String? = nil, contextSize: Int = 2048, threads: Int = 2,
                prefixCacheDirectory: String? = nil) {
        self.modelPath = modelPath
        self.libraryPath = libraryPath
        self.contextSize = contextSize
        self.threads = threads
        self.prefixCacheDirectory = prefixCacheDirectory
    }

    /// `NOTES_MODEL`, else `configuredModelPath` (the CLI's config file), else
    /// `$NOTES_DEPS/default-model.gguf`. Prefixes go to `$NOTES_HOME/cache/prefixes`, else
    /// `$XDG_CACHE_HOME/notes/prefixes`, else `~/.cache/notes/prefixes`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.current,
                                       configuredModelPath: String? = nil) -> ModelConfiguration {
        let settings = Settings(environment)
        let model = settings[.model] ?? configuredModelPath ?? "\(settings.deps)/default-model.gguf"
        return ModelConfiguration(modelPath: model, libraryPath: settings[.llamaLibrary],
                                  prefixCacheDirectory: cacheDirectory(environment).map { $0 + "/prefixes" })
    }

    /// Where what the models computed is kept between processes: `$NOTES_HOME/cache`, else
    /// `$XDG_CACHE_HOME/notes`, else `~/.cache/notes`; nil without any of them.
    public static func cacheDirectory(_ environment: [String: String]) -> String? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        return if let home = Settings(environment)[.home] {
            "\(home)/cache"
        } else if let xdg = value("XDG_CACHE_HOME") {
            "\(xdg)/notes"
        } else if let home = value("HOME") {
            "\(home)/.cache/notes"
        } else {
            nil
        }
    }
}
