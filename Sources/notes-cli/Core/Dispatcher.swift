// Picks the command, runs it, and maps failures to messages and exit codes.
import Notebook
import Notes

enum NotesCLI {
    /// Every command, in the order `notes --help` lists them.
    static var commands: [any NotesCommand.Type] {[
        AddCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self, RemoveCommand.self,
        SearchCommand.self, RelatedCommand.self, AskCommand.self, TagsCommand.self, LinksCommand.self, ExportCommand.self, ImportCommand.self, StatusCommand.self,
        AnalyzeCommand.self, TasksCommand.self, DoneCommand.self, UndoneCommand.self, SetCommand.self, ModelCommand.self,
        DaemonCommand.self, McpCommand.self, ServeCommand.self, RemoteCommand.self, SyncCommand.self, ConflictsCommand.self, LogCommand.self, CompletionCommand.self,
        CompleteCommand.self,
    ]}

    /// The commands `notes --help` and completion offer.
    static var listedCommands: [any NotesCommand.Type] { commands.filter { $0.listed } }

    static let version = "0.1.0"

    enum ExitCode {
        static let success: Int32 = 0
        static let failure: Int32 = 1
        static let usage: Int32 = 64
    }

    static func mainHelp() -> String {
        var text = """
            OVERVIEW: notes, an offline notes assistant. Your notes stay on this machine.

            USAGE: notes <command> [<options>]

            The notebook lives in $NOTES_HOME, else $XDG_DATA_HOME/notes, else ~/.local/share/notes.

            OPTIONS:
              -h, --help              Show help information.
              -v, --version           Show the version.

            COMMANDS:

            """
        for command in listedCommands {
            let name = command.configuration.name
            text += "  " + name + String(repeating: " ", count: max(2, 24 - name.count)) + command.configuration.abstract + "\n"
        }
        text += "\n  See 'notes help <command>' for detailed help.\n"
        return text
    }

    static func run(_ arguments: [String], terminal: Terminal, environment: [String: String]) -> Int32 {
        guard let name = arguments.first else {
            terminal.out.write(mainHelp())
            return ExitCode.success
        }
        switch name {
        case "-h", "--help":
            terminal.out.write(mainHelp())
            return ExitCode.success
        case "-v", "-V", "--version":
            terminal.print("notes \(version)")
            return ExitCode.success
        case "help":
            guard let topic = arguments.dropFirst().first else {
                terminal.out.write(mainHelp())
                return ExitCode.success
            }
            guard var command = commands.first(where: { $0.configuration.name == topic }) else {
                return usageFailure("unknown command '\(topic)'", usage: "notes help <command>", helpHint: "notes --help", terminal: terminal)
            }
            for word in arguments.dropFirst(2) {
                guard let subcommand = command.subcommand(named: word) else {
                    return usageFailure("'\(command.configuration.name)' has no subcommand '\(word)'", usage: "notes help <command> [<subcommand>]",
                                        helpHint: "notes help \(command.configuration.name)", terminal: terminal)
                }
                command = subcommand
            }
            terminal.out.write(command.configuration.help(subcommands: command.subcommands))
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.configuration.name == name }) else {
            // An option before any command is not a misspelt command: `-x` is one edit from `rm`.
            if name.hasPrefix("-") {
                return usageFailure("unknown option '\(name)' (options go after the command: notes <command> [<options>])",
                                    usage: "notes <command> [<options>]", helpHint: "notes --help", terminal: terminal)
            }
            let close = listedCommands.map { $0.configuration.name }.filter { editDistance($0, name) <= 2 }.first
            let hint = close.map { " (did you mean '\($0)'?)" } ?? ""
            return usageFailure("unknown command '\(name)'\(hint)", usage: "notes <command> [<options>]", helpHint: "notes --help", terminal: terminal)
        }
        return runCommand(command, arguments: Array(arguments.dropFirst()), terminal: terminal, environment: environment)
    }

    /// Parses, validates and runs one command (generic, so the existential is opened once, here).
    /// A subcommand is chosen by the first word after the command's name.
    static func runCommand<C: NotesCommand>(_ type: C.Type, arguments: [String], terminal: Terminal, environment: [String: String]) -> Int32 {
        if let word = arguments.first, let subcommand = C.subcommand(named: word) {
            return runCommand(subcommand, arguments: Array(arguments.dropFirst()), terminal: terminal, environment: environment)
        }
        let configuration = C.configuration
        let helpHint = "notes \(configuration.name) --help"
        let command: C
        do {
            let parsed = try ParsedArguments(arguments, options: configuration.options.map(\.spec), positionals: configuration.arguments.map(\.spec),
                                         dashWords: configuration.dashWords)
            if parsed.wantsHelp {
                terminal.out.write(configuration.help(subcommands: C.subcommands))
                return ExitCode.success
            }
            command = try C(arguments: parsed)
        } catch {
            let message = (error as? UsageError)?.message ?? "\(error)"
            return usageFailure(message, usage: configuration.usageLine(hasSubcommands: !C.subcommands.isEmpty), helpHint: helpHint, terminal: terminal)
        }
        let context = Context(terminal: terminal, environment: environment)
        do {
            try command.run(context)
            return ExitCode.success
        } catch {
            terminal.printError(terminal.style("Error:", "1;31", onStderr: true) + " " + describe(error, context: context))
            return ExitCode.failure
        }
    }

    static func usageFailure(_ message: String, usage: String, helpHint: String, terminal: Terminal) -> Int32 {
        terminal.printError(terminal.style("Error:", "1;31", onStderr: true) + " " + message)
        terminal.printError("Usage: " + usage)
        terminal.printError("  See '\(helpHint)'.")
        return ExitCode.usage
    }

    /// A message a user can act on, for every failure that reaches the top.
    static func describe(_ error: any Error, context: Context) -> String {
        if let failure = error as? CommandFailure { return failure.message }
        return ErrorMessage.describe(error, home: context.notebookHome)
    }
}
