// `notes tasks`, `notes done`, `notes undone`: the tasks the analyses found, across notes.
import Notebook
import Notes

struct TasksCommand: NotesCommand {
    static let all = Flag("--all", help: "Include tasks marked done.")
    static let due = Option("--due", type: .choice("today|tomorrow|week|overdue", TaskWindow.self), help: "Only tasks due today (or before), tomorrow, within 7 days, or before today.")

    static let configuration = CommandConfiguration(
        name: "tasks",
        abstract: "List open tasks across notes: soonest due first, then most urgent, then oldest.",
        discussion: """
            Each task has a reference ID:N (its note and its number) for 'notes done' and 'notes
            undone'. A task's due day comes from the note's own words ("by Friday", "on the 12th"),
            counted from the day the note was written.
            """,
        options: [all, due, Common.json]
    )

    let includeDone: Bool
    let due: TaskWindow?
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        includeDone = arguments[Self.all]
        json = arguments[Common.json]
        due = arguments[Self.due]
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let now = Timestamp.current
        let today = now.day
        let entries = try due.map { try $0.tasks(in: notebook, includeDone: includeDone, now: now) } ?? notebook.tasks(includeDone: includeDone)
        let terminal = context.terminal
        if json {
            terminal.emit(.array(entries.map(\.json)))
            return
        }
        if entries.isEmpty {
            context.printEmpty(due.map { "No open tasks due \($0.words)." } ?? (includeDone ? "No tasks yet." : "No open tasks."),
                               notice: context.pendingAnalysisNotice())
            return
        }
        let short = try context.handles(for: Array(Set(entries.map(\.noteID))))
        for entry in entries {
            let reference = (short[entry.noteID] ?? entry.noteID.rawValue) + ":\(entry.index + 1)"
            let when = entry.task.due.map { $0 < today ? terminal.red("overdue " + $0) : $0 == today ? terminal.yellow("today") : $0 } ?? "          "
            terminal.print("[\(entry.task.done ? "x" : " ")] \(entry.urgency)  \(when)  \(entry.task.text)  " + terminal.dim(reference + "  " + entry.noteTitle))
        }
    }
}

struct DoneCommand: NotesCommand {
    static let configuration = markConfiguration(name: "done", abstract: "Mark tasks done.")
    let references: [TaskReference]
    init(arguments: ParsedArguments) throws(UsageError) { references = try TaskReference.all(arguments) }
    func run(_ context: Context) throws { try TaskReference.mark(references, done: true, context) }
}

struct UndoneCommand: NotesCommand {
    static let configuration = markConfiguration(name: "undone", abstract: "Mark tasks open again.")
    let references: [TaskReference]
    init(arguments: ParsedArguments) throws(UsageError) { references = try TaskReference.all(arguments) }
    func run(_ context: Context) throws { try TaskReference.mark(references, done: false, context) }
}

extension TaskWindow {
    /// "No open tasks due ..." in the user's words.
    var words: String {
        switch self {
        case .today: "today"
        case .tomorrow: "tomorrow"
        case .week: "this week"
        case .overdue: "before today"
        }
    }
}

private func markConfiguration(name: String, abstract: String) -> CommandConfiguration {
    CommandConfiguration(
        name: name, abstract: abstract,
        usage: "<id>:<n>... | <id> <n>",
        discussion: """
            A reference is the note's handle (or a unique start or end of its id) and the task's
            number, as 'notes tasks' shows them. A task that is a checklist item of its note
            ('- [ ] ...') is ticked in the note's text too.
            """,
        arguments: [TaskReference.references]
    )
}

/// `9c41f2:2`, or the note and the number as two words.
struct TaskReference {
    static let references = Argument("ref", type: .text("ref"), help: "ID:N (several if you like), or ID and N.", repeating: true)

    let note: String
    let number: Int

    /// Every reference the words give, in order: `ID:N` words, or an `ID` word followed by `N`.
    static func all(_ arguments: ParsedArguments) throws(UsageError) -> [TaskReference] {
        var words = arguments.all(references)[...]
        var found: [TaskReference] = []
        while let word = words.popFirst() {
            let parts = word.split(whereSeparator: { $0 == ":" || $0 == "#" || $0 == "/" }).map(String.init)
            let given: [String]
            if parts.count == 1, let next = words.first, Int(next) != nil {
                words.removeFirst()
                given = [word, next]
            } else {
                given = parts
            }
            guard given.count == 2, let number = Int(given[1]), number >= 1 else {
                throw UsageError(message: "'\(given.count == 2 ? given.joined(separator: " ") : word)' is not a task reference (for example 9c41f2:2)")
            }
            found.append(TaskReference(note: given[0], number: number))
        }
        guard !found.isEmpty else { throw UsageError(message: "missing <ref> (for example 9c41f2:2)") }
        return found
    }

    /// Marks each in turn; a reference that fails is reported and the others are still marked.
    static func mark(_ references: [TaskReference], done: Bool, _ context: Context) throws {
        let outcomes = try context.notebook().markTasks(references.map { ($0.note, $0.number) }, done: done, clock: { Timestamp.current })
        var failed = 0
        for (reference, outcome) in zip(references, outcomes) {
            switch outcome {
            case let .success(task):
                context.terminal.printError((done ? "Done: " : "Open again: ") + task.text)
            case let .failure(error):
                if references.count == 1 { throw error }
                context.terminal.printError("\(reference.note):\(reference.number): " + NotesCLI.describe(error, context: context))
                failed += 1
            }
        }
        if failed > 0 { throw CommandFailure("\(failed) of \(references.count) tasks were not marked (the others were).") }
    }
}
