// What a command is: its declared configuration (help, parsing, completion), validation, and run().
import Notebook
import Notes

/// An option of any value type, as a command's configuration lists it.
protocol DeclaredOption: Sendable { var spec: OptionSpec { get } }
extension Flag: DeclaredOption {}
extension Option: DeclaredOption {}
extension RepeatedOption: DeclaredOption {}

/// A positional argument of any value type, as a command's configuration lists it.
protocol DeclaredArgument: Sendable { var spec: ArgumentSpec { get } }
extension Argument: DeclaredArgument {}

struct CommandConfiguration: Sendable {
    /// The words after `notes`: `list`, or `remote add` for a subcommand.
    let name: String
    let abstract: String
    /// The usage line after `notes NAME`, when the one made from the declarations says too little.
    var usage: String? = nil
    var discussion: String? = nil
    var options: [any DeclaredOption] = []
    var arguments: [any DeclaredArgument] = []
    /// Other words that run the command: `remote rm` for `remote remove`.
    var aliases: [String] = []
    /// Whether `-word` is a positional (a query's excluded word), not a short option.
    var dashWords = false

    /// The last word of the name, the one typed to choose a subcommand.
    var word: String { String(name.split(separator: " ").last ?? "") }
}

protocol NotesCommand {
    static var configuration: CommandConfiguration { get }
    /// Subcommands, chosen by the word after this command's name (`notes remote add`).
    static var subcommands: [any NotesCommand.Type] { get }
    /// False for commands the shell scripts call and people need not see (`__complete`).
    static var listed: Bool { get }
    /// Reads the arguments, already parsed and checked against the declarations; a UsageError
    /// here (a rule between options) prints the usage and exits 64. (Untyped `throws`: Swift 6.3
    /// crashes lowering a typed-throws init called through an existential.)
    init(arguments: ParsedArguments) throws
    func run(_ context: Context) throws
}

extension NotesCommand {
    static var subcommands: [any NotesCommand.Type] { [] }
    static var listed: Bool { true }

    static func subcommand(named word: String) -> (any NotesCommand.Type)? {
        subcommands.first { $0.configuration.word == word || $0.configuration.aliases.contains(word) }
    }
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
    /// The notebook's directory and the paths in it.
    let notebookHome: NotebookHome
    private var opened: LocalNotebook?

    init(terminal: Terminal, environment: [String: String]) {
        self.terminal = terminal
        self.environment = environment
        notebookHome = NotebookHome(environment: environment)
    }

    var home: String { notebookHome.path }
    var databasePath: String { notebookHome.database }

    /// The notebook, created on first use.
    func notebook() throws -> LocalNotebook {
        if let opened { return opened }
        let notebook = try LocalNotebook.open(notebookHome)
        opened = notebook
        return notebook
    }

    /// The short handle of each of these ids, for listings (see `NoteHandle`).
    func handles(for ids: [NoteID]) throws -> [NoteID: String] {
        try notebook().handles(for: ids)
    }
}

extension CommandConfiguration {
    func usageLine(hasSubcommands: Bool = false) -> String {
        if let usage { return "notes \(name) \(usage)" }
        var parts = ["notes", name]
        if hasSubcommands { parts.append("[<subcommand>]") }
        if !options.isEmpty { parts.append("[<options>]") }
        for argument in arguments.map(\.spec) {
            var text = "<\(argument.name)>"
            if argument.repeating { text += " ..." }
            parts.append(argument.optional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    func help(subcommands: [any NotesCommand.Type] = []) -> String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n" + discussion + "\n" }
        text += "\nUSAGE: \(usageLine(hasSubcommands: !subcommands.isEmpty))\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments.map(\.spec) { text += row("<\(argument.name)>", argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options.map(\.spec) + [OptionSpec.help] where !option.hidden { text += row(option.label, option.help) }
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for subcommand in subcommands { text += row(subcommand.configuration.word, subcommand.configuration.abstract) }
            text += "\n  See 'notes help \(name) <subcommand>' for detailed help.\n"
        }
        return text
    }

    private func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 24 ? label + String(repeating: " ", count: 24 - label.count) : label + "\n" + String(repeating: " ", count: 26)
        return "  " + padded + help + "\n"
    }
}
