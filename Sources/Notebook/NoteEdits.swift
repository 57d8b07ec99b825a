// Changes to a note the CLI and `notes mcp` both make: a line appended, a task marked done, a
// category set. One rule each, so a note changed through either is the same note.
import AI
import Analysis
import Notes
import Storage

public enum NoteEdits {
    /// `original` with `body`, a new title and tags if given, stamped `time`; nil when nothing
    /// would change (the caller says "No changes").
    public static func edited(_ original: Note, body: String, title: String? = nil, addingTags: [String] = [],
                              removingTags: [String] = [], at time: Timestamp) throws -> Note? {
        let note = try NoteRules.note(id: original.id, body: body, title: title, tags: addingTags,
                                      created: original.created, updated: time, fallbackTime: original.created,
                                      origin: .edited(previous: original, untagging: removingTags))
        guard note.title != original.title || note.body != original.body || note.tags != original.tags else { return nil }
        return note
    }

    /// The body with `addition` as a line of its own at the end.
    public static func appending(_ addition: String, to body: String) -> String {
        body.isEmpty ? addition : body + "\n" + addition
    }

    /// Marks task `number` (counted from 1, as `notes tasks` shows it) of the note `reference`
    /// names done or open again, and returns the task. A task that is a checklist item of the
    /// note gets its box ticked (or unticked) in the text too, stamped `time`.
    public static func markTask(_ reference: String, number: Int, done: Bool, in store: NoteStore, at time: Timestamp) throws -> TaskItem {
        let id = try store.resolve(reference)
        guard let analysis = try store.analysis(for: id) else { throw NoteStoreError.notAnalysed(try store.handle(of: id)) }
        guard number >= 1, number <= analysis.tasks.count else {
            throw TaskNumberError(handle: try store.handle(of: id), count: analysis.tasks.count, number: number)
        }
        let task = analysis.tasks[number - 1]
        let note = try store.note(id)
        let ticked = try note.flatMap { original in
            try Checklist.marking(task.text, done: done, in: original.body).flatMap { try edited(original, body: $0, title: original.title, at: time) }
        }
        try store.setTaskDone(id, index: number - 1, done: done, edited: ticked)
        return task
    }

    /// Sets the category or urgency of the note `reference` names: the user's correction, which
    /// outlives every re-analysis. A note not analysed yet first gets its quick analysis (a tag,
    /// keywords and the labelled notes' vote, the rules' tasks; no generation), so a correction
    /// never waits for the model. Returns the analysis as it now stands.
    public static func correct(_ reference: String, category: Category?, urgency: Int?, in store: NoteStore,
                               analyzer: NoteAnalyzer, today: Timestamp) throws -> Analysis {
        let id = try store.resolve(reference)
        // The note may change between the quick analysis and its saving: then once more.
        for _ in 0..<3 where try store.analysis(for: id) == nil {
            guard let note = try store.note(id) else { break }
            try store.saveAnalysis(analyzer.quickAnalysisWithoutModel(note, today: today), for: id)
        }
        try store.correct(id, category: category, urgency: urgency)
        guard let analysis = try store.analysis(for: id) else { throw NoteStoreError.notAnalysed(try store.handle(of: id)) }
        return analysis
    }
}

/// A task number the note does not have, in the user's words.
public struct TaskNumberError: Error, Equatable, CustomStringConvertible {
    public var handle: String
    public var count: Int
    public var number: Int
    public var description: String { "note \(handle) has \(count) task\(count == 1 ? "" : "s"), not \(number)" }
}

/// Which tasks `notes tasks --due` (and the `tasks` tool) keep, by their due day.
public enum TaskWindow: String, CaseIterable, Sendable {
    /// Due today or before.
    case today
    /// Due tomorrow, that day only (the search filter `due:tomorrow`).
    case tomorrow
    /// Due within 7 days, overdue ones included.
    case week
    /// Due before today.
    case overdue

    /// The tasks of the open ones the window keeps, soonest due first (`NoteStore.tasks`).
    public func tasks(in store: NoteStore, includeDone: Bool = false, now: Timestamp) throws -> [TaskEntry] {
        try store.tasks(includeDone: includeDone, dueFrom: firstDay(now: now), dueBy: lastDay(now: now))
    }

    public func tasks(in notebook: LocalNotebook, includeDone: Bool = false, now: Timestamp) throws -> [TaskEntry] {
        try tasks(in: notebook.store, includeDone: includeDone, now: now)
    }

    /// The first day (UTC) a task may be due on to be kept; nil: no bound.
    func firstDay(now: Timestamp) -> String? {
        self == .tomorrow ? lastDay(now: now) : nil
    }

    /// The last day (UTC) a task may be due on to be kept.
    func lastDay(now: Timestamp) -> String {
        switch self {
        case .today: now.day
        case .week: now.adding(days: 7).day
        case .overdue: now.adding(days: -1).day
        case .tomorrow: now.adding(days: 1).day
        }
    }
}
