// `notes edit`: change a note's text in $EDITOR, replace it, or append to it.
import Notebook
import Notes

struct EditCommand: NotesCommand {
    static let edit = Flag("-e", "--edit", help: "Edit the text in $VISUAL or $EDITOR.")
    static let text = Option("--text", type: .text("text"), help: "Replace the text ('-' reads standard input).")
    static let append = Option("--append", type: .text("text"), help: "Add a line at the end ('-' reads standard input).")
    static let title = Option("--title", type: .text("title"), help: "Set the title.")
    static let tag = RepeatedOption("-t", "--tag", type: .tag, help: "Add a tag (repeatable).")
    static let untag = RepeatedOption("--untag", type: .text("tag", completion: .tags), help: "Remove a tag (repeatable).")

    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Edit a note.",
        discussion: "With no option, opens $EDITOR (as -e does). The title follows the first line unless it was set with --title.",
        options: [edit, text, append, title, tag, untag],
        arguments: [Common.note]
    )

    enum Change { case editor, replace(String), append(String), metadataOnly }

    let reference: String
    let change: Change
    let title: String?
    let addTags: [String]
    let removeTags: [String]

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = arguments[Common.note]!
        title = arguments[Self.title]
        addTags = arguments[Self.tag]
        removeTags = arguments[Self.untag]
        let chosen = [arguments[Self.edit], arguments[Self.text] != nil, arguments[Self.append] != nil].filter { $0 }.count
        if chosen > 1 { throw UsageError(message: "choose one of -e, --text and --append") }
        if let text = arguments[Self.text] {
            change = .replace(text)
        } else if let text = arguments[Self.append] {
            change = .append(text)
        } else if arguments[Self.edit] || (title == nil && addTags.isEmpty && removeTags.isEmpty) {
            change = .editor
        } else {
            change = .metadataOnly
        }
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let original = try notebook.note(reference)
        var body = original.body
        switch change {
        case .editor:
            body = try NoteInput.decode(try ExternalEditor.edit(original.body + "\n", environment: context.environment, beforeStart: context.terminal.flush))
        case let .replace(text):
            body = try NoteInput.decode(text == "-" ? context.terminal.readStandardInput() : Array(text.utf8))
        case let .append(text):
            let addition = try NoteInput.decode(text == "-" ? context.terminal.readStandardInput() : Array(text.utf8))
            body = NoteEdits.appending(addition, to: body)
        case .metadataOnly:
            break
        }
        guard let note = try NoteEdits.edited(original, body: body, title: title, addingTags: addTags, removingTags: removeTags, at: Timestamp.current) else {
            context.terminal.printError("No changes.")
            return
        }
        try notebook.update(note)
        context.terminal.print(note.id.rawValue)
    }
}
