// Analyses and their tasks: what is pending, storing results, the user's corrections and done marks.
import Notes

/// An open or done task with the note it came from, for `notes tasks`.
public struct TaskEntry: Equatable, Sendable {
    public var noteID: NoteID
    public var noteTitle: String
    /// Position of the task within its note's analysis (0-based).
    public var index: Int
    public var task: TaskItem
    public var urgency: Int
    var noteCreated: Timestamp
}

extension NoteStore {
    /// An analysis's columns, the user's corrections applied (`analysisWithoutTasks` reads them).
    static let analysisColumns = """
        a.note_seq, coalesce(a.user_category, a.category), coalesce(a.user_urgency, a.urgency), a.summary,
        a.model, a.analyzed_at, a.analyzer_version, a.content_hash, a.stage
        """

    func analysisWithoutTasks(from row: Row, at first: Int32) -> Analysis {
        Analysis(category: Category(rawValue: row.string(first + 1)) ?? .other, urgency: Int(row.int(first + 2)), tasks: [],
                 summary: row.string(first + 3), model: row.string(first + 4), analyzedAt: Timestamp(milliseconds: row.int(first + 5)),
                 analyzerVersion: row.string(first + 6), contentHash: row.string(first + 7),
                 stage: AnalysisStage(rawValue: row.string(first + 8)) ?? .full)
    }

    static func task(from row: Row, at first: Int32) -> TaskItem {
        TaskItem(text: row.string(first), done: row.int(first + 1) == 1, due: row.optionalString(first + 2))
    }

    /// The note's analysis, with the user's corrections applied, or nil.
    public func analysis(for id: NoteID) throws -> Analysis? {
        let row = try database.statement("""
            SELECT \(Self.analysisColumns) FROM analyses a JOIN notes n ON n.seq = a.note_seq WHERE n.id = ?
            """).firstRow([id.rawValue]) { row in (seq: row.int(0), analysis: analysisWithoutTasks(from: row, at: 0)) }
        guard var analysis = row?.analysis, let seq = row?.seq else { return nil }
        analysis.tasks = try database.statement("SELECT text, done, due FROM tasks WHERE note_seq = ? ORDER BY position")
            .rows([seq]) { Self.task(from: $0, at: 0) }
        return analysis
    }

    /// The note's analysis as the analyzer made it, and the user's corrections beside it (what
    /// an export keeps), or nil when it has none.
    public func analysisAndCorrections(for id: NoteID) throws -> (analysis: Analysis, corrections: Corrections)? {
        guard var analysis = try analysis(for: id),
              let raw = try database.statement("""
                  SELECT a.category, a.urgency, a.user_category, a.user_urgency FROM analyses a JOIN notes n ON n.seq = a.note_seq WHERE n.id = ?
                  """).firstRow([id.rawValue], { row in
                      (category: Category(rawValue: row.string(0)) ?? .other, urgency: Int(row.int(1)),
                       corrections: Corrections(category: row.optionalString(2).flatMap(Category.init(rawValue:)),
                                                urgency: row.optionalInt(3).map { Int($0) }))
                  }) else { return nil }
        analysis.category = raw.category
        analysis.urgency = raw.urgency
        return (analysis, raw.corrections)
    }

    /// Puts back an analysis with its done marks and corrections, as an export kept them. One of
    /// another content than the note's stays until the note is analysed again, its corrections
    /// and done marks with it.
    func restore(_ analysis: Analysis, corrections: Corrections, of id: NoteID) throws {
        let seq = try seq(of: id)
        try storeAnalysis(analysis, id: id, seq: seq, keepingDoneMarks: false)
        guard !corrections.isEmpty else { return }
        try database.execute("""
            UPDATE analyses SET user_category = coalesce(?, user_category), user_urgency = coalesce(?, user_urgency) WHERE note_seq = ?
            """, [corrections.category?.rawValue, corrections.urgency, seq])
    }

    /// How many live notes have a category the user set.
    public func categoryCorrectionCount() throws -> Int {
        Int(try database.scalarInt("""
            SELECT count(*) FROM analyses a JOIN notes n ON n.seq = a.note_seq WHERE a.user_category IS NOT NULL AND n.deleted IS NULL
            """) ?? 0)
    }

    /// Live notes whose category the user corrected (`notes set --category`), the most recently
    /// changed first (at most `limit`, or all): the analyzer reads them as examples of the user's
    /// own categories. `vectorModel`: each comes with its first part's vector by that model, when
    /// it has a current one.
    public func categoryCorrections(limit: Int? = nil, vectorModel: String? = nil) throws -> [(text: String, category: Category, vector: [Float]?)] {
        try database.statement("""
            SELECT n.title, n.body, a.user_category, v.vector FROM analyses a JOIN notes n ON n.seq = a.note_seq
            LEFT JOIN note_vectors v ON v.note_seq = n.seq AND v.chunk = 0 AND v.model = ? AND v.content_hash = n.content_hash
            WHERE a.user_category IS NOT NULL AND n.deleted IS NULL
            ORDER BY n.updated DESC, n.seq DESC LIMIT \(limit ?? -1)
            """).rows([vectorModel ?? ""]) { row in
            (text: NoteText.fullText(title: row.string(0), body: row.string(1)), category: Category(rawValue: row.string(2)) ?? .other,
             vector: row.isNull(3) ? nil : row.withBlob(3) { FloatVector.floats($0) })
        }
    }

    /// Ids of live notes without a full analysis of their current content by `analyzerVersion`
    /// (a quick one does not count), oldest change first.
    public func pendingAnalysis(analyzerVersion: String, limit: Int? = nil) throws -> [NoteID] {
        try database.statement("""
            SELECT n.id FROM notes n LEFT JOIN analyses a ON a.note_seq = n.seq
            WHERE n.deleted IS NULL AND \(Self.lacksFullAnalysis)
            ORDER BY n.updated LIMIT \(limit ?? -1)
            """).rows([analyzerVersion]) { NoteID($0.string(0))! }
    }

    public func pendingAnalysisCount(analyzerVersion: String) throws -> Int {
        Int(try database.scalarInt("""
            SELECT count(*) FROM notes n LEFT JOIN analyses a ON a.note_seq = n.seq
            WHERE n.deleted IS NULL AND \(Self.lacksFullAnalysis)
            """, [analyzerVersion]) ?? 0)
    }

    private static let lacksFullAnalysis = """
        (a.note_seq IS NULL OR a.content_hash != n.content_hash OR a.analyzer_version != ? OR a.stage = 'quick')
        """

    /// Ids of live notes with no analysis at all of their current content (not even a quick one,
    /// nor one by another analyzer version), most recent change first: a note just added or
    /// edited gets its quick analysis before the older backlog.
    public func pendingQuickAnalysis(limit: Int? = nil) throws -> [NoteID] {
        try database.statement("""
            SELECT n.id FROM notes n LEFT JOIN analyses a ON a.note_seq = n.seq
            WHERE n.deleted IS NULL AND (a.note_seq IS NULL OR a.content_hash != n.content_hash)
            ORDER BY n.updated DESC LIMIT \(limit ?? -1)
            """).rows { NoteID($0.string(0))! }
    }

    /// Stores an analysis if the note still has the content it describes; returns false (and
    /// stores nothing) when the note changed or was deleted meanwhile. Done marks carry over to
    /// tasks with the same text, and the user's corrections stay.
    @discardableResult
    public func saveAnalysis(_ analysis: Analysis, for id: NoteID) throws -> Bool {
        try database.transaction {
            guard let current = try database.statement("SELECT seq, content_hash FROM notes WHERE id = ? AND deleted IS NULL")
                .firstRow([id.rawValue], { (seq: $0.int(0), hash: $0.string(1)) }),
                current.hash == analysis.contentHash else { return false }
            // A quick analysis never replaces a full one of the same text.
            if analysis.stage == .quick, try database.scalarInt(
                "SELECT count(*) FROM analyses WHERE note_seq = ? AND content_hash = ? AND stage = 'full'", [current.seq, analysis.contentHash]) == 1 {
                return false
            }
            try storeAnalysis(analysis, id: id, seq: current.seq, keepingDoneMarks: true)
            return true
        }
    }

    /// Writes an analysis and its tasks, and makes them searchable. The user's corrections stay.
    func storeAnalysis(_ analysis: Analysis, id: NoteID, seq: Int64, keepingDoneMarks: Bool) throws {
        let merged = keepingDoneMarks ? analysis.keepingDoneMarks(from: try self.analysis(for: id)) : analysis
        try database.execute("""
            INSERT INTO analyses(note_seq, category, urgency, summary, model, analyzed_at, analyzer_version, content_hash, stage)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(note_seq) DO UPDATE SET category = excluded.category, urgency = excluded.urgency,
                summary = excluded.summary, model = excluded.model, analyzed_at = excluded.analyzed_at,
                analyzer_version = excluded.analyzer_version, content_hash = excluded.content_hash, stage = excluded.stage
            """, [seq, merged.category.rawValue, merged.urgency, merged.summary, merged.model,
                  merged.analyzedAt.milliseconds, merged.analyzerVersion, merged.contentHash, merged.stage.rawValue])
        try database.execute("DELETE FROM tasks WHERE note_seq = ?", [seq])
        for (position, task) in merged.tasks.enumerated() {
            try database.execute("INSERT INTO tasks(note_seq, position, text, done, due) VALUES (?, ?, ?, ?, ?)",
                                 [seq, position, task.text, task.done, task.due])
        }
        let searchable = ([merged.summary] + merged.tasks.map(\.text)).joined(separator: "\n")
        try database.execute("UPDATE notes SET analysis_text = ? WHERE seq = ?", [searchable, seq])
        try bumpVersion(seq: seq)
    }

    /// The user's correction: it wins over this and every later analysis.
    public func correct(_ id: NoteID, category: Category?, urgency: Int?) throws {
        try database.transaction {
            let seq = try seq(of: id)
            try database.execute("""
                UPDATE analyses SET user_category = coalesce(?, user_category), user_urgency = coalesce(?, user_urgency)
                WHERE note_seq = ?
                """, [category?.rawValue, urgency, seq])
            guard database.changes == 1 else { throw NoteStoreError.notAnalysed(try handle(of: id)) }
            try bumpVersion(seq: seq)
        }
    }

    /// Marks the task at `index` (0-based) of a note's analysis done or open.
    /// `edited`: the note with the task's checklist box ticked or unticked to match; its analysis
    /// moves to the new text with it (only the box changed, and the done mark says the same), so
    /// the note is not analysed again for it.
    public func setTaskDone(_ id: NoteID, index: Int, done: Bool, edited: Note? = nil) throws {
        try database.transaction {
            let seq = try seq(of: id)
            if let edited, edited.id == id {
                let previous = try database.scalarText("SELECT content_hash FROM notes WHERE seq = ?", [seq]) ?? ""
                try updateRow(edited)
                try database.execute("UPDATE analyses SET content_hash = ? WHERE note_seq = ? AND content_hash = ?",
                                     [edited.contentHash, seq, previous])
            }
            try database.execute("UPDATE tasks SET done = ? WHERE note_seq = ? AND position = ?", [done, seq, index])
            guard database.changes == 1 else { throw NoteStoreError.noSuchTask(try handle(of: id), index + 1) }
            try bumpVersion(seq: seq)
        }
    }

    /// Tasks across live notes: those with a due day first, soonest first; then by urgency,
    /// most urgent first, then oldest note first. `dueBy`: only tasks due on or before that day
    /// (ISO 8601), `dueFrom`: only those due on or after it.
    public func tasks(includeDone: Bool = false, dueFrom: String? = nil, dueBy: String? = nil) throws -> [TaskEntry] {
        var conditions = ["n.deleted IS NULL"]
        var values: [String] = []
        if !includeDone { conditions.append("t.done = 0") }
        if let dueFrom { conditions.append("t.due >= ?"); values.append(dueFrom) }
        if let dueBy { conditions.append("t.due <= ?"); values.append(dueBy) }
        return try database.statement("""
            SELECT n.id, n.title, t.position, t.text, t.done, coalesce(a.user_urgency, a.urgency), n.created, t.due
            FROM tasks t JOIN analyses a ON a.note_seq = t.note_seq JOIN notes n ON n.seq = t.note_seq
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY t.due IS NULL, t.due, coalesce(a.user_urgency, a.urgency) DESC, n.created, t.position
            """).rows(values) {
            TaskEntry(noteID: NoteID($0.string(0))!, noteTitle: $0.string(1), index: Int($0.int(2)),
                      task: TaskItem(text: $0.string(3), done: $0.int(4) == 1, due: $0.optionalString(7)), urgency: Int($0.int(5)),
                      noteCreated: Timestamp(milliseconds: $0.int(6)))
        }
    }
}
