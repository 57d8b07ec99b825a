// The settings notes takes from its environment, in one place: every `NOTES_*` variable by name,
// and the defaults they fall back to. The modules that need one ask this type, never the
// environment by name (docs/scripting.md lists them for users).
#if canImport(Glibc)
import Glibc
#endif

public struct Settings: Sendable {
    public enum Variable: String, Sendable, CaseIterable {
        case home = "NOTES_HOME"
        case deps = "NOTES_DEPS"
        case model = "NOTES_MODEL"
        case readerModel = "NOTES_READER_MODEL"
        case embeddingModel = "NOTES_EMBEDDING_MODEL"
        case llamaLibrary = "NOTES_LLAMA_LIBRARY"
        case summaries = "NOTES_SUMMARIES"
        case sshKey = "NOTES_SSH_KEY"
        case sshPassphrase = "NOTES_SSH_PASSPHRASE"
        case sshKnownHosts = "NOTES_SSH_KNOWN_HOSTS"
        case passphraseFile = "NOTES_PASSPHRASE_FILE"
        /// For the kill tests only: the sync step at which `notes sync` stops itself.
        case syncPauseAt = "NOTES_SYNC_PAUSE_AT"
        /// For the kill tests only: `notes import` stops itself inside its transaction once this
        /// many notes are stored (told at 0 and every 500).
        case importPauseAt = "NOTES_IMPORT_PAUSE_AT"
    }

    public let environment: [String: String]

    public init(_ environment: [String: String]) { self.environment = environment }

    /// The variable's value; nil when it is unset or empty (an empty value means the default).
    public subscript(_ variable: Variable) -> String? {
        environment[variable.rawValue].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The value exactly as set, empty included (an empty ssh passphrase is a passphrase).
    public func exactly(_ variable: Variable) -> String? { environment[variable.rawValue] }

    /// Where set-up installed the models and libraries: `NOTES_DEPS`, else /opt/notes-deps.
    public var deps: String { self[.deps] ?? "/opt/notes-deps" }
}

/// The process environment as a dictionary, without Foundation.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
