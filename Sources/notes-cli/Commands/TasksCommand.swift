// `notes tasks`, `notes done`, `notes undone`: the tasks the analyses found, across notes.
import Notes
import Storage

struct TasksCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "tasks",
        abstract: "List open tasks across notes: soonest due first, then most urgent, then oldest.",
        discussion: """
            Each task has a reference ID:N (its note and its number) for 'notes done' and 'notes
            undone'. A task's due day comes from the note's own words ("by Friday", "on the 12th"),
            counted from the day the note was written.
            """,
        options: [
            .flag("--all", help: "Include tasks marked done."),
            .value("--due", placeholder: "today|week|overdue", help: "Only tasks due today (or before), within 7 days, or before today."),
            .json,
        ]
    )

    enum Due: String { case today, week, overdue }

    let includeDone: Bool
    let due: Due?
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        _ = try arguments.requirePositionals([])
        includeDone = arguments.has("all")
        json = arguments.has("json")
        if let value = arguments.value("due") {
            guard let due = Due(rawValue: value) else { throw UsageError(message: "--due takes today, week or overdue, not '\(value)'") }
            self.due = due
        } else {
            due = nil
        }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let today = Clock.now().day
        let (from, by): (String?, String?) = switch due {
        case nil: (nil, nil)
        case .today: (nil, today)
        case .week: (nil, Timestamp(milliseconds: Clock.now().milliseconds + 7 * 86_400_000).day)
        case .overdue: (nil, Timestamp(milliseconds: Clock.now().milliseconds - 86_400_000).day)
        }
        let entries = try store.tasks(includeDone: includeDone, dueFrom: from, dueBy: by)
        let terminal = context.terminal
        if json {
            terminal.emit(.array(entries.map { entry in
                .object([
                    ("note", .string(entry.noteID.rawValue)), ("number", .int(entry.index + 1)), ("text", .string(entry.task.text)),
                    ("done", .bool(entry.task.done)), ("due", entry.task.due.map(JSON.string) ?? .null), ("urgency", .int(entry.urgency)),
                    ("note_title", .string(entry.noteTitle)),
                ])
            }))
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
        positionals: [PositionalSpec(name: "ref", help: "ID:N, or ID and N.")]
    )
}

/// `9c41f2:2`, or the note and the number as two arguments.
struct TaskReference {
    let note: String
    let number: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let parts: [String]
        switch arguments.positionals.count {
        case 1: parts = arguments.positionals[0].split(whereSeparator: { $0 == ":" || $0 == "#" || $0 == "/" }).map(String.init)
        case 2: parts = arguments.positionals
        case 0: throw UsageError(message: "missing <ref> (for example 9c41f2:2)")
        default: throw UsageError(message: "unexpected argument '\(arguments.positionals[2])'")
        }
        guard parts.count == 2, let number = Int(parts[1]), number >= 1 else {
            throw UsageError(message: "'\(arguments.positionals.joined(separator: " "))' is not a task reference (for example 9c41f2:2)")
        }
        note = parts[0]
        self.number = number
    }

    func mark(done: Bool, _ context: Context) throws {
        let store = try context.store()
        let id = try store.resolve(note)
        guard let analysis = try store.analysis(for: id) else { throw NoteStoreError.notAnalysed(try store.handle(of: id)) }
        guard number <= analysis.tasks.count else {
            throw CommandFailure("note \(try store.handle(of: id)) has \(analysis.tasks.count) task\(analysis.tasks.count == 1 ? "" : "s"), not \(number)")
        }
        try store.setTaskDone(id, index: number - 1, done: done)
        context.terminal.printError((done ? "Done: " : "Open again: ") + analysis.tasks[number - 1].text)
    }
}
