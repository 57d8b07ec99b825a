// Markdown checklist lines (`- [ ] buy milk`, `* [x] done`): read by the analysis (an unticked
// item is a task, a ticked one never is) and ticked by `notes done`, so that the note's text,
// its export and any other editor agree with the done mark, as in Obsidian.

public enum Checklist {
    /// A checklist line's item: its text (trimmed) and whether it is ticked; nil for any other line.
    public static func item(_ line: some StringProtocol) -> (text: String, done: Bool)? {
        let trimmed = line.trimmingWhitespace()
        for bullet in ["- ", "* ", "+ "] where trimmed.hasPrefix(bullet) {
            for (box, done) in [("[ ] ", false), ("[x] ", true), ("[X] ", true)] where trimmed.dropFirst(bullet.count).hasPrefix(box) {
                return (String(trimmed.dropFirst(bullet.count + box.count)).trimmingWhitespace(), done)
            }
        }
        return nil
    }

    /// `body` with the first checklist item that `task` names ticked (`done`) or unticked; nil
    /// when no item in the other state names it. An item names the task when one starts with
    /// the other, ignoring case and a trailing full stop: the analysis keeps an item in its own
    /// words, sometimes without a trailing remark ("- [ ] call the bank — today").
    public static func marking(_ task: String, done: Bool, in body: String) -> String? {
        let wanted = comparable(task)
        guard !wanted.isEmpty else { return nil }
        var start = body.startIndex
        while true {
            // "\r\n" is one Character, so lines end at any newline Character.
            let end = body[start...].firstIndex(where: \.isNewline) ?? body.endIndex
            let line = body[start..<end]
            if let item = item(line), item.done != done, case let text = comparable(item.text), !text.isEmpty,
               text.hasPrefix(wanted) || wanted.hasPrefix(text),
               let box = line.firstRange(of: done ? "[ ]" : "[x]") ?? (done ? nil : line.firstRange(of: "[X]")) {
                // Only the box changes: the bullet, the indentation and the line ends stay as they were.
                var marked = body
                marked.replaceSubrange(box, with: done ? "[x]" : "[ ]")
                return marked
            }
            guard end < body.endIndex else { return nil }
            start = body.index(after: end)
        }
    }

    private static func comparable(_ text: String) -> String {
        var text = text.trimmingWhitespace().lowercased()
        while let last = text.last, last == "." || last == "!" { text.removeLast() }
        return text
    }
}
