// What a command is: static configuration for help and parsing, validation, and run().
import Notes
import Storage

struct CommandConfiguration {
    let name: String
    let abstract: String
    var usage: String? = nil
    var discussion: String? = nil
    var options: [OptionSpec] = []
    var positionals: [PositionalSpec] = []
}

protocol NotesCommand {
    static var configuration: CommandConfiguration { get }
    /// Checks the arguments; a UsageError here prints the usage and exits 64. (Untyped
    /// `throws`: Swift 6.3 crashes lowering a typed-throws init called through an existential.)
    init(arguments: ParsedArguments) throws
    func run(_ context: Context) throws
}

/// A failure to report as `Error: ...` with exit status 1.
struct CommandFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Shared state of one invocation: streams, environment, and the notebook, opened on demand.
final class Context {
    let terminal: Terminal
    let environment: [String: String]
    let home: String
    private var openedStore: NoteStore?

    init(terminal: Terminal, environment: [String: String]) {
        self.terminal = terminal
        self.environment = environment
        self.home = NotesHome.path(environment: environment)
    }

    var databasePath: String { home + "/" + NoteStore.databaseFileName }

    /// The notebook, created on first use.
    func store() throws -> NoteStore {
        if let openedStore { return openedStore }
        let store = try NoteStore.open(home: home)
        openedStore = store
        return store
    }

    /// The short handle of each of these ids, for listings (see `NoteHandle`).
    func handles(for ids: [NoteID]) throws -> [NoteID: String] {
        try store().handles(for: ids)
    }
}

extension CommandConfiguration {
    var usageLine: String {
        if let usage { return "notes \(name) \(usage)" }
        var parts = ["notes", name]
        if !options.isEmpty { parts.append("[<options>]") }
        for positional in positionals {
            var text = "<\(positional.name)>"
            if positional.repeating { text += " ..." }
            parts.append(positional.optional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    var help: String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n" + discussion + "\n" }
        text += "\nUSAGE: \(usageLine)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in positionals { text += row("<\(positional.name)>", positional.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var label = option.names.joined(separator: ", ")
            switch option.kind {
            case .flag: break
            case let .value(placeholder): label += " <\(placeholder)>"
            case let .repeated(placeholder): label += " <\(placeholder)>"
            }
            text += row(label, option.help)
        }
        text += row("-h, --help", "Show help information.")
        return text
    }

    private func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 24 ? label + String(repeating: " ", count: 24 - label.count) : label + "\n" + String(repeating: " ", count: 26)
        return "  " + padded + help + "\n"
    }
}
