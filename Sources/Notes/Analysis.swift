// What the local model concluded about a note: a category, an urgency, tasks and a summary.

public enum Category: String, CaseIterable, Codable, Sendable {
    case work, personal, study, health, finance, other
}

/// A concrete thing to do that the analysis found in a note. `done` belongs to the user: it
/// survives re-analysis whenever the task's text does.
public struct TaskItem: Hashable, Codable, Sendable {
    public var text: String
    public var done: Bool

    public init(text: String, done: Bool = false) {
        self.text = text
        self.done = done
    }
}

public struct Analysis: Hashable, Sendable {
    public static let urgencyRange = 1...5

    public var category: Category
    /// 1 (whenever) to 5 (today).
    public var urgency: Int
    public var tasks: [TaskItem]
    public var summary: String
    /// The model that produced it, for display.
    public var model: String
    public var analyzedAt: Timestamp
    /// Model, prompt and schema together: when it changes, notes are analysed again.
    public var analyzerVersion: String
    /// The note content this analysis describes (see `Note.contentHash`).
    public var contentHash: String

    public init(category: Category, urgency: Int, tasks: [TaskItem], summary: String, model: String,
                analyzedAt: Timestamp, analyzerVersion: String, contentHash: String) {
        self.category = category
        self.urgency = min(max(urgency, Analysis.urgencyRange.lowerBound), Analysis.urgencyRange.upperBound)
        self.tasks = tasks
        self.summary = summary
        self.model = model
        self.analyzedAt = analyzedAt
        self.analyzerVersion = analyzerVersion
        self.contentHash = contentHash
    }

    /// Carries the user's done marks over from an earlier analysis to tasks with the same text.
    public func keepingDoneMarks(from earlier: Analysis?) -> Analysis {
        guard let earlier else { return self }
        let done = Set(earlier.tasks.filter(\.done).map { $0.text.lowercased() })
        var copy = self
        copy.tasks = tasks.map { TaskItem(text: $0.text, done: $0.done || done.contains($0.text.lowercased())) }
        return copy
    }
}
