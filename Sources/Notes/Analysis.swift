// What the local model concluded about a note: a category, an urgency, tasks and a summary.

public enum Category: String, CaseIterable, Codable, Sendable {
    case work, personal, study, health, finance, other
}

/// A concrete thing to do that the analysis found in a note. `done` belongs to the user: it
/// survives re-analysis whenever the task's text does.
public struct TaskItem: Hashable, Codable, Sendable {
    public var text: String
    public var done: Bool
    /// The day it is due (`2026-12-04`), from the note's own words; nil when the note gives none.
    public var due: String?

    public init(text: String, done: Bool = false, due: String? = nil) {
        self.text = text
        self.done = done
        self.due = due
    }
}

/// What the user set over an analysis (`notes set`): each wins over this and every later
/// analysis of the note; nil where the analysis stands.
public struct Corrections: Hashable, Sendable {
    public var category: Category?
    public var urgency: Int?

    public static let none = Corrections()

    public init(category: Category? = nil, urgency: Int? = nil) {
        self.category = category
        self.urgency = urgency
    }

    public var isEmpty: Bool { category == nil && urgency == nil }
}

/// How far an analysis has gone: `quick` is what rules and the category's likelihood give at
/// once, with no generation; `full` adds what the model read (tasks and summary).
public enum AnalysisStage: String, CaseIterable, Codable, Sendable {
    case quick, full
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
    public var stage: AnalysisStage

    public init(category: Category, urgency: Int, tasks: [TaskItem], summary: String, model: String,
                analyzedAt: Timestamp, analyzerVersion: String, contentHash: String, stage: AnalysisStage = .full) {
        self.category = category
        self.urgency = min(max(urgency, Analysis.urgencyRange.lowerBound), Analysis.urgencyRange.upperBound)
        self.tasks = tasks
        self.summary = summary
        self.model = model
        self.analyzedAt = analyzedAt
        self.analyzerVersion = analyzerVersion
        self.contentHash = contentHash
        self.stage = stage
    }

    /// Carries the user's done marks over from an earlier analysis to tasks with the same text.
    public func keepingDoneMarks(from earlier: Analysis?) -> Analysis {
        guard let earlier else { return self }
        let done = Set(earlier.tasks.filter(\.done).map { $0.text.lowercased() })
        var copy = self
        copy.tasks = tasks.map { TaskItem(text: $0.text, done: $0.done || done.contains($0.text.lowercased()), due: $0.due) }
        return copy
    }
}

extension Analysis {
    /// Every field but the tasks, as `key: value` lines write them (text quoted): one list for
    /// the sync repository's analysis files and an export's front matter.
    public var scalarFields: [(key: String, value: String)] {
        var fields = [("category", category.rawValue), ("urgency", String(urgency)), ("summary", QuotedString.quoted(summary)),
                      ("model", QuotedString.quoted(model)), ("analyzed", analyzedAt.iso8601),
                      ("analyzer-version", QuotedString.quoted(analyzerVersion)), ("content-hash", contentHash)]
        // Only when not full: a version that predates stages reads every analysis as full.
        if stage != .full { fields.append(("stage", stage.rawValue)) }
        return fields
    }

    /// The analysis that `scalarFields` wrote, with `tasks`; nil when a field is missing or
    /// not what was written (an analysis is derived data: the notebook recomputes it).
    public init?(scalarFields fields: [String: String], tasks: [TaskItem]) {
        func text(_ key: String) -> String? {
            guard let value = fields[key], value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return nil }
            return QuotedString.unquoted(value)
        }
        guard let category = fields["category"].flatMap(Category.init(rawValue:)),
              let urgency = fields["urgency"].flatMap({ Int($0) }),
              let summary = text("summary"), let model = text("model"),
              let analyzed = fields["analyzed"].flatMap({ Timestamp(iso8601: $0) }),
              let version = text("analyzer-version"), let hash = fields["content-hash"], !hash.isEmpty,
              let stage = AnalysisStage(rawValue: fields["stage"] ?? AnalysisStage.full.rawValue)
        else { return nil }
        self.init(category: category, urgency: urgency, tasks: tasks, summary: summary, model: model, analyzedAt: analyzed,
                  analyzerVersion: version, contentHash: hash, stage: stage)
    }
}
