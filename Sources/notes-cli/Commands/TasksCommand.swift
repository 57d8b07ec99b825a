// `notes tasks`, `notes done`, `notes undone`: the tasks the analyses found, across notes.
import Notebook
import Notes
import Storage

struct TasksCommand: NotesCommand {
    static let all = Flag("--all", help: "Include tasks marked done.")
    static let due = Option("--due", type: .choice("today|week|overdue", TaskWindow.self), help: "Only tasks due today (or before), within 7 days, or before today.")

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
        let store = try context.store()
        let now = Clock.now()
        let today = now.day
        let entries = try due.map { try $0.tasks(in: store, includeDone: includeDone, now: now) } ?? store.tasks(includeDone: includeDone)
        let terminal = context.terminal
        if json {
            terminal.emit(.array(entries.map(\.json)))
            return
        }
        if entries.isEmpty {
            terminal.printError(due != nil ? "No open tasks due \(due == .overdue ? "before today" : due == .today ? "today" : "this week")." : includeDone ? "No tasks yet." : "No open tasks.")
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
    static let configuration = markConfiguration(name: "done", abstract: "Mark a task done.")
    let reference: TaskReference
    init(arguments: ParsedArguments) throws(UsageError) { reference = try TaskReference(arguments) }
    func run(_ context: Context) throws { try reference.mark(done: true, context) }
}

struct UndoneCommand: NotesCommand {
    static let configuration = markConfiguration(name: "undone", abstract: "Mark a task open again.")
    let reference: TaskReference
    init(arguments: ParsedArguments) throws(UsageError) { reference = try TaskReference(arguments) }
    func run(_ context: Context) throws { try reference.mark(done: false, context) }
}

private func markConfiguration(name: String, abstract: String) -> CommandConfiguration {
    CommandConfiguration(
        name: name, abstract: abstract,
        usage: "<id>:<n> | <id> <n>",
        discussion: "The reference is the note's handle (or a unique start or end of its id) and the task's number, as 'notes tasks' shows them.",
        arguments: [TaskReference.reference, TaskReference.number]
    )
}

/// `9c41f2:2`, or the note and the number as two arguments.
struct TaskReference {
    static let reference = Argument("ref", type: .text("ref"), help: "ID:N, or ID and N.", optional: true)
    static let number = Argument("n", type: .text("n"), help: "The task's number, when not given after a colon.", optional: true)

    let note: String
    let number: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let given = [arguments[Self.reference], arguments[Self.number]].compactMap { $0 }
        let parts: [String]
        switch given.count {
        case 1: parts = given[0].split(whereSeparator: { $0 == ":" || $0 == "#" || $0 == "/" }).map(String.init)
        case 2: parts = given
        default: throw UsageError(message: "missing <ref> (for example 9c41f2:2)")
        }
        guard parts.count == 2, let number = Int(parts[1]), number >= 1 else {
            throw UsageError(message: "'\(given.joined(separator: " "))' is not a task reference (for example 9c41f2:2)")
        }
        note = parts[0]
        self.number = number
    }

    func mark(done: Bool, _ context: Context) throws {
        let task = try NoteEdits.markTask(note, number: number, done: done, in: try context.store())
        context.terminal.printError((done ? "Done: " : "Open again: ") + task.text)
    }
}
