// `notes edit`: change a note's text in $EDITOR, replace it, or append to it.
import Notes
import Storage

struct EditCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Edit a note.",
        discussion: "With no option, opens $EDITOR (as -e does). The title follows the first line unless it was set with --title.",
        options: [
            .flag("-e", "--edit", help: "Edit the text in $VISUAL or $EDITOR."),
            .value("--text", placeholder: "text", help: "Replace the text ('-' reads standard input)."),
            .value("--append", placeholder: "text", help: "Add a line at the end ('-' reads standard input)."),
            .value("--title", placeholder: "title", help: "Set the title."),
            .repeated("-t", "--tag", placeholder: "tag", help: "Add a tag (repeatable)."),
            .repeated("--untag", placeholder: "tag", help: "Remove a tag (repeatable)."),
        ],
        positionals: [.noteID]
    )

    enum Change { case editor, replace(String), append(String), metadataOnly }

    let reference: String
    let change: Change
    let title: String?
    let addTags: [String]
    let removeTags: [String]

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = try arguments.requirePositionals(["id"])[0]
        title = arguments.value("title")
        addTags = arguments.all("tag")
        removeTags = arguments.all("untag")
        let chosen = [arguments.has("edit"), arguments.value("text") != nil, arguments.value("append") != nil].filter { $0 }.count
        if chosen > 1 { throw UsageError(message: "choose one of -e, --text and --append") }
        if let text = arguments.value("text") {
            change = .replace(text)
        } else if let text = arguments.value("append") {
            change = .append(text)
        } else if arguments.has("edit") || (title == nil && addTags.isEmpty && removeTags.isEmpty) {
            change = .editor
        } else {
            change = .metadataOnly
        }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let id = try store.resolve(reference)
        guard let original = try store.note(id) else { throw NoteStoreError.notFound(reference) }
        var note = original
        let titleWasDerived = note.title == NoteText.title(from: note.body)
        let oldInlineTags = Set(Tags.inText(note.body))
        var body = note.body
        switch change {
        case .editor:
            body = try NoteInput.decode(try Editor.edit(note.body + "\n", environment: context.environment, terminal: context.terminal))
        case let .replace(text):
            body = try NoteInput.decode(text == "-" ? context.terminal.readStandardInput() : Array(text.utf8))
        case let .append(text):
            let addition = try NoteInput.decode(text == "-" ? context.terminal.readStandardInput() : Array(text.utf8))
            body = body.isEmpty ? addition : body + "\n" + addition
        case .metadataOnly:
            break
        }
        body = NoteInput.normalizedBody(body)
        if body.trimmingWhitespace().isEmpty, (title ?? note.title).isEmpty { throw NoteInputError.empty }
        if let title {
            note.title = title.trimmingWhitespace()
        } else if titleWasDerived {
            note.title = NoteText.title(from: body)
        }
        // Tags that came from the old text go with it; tags given by hand stay.
        let kept = Set(note.tags).subtracting(oldInlineTags)
        let removed = Set(Tags.normalized(removeTags))
        note.tags = Tags.normalized(Array(kept) + Tags.inText(body) + addTags).filter { !removed.contains($0) }
        note.body = body
        guard note != original else {
            context.terminal.printError("No changes.")
            return
        }
        note.updated = Clock.now()
        try store.update(note)
        context.terminal.print(note.id.rawValue)
    }
}
