// `notes completion bash|zsh|fish`: a shell script that completes commands, options and values
// by asking `notes __complete` what fits, so completion follows the declarations.
import Notebook
import Notes

enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

struct CompletionCommand: NotesCommand {
    static let shell = Argument("shell", type: .choice("shell", Shell.self), help: "bash, zsh or fish.")

    static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script.",
        discussion: """
            Completes commands, options, tags (--tag), categories and remote names. To use it:
              bash: eval "$(notes completion bash)" in ~/.bashrc
              zsh:  eval "$(notes completion zsh)" in ~/.zshrc, after compinit
              fish: notes completion fish > ~/.config/fish/completions/notes.fish
            """,
        arguments: [shell]
    )

    let shell: Shell

    init(arguments: ParsedArguments) throws(UsageError) {
        shell = arguments[Self.shell]!
    }

    func run(_ context: Context) throws {
        context.terminal.out.write(script(for: shell))
    }

    // Each script hands the words up to the cursor to `notes __complete`, whose first line says
    // what kind of reply follows: `words` (one a line), or `files` / `directories` for the shell's own.
    func script(for shell: Shell) -> String {
        switch shell {
        case .bash:
            return #"""
                # bash completion for notes (notes completion bash)
                _notes() {
                    local cur=${COMP_WORDS[COMP_CWORD]} IFS=$'\n'
                    local reply=($("${COMP_WORDS[0]}" __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
                    case ${reply[0]} in
                        files) COMPREPLY=($(compgen -f -- "$cur")) ;;
                        directories) COMPREPLY=($(compgen -d -- "$cur")) ;;
                        *) COMPREPLY=($(compgen -W "${reply[*]:1}" -- "$cur")) ;;
                    esac
                }
                complete -F _notes notes

                """#
        case .zsh:
            return #"""
                #compdef notes
                # zsh completion for notes (notes completion zsh)
                _notes() {
                    local -a reply
                    reply=("${(@f)$("${words[1]}" __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
                    case $reply[1] in
                        files) _files ;;
                        directories) _files -/ ;;
                        *) compadd -- "${(@)reply[2,-1]}" ;;
                    esac
                }
                compdef _notes notes

                """#
        case .fish:
            return #"""
                # fish completion for notes (notes completion fish)
                function __notes_complete
                    set -l words (commandline -opc) (commandline -ct)
                    set -l reply ($words[1] __complete -- $words[2..-1] 2>/dev/null)
                    switch "$reply[1]"
                        case files
                            __fish_complete_path (commandline -ct)
                        case directories
                            __fish_complete_directories (commandline -ct)
                        case '*'
                            printf '%s\n' $reply[2..-1]
                    end
                end
                complete -c notes -f -a '(__notes_complete)'

                """#
        }
    }
}

/// `notes __complete -- WORD...`: what may come in the last word, given the words before it.
/// Not listed in help: the completion scripts call it (after `--`, so that options typed so far
/// are words to it).
struct CompleteCommand: NotesCommand {
    static let words = Argument("word", type: .text("word"), help: "The words typed after 'notes', the last one being completed.", optional: true, repeating: true)

    static let configuration = CommandConfiguration(name: "__complete", abstract: "Complete a command line (for the completion scripts).", arguments: [words])
    static let listed = false

    let words: [String]

    init(arguments: ParsedArguments) throws(UsageError) {
        words = arguments.all(Self.words)
    }

    func run(_ context: Context) throws {
        let (kind, candidates) = Completer.complete(words, context: context)
        context.terminal.print(kind)
        for candidate in candidates where candidate.hasPrefix(words.last ?? "") { context.terminal.print(candidate) }
    }
}

/// Walks the typed words through the declarations: the command, its subcommand, the options
/// and arguments given so far; then offers what may come next.
enum Completer {
    static func complete(_ typed: [String], context: Context) -> (kind: String, candidates: [String]) {
        let current = typed.last ?? ""
        var words = typed.dropLast()[...]
        guard let name = words.popFirst() else {
            return ("words", NotesCLI.listedCommands.map { $0.configuration.name } + ["help"])
        }
        if name == "help" { return ("words", words.isEmpty ? NotesCLI.listedCommands.map { $0.configuration.name } : []) }
        guard var command = NotesCLI.commands.first(where: { $0.configuration.name == name }) else { return ("words", []) }
        var positionals = 0
        var pending: OptionSpec?
        for word in words {
            if pending != nil {
                pending = nil // the word was that option's value
            } else if word.hasPrefix("-"), word.count > 1 {
                pending = command.configuration.options.map(\.spec).first { $0.names.contains(word) && $0.kind != .flag }
            } else if positionals == 0, let sub = command.subcommand(named: word) {
                command = sub
            } else {
                positionals += 1
            }
        }
        let configuration = command.configuration
        if let option = pending { return values(option.completion, context: context) }
        if current.hasPrefix("-") {
            return ("words", (configuration.options.map(\.spec) + [OptionSpec.help]).filter { !$0.hidden }.flatMap { $0.names.filter { $0.hasPrefix("--") } })
        }
        var candidates: [String] = []
        if positionals == 0 { candidates = command.subcommands.map { $0.configuration.word } }
        let arguments = configuration.arguments.map(\.spec)
        let argument = positionals < arguments.count ? arguments[positionals] : arguments.last.flatMap { $0.repeating ? $0 : nil }
        if let argument {
            let (kind, more) = values(argument.completion, context: context)
            if kind != "words", candidates.isEmpty { return (kind, []) }
            candidates += more
        }
        return ("words", candidates)
    }

    /// What the shell may offer for a value of this kind. A notebook or remotes that cannot be
    /// read offer nothing: completion never prints an error.
    static func values(_ completion: Completion, context: Context) -> (kind: String, candidates: [String]) {
        switch completion {
        case .none: return ("words", [])
        case let .choices(names): return ("words", names)
        case .files: return ("files", [])
        case .directories: return ("directories", [])
        case .tags:
            guard FileSystem.exists(context.databasePath), let notebook = try? LocalNotebook.openForReading(context.notebookHome) else { return ("words", []) }
            return ("words", ((try? notebook.tags()) ?? []).map(\.tag))
        case .notes:
            // The handles `notes list` shows, of the notes changed last: what one types after `show`.
            guard FileSystem.exists(context.databasePath), let notebook = try? LocalNotebook.openForReading(context.notebookHome),
                  let recent = try? notebook.notes(matching: NoteFilter(limit: 200)).map(\.id),
                  let handles = try? notebook.handles(for: recent) else { return ("words", []) }
            return ("words", recent.compactMap { handles[$0] })
        case .remotes:
            guard FileSystem.exists(context.syncRepositoryPath), let sync = try? context.sync() else { return ("words", []) }
            return ("words", ((try? sync.remotes()) ?? []).map(\.name))
        }
    }
}
