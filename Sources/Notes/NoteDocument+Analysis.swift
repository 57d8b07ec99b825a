// A note's analysis and the user's corrections in its front matter, so that an export is a
// backup that restores them. Plain YAML under keys of our own, which other tools read past:
//
//     notes-analysis:
//       category: health
//       urgency: 4
//       summary: "Call the dentist about the crown"
//       model: "qwen2.5-coder-1.5b"
//       analyzed: 2026-11-29T13:35:02Z
//       analyzer-version: "r7"
//       content-hash: 5f1c...
//       stage: quick                 (only when not full)
//       tasks:
//         - text: "call the dentist"
//           done: true
//           due: 2026-12-04
//     notes-corrections:
//       category: work
//       urgency: 2

extension NoteDocument {
    static let analysisKey = "notes-analysis"
    static let correctionsKey = "notes-corrections"

    static func render(analysis: Analysis) -> String {
        var text = "\(analysisKey):\n" + analysis.scalarFields.map { "  \($0.key): \($0.value)\n" }.joined()
        guard !analysis.tasks.isEmpty else { return text + "  tasks: []\n" }
        text += "  tasks:\n"
        for task in analysis.tasks {
            text += "    - text: \(QuotedString.quoted(task.text))\n"
            text += "      done: \(task.done)\n"
            if let due = task.due { text += "      due: \(due)\n" }
        }
        return text
    }

    static func render(corrections: Corrections) -> String {
        guard !corrections.isEmpty else { return "" }
        var text = "\(correctionsKey):\n"
        if let category = corrections.category { text += "  category: \(category.rawValue)\n" }
        if let urgency = corrections.urgency { text += "  urgency: \(urgency)\n" }
        return text
    }

    /// The analysis a block of indented lines describes, or nil when it is not a whole one: it is
    /// derived data, which the notebook recomputes.
    static func analysis(fromBlock lines: [Substring]) -> Analysis? {
        var fields: [String: String] = [:]
        var tasks: [TaskItem] = []
        for line in lines {
            let trimmed = line.trimmingWhitespace()
            let isNewTask = trimmed.hasPrefix("- ")
            let entry = isNewTask ? trimmed.dropFirst(2).trimmingWhitespace() : trimmed
            guard let colon = entry.firstIndex(of: ":") else { continue }
            let key = entry[..<colon].trimmingWhitespace()
            let value = entry[entry.index(after: colon)...].trimmingWhitespace()
            if isNewTask {
                guard key == "text" else { return nil }
                tasks.append(TaskItem(text: QuotedString.unquoted(value)))
            } else if line.hasPrefix("      "), !tasks.isEmpty {
                switch key {
                case "done": tasks[tasks.count - 1].done = value == "true"
                case "due": tasks[tasks.count - 1].due = QuotedString.unquoted(value)
                default: continue
                }
            } else {
                fields[key] = value
            }
        }
        return Analysis(scalarFields: fields, tasks: tasks)
    }

    /// The corrections a block of indented lines holds; a value that is not one is left out.
    static func corrections(fromBlock lines: [Substring]) -> Corrections {
        var corrections = Corrections.none
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            switch line[..<colon].trimmingWhitespace() {
            case "category": corrections.category = Category(rawValue: QuotedString.unquoted(value))
            case "urgency": corrections.urgency = Int(value).flatMap { Analysis.urgencyRange.contains($0) ? $0 : nil }
            default: continue
            }
        }
        return corrections
    }
}
