// `notes add`: a new note from arguments, standard input or $EDITOR.
import Notebook
import Notes

struct AddCommand: NotesCommand {
    static let edit = Flag("-e", "--edit", help: "Write the note in $VISUAL or $EDITOR.")
    static let title = Option("--title", type: .text("title"), help: "Title (default: the first line).")
    static let tag = RepeatedOption("-t", "--tag", type: .tag, help: "Add a tag (repeatable).")
    static let text = Argument("text", type: .text("text"), help: "The note's text ('-' reads standard input).", optional: true, repeating: true)

    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a note.",
        discussion: """
            The text comes from the arguments, from standard input when there are none (or '-'),
            or from $EDITOR with -e. The first line is the title unless --title is given; #words
            in the text are tags. Prints the new note's id.
            """,
        options: [edit, title, tag],
        arguments: [text]
    )

    let words: [String]
    let useEditor: Bool
    let title: String?
    let tags: [String]

    init(arguments: ParsedArguments) throws(UsageError) {
        words = arguments.all(Self.text)
        useEditor = arguments[Self.edit]
        title = arguments[Self.title]
        tags = arguments[Self.tag]
        if useEditor, !words.isEmpty { throw UsageError(message: "give the text or -e, not both") }
    }

    func run(_ context: Context) throws {
        let bytes: [UInt8]
        if useEditor {
            bytes = try ExternalEditor.edit("", environment: context.environment, beforeStart: context.terminal.flush)
        } else if words.isEmpty || words == ["-"] {
            if context.terminal.stdinIsTerminal {
                context.terminal.printError("Type the note, then Ctrl-D on a new line to save it (Ctrl-C cancels).")
                context.terminal.flush()
            }
            bytes = context.terminal.readStandardInput()
        } else {
            bytes = Array(words.joined(separator: " ").utf8)
        }
        let text = try NoteInput.decode(bytes)
        let note = try NoteInput.makeNote(text: text, title: title, extraTags: tags, at: Timestamp.current)
        try context.notebook().add(note)
        context.terminal.print(note.id.rawValue)
    }
}
