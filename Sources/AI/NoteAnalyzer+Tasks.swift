// The tasks of a note, from three sources in order of trust: the checklist items the user wrote,
// the model's tasks that the note supports, and the sentences that are instructions to oneself
// ("Book the hotel.", "I need to update the release notes"). A small model misses many tasks
// and invents others ("finance", "./notes.md"), so its tasks are kept only when most of their
// words are the note's, and plain instructions in the note are not left to it.

extension NoteAnalyzer {
    /// Every source merged, explicit items first, without two tasks that say the same thing.
    static func tasks(model: [String], body: String) -> [String] {
        let explicit = checklistItems(in: body)
        let grounded = model.map { $0.trimmingWhitespace() }.filter { TaskText.isGrounded($0, in: body) }
        var result: [String] = []
        for task in explicit + grounded + instructions(in: body) where !result.contains(where: { TaskText.sameTask($0, task) }) {
            result.append(task)
        }
        return Array(result.prefix(GeneratedAnalysis.maximumTasks))
    }

    /// Sentences that start with a verb telling the writer what to do, or that say "I need to",
    /// "remember to" and the like (the task is what follows). Checked items and "don't" are not
    /// tasks; checklist lines are left to `checklistItems`.
    static func instructions(in body: String) -> [String] {
        var found: [String] = []
        for line in body.split(whereSeparator: \.isNewline) {
            var text = line.trimmingWhitespace()
            if text.hasPrefix("- [") || text.hasPrefix("* [") || text.hasPrefix("+ [") || text.contains("TODO") { continue }
            while let first = text.first, "-*•+>#".contains(first) { text = String(text.dropFirst()).trimmingWhitespace() }
            for sentence in TaskText.sentences(text) {
                if let task = TaskText.instruction(sentence) { found.append(task) }
            }
        }
        return found
    }
}

extension TaskText {
    static let leadIns = ["i need to ", "need to ", "i have to ", "have to ", "i must ", "must ", "remember to ", "don't forget to ",
                          "do not forget to ", "i should ", "should ", "i want to ", "todo ", "to do: "]

    /// Verbs that open an instruction to oneself, in the infinitive (English, with the commonest
    /// Spanish and French ones).
    static let actionVerbs: Set<String> = [
        "add", "apply", "ask", "attend", "back", "book", "bring", "buy", "call", "cancel", "change", "check", "clean", "collect",
        "compare", "confirm", "contact", "cook", "decide", "deploy", "dispute", "do", "download", "draft", "drop", "email", "e-mail",
        "file", "fill", "find", "finish", "fix", "follow", "get", "give", "go", "install", "invite", "leave", "learn", "mail",
        "make", "meet", "message", "move", "order", "pack", "pay", "phone", "pick", "plan", "post", "practice", "practise",
        "prepare", "print", "put", "raise", "read", "rebalance", "redo", "refill", "register", "remind", "renew", "repair", "reply",
        "report", "reserve", "return", "review", "revise", "schedule", "sell", "send", "set", "share", "sign", "start", "study",
        "submit", "switch", "take", "tell", "text", "transfer", "update", "visit", "write",
        "llamar", "llevar", "comprar", "pagar", "enviar", "mandar", "preparar", "repasar", "reservar", "escribir", "ir",
        "appeler", "acheter", "envoyer", "payer", "préparer", "réserver", "écrire", "faire",
    ]

    /// A sentence as a task, when it is one: without its lead-in and end punctuation.
    static func instruction(_ sentence: String) -> String? {
        var text = sentence.trimmingWhitespace()
        let lower = text.lowercased()
        if let leadIn = leadIns.first(where: { lower.hasPrefix($0) }) {
            text = String(text.dropFirst(leadIn.count))
        } else {
            let first = lower.split(whereSeparator: { !$0.isLetter && $0 != "-" }).first.map(String.init) ?? ""
            guard actionVerbs.contains(first) else { return nil }
        }
        // #tags belong to the note, not to the task.
        text = text.split(separator: " ").filter { !($0.hasPrefix("#") && $0.count > 1) }.joined(separator: " ")
        while let last = text.last, ".!?;:,".contains(last) { text.removeLast() }
        text = text.trimmingWhitespace()
        guard text.split(separator: " ").count >= 2 else { return nil }
        guard let head = text.first else { return nil }
        let task = head.uppercased() + text.dropFirst()
        return task.count <= GeneratedAnalysis.maximumTaskCharacters ? task : String(task.prefix(GeneratedAnalysis.maximumTaskCharacters)).trimmingWhitespace()
    }

    /// Splits at sentence ends (". ", "! ", "? ", "; "), keeping abbreviations such as "Dr." whole.
    static func sentences(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        var previous: Character = " "
        for character in text {
            if character == " ", ".!?;".contains(previous) {
                let lastWord = current.split(separator: " ").last.map { $0.lowercased() } ?? ""
                if !["dr.", "mr.", "mrs.", "ms.", "e.g.", "i.e.", "vs.", "st."].contains(lastWord) {
                    sentences.append(current)
                    current = ""
                    previous = character
                    continue
                }
            }
            current.append(character)
            previous = character
        }
        if !current.trimmingWhitespace().isEmpty { sentences.append(current) }
        return sentences.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// A model's task the note supports: most of its content words are in the note, and it is
    /// more than a label or a path.
    static func isGrounded(_ task: String, in body: String) -> Bool {
        let words = contentWords(task)
        guard words.count >= 2, !task.contains("/"), !task.hasPrefix(".") else { return false }
        return words.intersection(contentWords(body)).count * 3 >= words.count * 2
    }

    /// Either covers the other.
    static func sameTask(_ a: String, _ b: String) -> Bool {
        a.lowercased() == b.lowercased() || covers(a, b) || covers(b, a)
    }
}
