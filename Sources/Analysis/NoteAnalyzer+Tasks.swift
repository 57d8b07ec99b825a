// The tasks of a note, from its own words, in order of trust: the checklist items the user wrote,
// the items of a list whose heading says what to do with them ("Books to read: ..."), and the
// clauses that are instructions to oneself ("Book the hotel", "I need to update the release
// notes", an appointment to attend). The bundled model's own tasks were measured and dropped:
// it repeats the prompt's examples or invents ("finance", "./notes.md"), and the few it found in
// the note the rules found too (bench/analysis/RESULTS.md).

extension NoteAnalyzer {
    /// Every source merged, explicit items first, without two tasks that say the same thing.
    static func tasks(in body: String) -> [String] {
        let explicit = checklistItems(in: body)
        var result: [String] = []
        for task in explicit + listTasks(in: body) + instructions(in: body) where !result.contains(where: { TaskText.sameTask($0, task) }) {
            result.append(task)
        }
        return Array(result.prefix(GeneratedAnalysis.maximumTasks))
    }

    /// A list whose heading says what to do with its items asks for one thing per item:
    /// "Groceries: milk, eggs" (buy each), "Books to read next:" over bullet lines (read each).
    static func listTasks(in body: String) -> [String] {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        var tasks: [String] = []
        for (index, line) in lines.enumerated() {
            var heading = line
            while let first = heading.first, first == "#" || first == " " { heading.removeFirst() }
            var items: [String] = []
            if let colon = heading.firstIndex(of: ":") {
                items = TaskText.listItems(String(heading[heading.index(after: colon)...]))
                heading = String(heading[..<colon])
            }
            if items.isEmpty {
                // Bullet lines under the heading, up to the first line that is not one.
                for next in lines[(index + 1)...] {
                    guard let first = next.first, "-*•+".contains(first), !next.dropFirst().trimmingWhitespace().hasPrefix("[") else { break }
                    items.append(String(next.dropFirst()).trimmingWhitespace())
                }
            }
            guard !items.isEmpty, let verb = TaskText.listVerb(heading) else { continue }
            tasks += items.filter { !$0.isEmpty && $0.count <= 60 }.map { verb + " " + $0 }
        }
        return tasks
    }

    /// Clauses that start with a verb telling the writer what to do, or that say "I need to",
    /// "I'll" and the like (the task is what follows). Checked items and "don't" are not tasks;
    /// checklist lines are left to `checklistItems`, and Markdown headings name a part of the
    /// note ("## File systems"), they ask nothing.
    static func instructions(in body: String) -> [String] {
        var found: [String] = []
        for line in body.split(whereSeparator: \.isNewline) {
            var text = line.trimmingWhitespace()
            if text.hasPrefix("- [") || text.hasPrefix("* [") || text.hasPrefix("+ [") || text.contains("TODO") { continue }
            if text.hasPrefix("# ") || text.hasPrefix("##") { continue }
            while let first = text.first, "-*•+>".contains(first) { text = String(text.dropFirst()).trimmingWhitespace() }
            var subject: String?
            for sentence in TaskText.sentences(text) {
                var any = false
                for clause in TaskText.clauses(sentence) {
                    guard let task = TaskText.instruction(clause) else { continue }
                    found.append(subject.map { TaskText.replacingIt(in: task, with: $0) } ?? task)
                    any = true
                }
                if !any, let appointment = TaskText.appointment(sentence) { found.append(appointment) }
                subject = TaskText.subject(of: sentence)
            }
        }
        return found
    }
}

extension TaskText {
    static let leadIns = ["i need to ", "need to ", "i have to ", "have to ", "i must ", "must ", "remember to ", "don't forget to ",
                          "do not forget to ", "i should ", "should ", "i want to ", "todo ", "to do: ", "i'll ", "i will ", "we need to ",
                          "we have to ", "we must ", "we should ", "we'll "]
    /// Lead-ins that mark a task wherever they stand in a clause: the writer speaking of
    /// themselves ("Priya owns the migration, I need to update the notes").
    static let firstPersonLeadIns = ["i need to ", "i have to ", "i must ", "i should ", "i'll ", "i will ", "we need to ", "we have to ",
                                     "we must ", "we should ", "we'll "]

    /// Verbs that open an instruction to oneself, in the infinitive (English, with the commonest
    /// Spanish and French ones).
    static let actionVerbs: Set<String> = [
        "add", "apply", "arrange", "ask", "attend", "avoid", "back", "book", "bring", "buy", "call", "cancel", "change", "charge",
        "check", "clean", "clear", "collect", "compare", "confirm", "contact", "cook", "cut", "decide", "deploy", "dispute", "do",
        "donate", "download", "draft", "drink", "drop", "email", "e-mail", "file", "fill", "find", "finish", "fix", "floss", "focus",
        "follow", "get", "give", "go", "hire", "install", "invite", "leave", "learn", "look", "mail", "make", "meet", "merge",
        "message", "move", "order", "organise", "organize", "pack", "pay", "phone", "pick", "plan", "post", "practice", "practise",
        "prepare", "print", "publish", "put", "quit", "raise", "read", "rebalance", "rebook", "redo", "refill", "register", "remind",
        "remove", "renew", "repair", "replace", "reply", "report", "reschedule", "research", "reserve", "restart", "return", "review",
        "revise", "rewrite", "scan", "schedule", "sell", "send", "set", "share", "sign", "sort", "start", "stop", "stretch", "study",
        "submit", "switch", "take", "tell", "test", "text", "thank", "tidy", "transfer", "try", "update", "upload", "visit", "wash",
        "water", "write",
        "llamar", "llevar", "comprar", "pagar", "enviar", "mandar", "preparar", "repasar", "reservar", "escribir", "ir", "hacer",
        "revisar", "terminar", "estudiar", "pedir", "devolver",
        "appeler", "acheter", "envoyer", "payer", "préparer", "réserver", "écrire", "faire", "réviser", "finir", "terminer",
        "apporter", "prendre", "rappeler", "rendre",
    ]

    /// A clause as a task, when it is one: without its lead-in and end punctuation.
    static func instruction(_ clause: String) -> String? {
        var text = withoutLeadingTime(clause.trimmingWhitespace())
        let lower = text.lowercased()
        if let leadIn = leadIns.first(where: { lower.hasPrefix($0) }) {
            text = String(text.dropFirst(leadIn.count))
        } else if let range = firstPersonLeadIns.lazy.compactMap({ lower.firstRange(of: " " + $0) }).first {
            // Lowercasing keeps these ASCII lead-ins at the same offsets.
            text = String(text.utf8.dropFirst(lower.utf8.distance(from: lower.startIndex, to: range.upperBound)))!
        } else {
            let first = lower.split(whereSeparator: { !$0.isLetter && $0 != "-" }).first.map(String.init) ?? ""
            guard actionVerbs.contains(first), !namesAThing(lower) else { return nil }
        }
        // #tags belong to the note, not to the task.
        text = NoteAnalyzer.withoutTags(text).droppingTrailing(".!?;:,").trimmingWhitespace()
        guard text.split(separator: " ").count >= 2 else { return nil }
        guard let head = text.first else { return nil }
        let task = head.uppercased() + text.dropFirst()
        return task.count <= GeneratedAnalysis.maximumTaskCharacters ? task : String(task.prefix(GeneratedAnalysis.maximumTaskCharacters)).trimmingWhitespace()
    }

    /// What "it" stands for in the next sentence: the subject of a sentence that says something
    /// is due or has happened ("the quarterly VAT return is due today. ... file it").
    static func subject(of sentence: String) -> String? {
        var words = sentence.split(separator: " ").map(String.init)
        // "Tax: the VAT return is due": the label is not the subject.
        if let label = words.prefix(3).firstIndex(where: { $0.hasSuffix(":") }) { words.removeFirst(label + 1) }
        let markers: Set<String> = ["is", "was", "are", "were", "due", "expires", "expired", "has", "had", "will", "needs", "arrived"]
        guard let end = words.firstIndex(where: { markers.contains($0.lowercased()) }), (1...6).contains(end) else { return nil }
        let phrase = words[..<end]
        guard !["i", "we", "he", "she", "they", "it", "this", "that", "there"].contains(phrase[0].lowercased()) else { return nil }
        return phrase.joined(separator: " ").droppingTrailing(",;")
    }

    /// The task with its first "it" (or "them") replaced by what it stands for.
    static func replacingIt(in task: String, with subject: String) -> String {
        var words = task.split(separator: " ").map(String.init)
        guard let index = words.dropFirst().firstIndex(where: { ["it", "it.", "them"].contains($0.lowercased()) }) else { return task }
        let lead = subject.split(separator: " ").first.map(String.init) ?? subject
        // "Pay it" with "payment of $642" would say "Pay payment": the note's "it" reads better.
        if let verb = words.first?.lowercased(), lead.lowercased().hasPrefix(verb) { return task }
        let phrase = ["The", "A", "An", "My", "Our"].contains(lead) ? lead.lowercased() + subject.dropFirst(lead.count) : subject
        words[index] = phrase
        return words.joined(separator: " ")
    }

    /// "Dentist appointment Wednesday 8:30": an appointment named at the start of a sentence is
    /// something to attend.
    static func appointment(_ sentence: String) -> String? {
        let words = sentence.split(separator: " ")
        let keys = ["appointment", "appt", "cita", "rendez-vous", "rdv"]
        guard words.count >= 2, words.prefix(4).contains(where: { word in keys.contains { word.lowercased().hasPrefix($0) } }) else { return nil }
        let text = sentence.droppingTrailing(".!?;:,")
        let lower = text.lowercased()
        // In the note's language where it is one of the commonest.
        let verb = lower.contains("cita") ? "Ir a la " : lower.contains("rendez-vous") || lower.contains("rdv") ? "Aller au " : "Attend "
        return verb + (text.first.map { String($0).lowercased() } ?? "") + text.dropFirst()
    }

    /// The verb a list's heading asks of its items: "shopping", "groceries" (buy), "liste de
    /// courses" (acheter), "lista de la compra" (comprar), or "<things> to <verb>".
    static func listVerb(_ heading: String) -> String? {
        let lower = heading.lowercased()
        let words = lower.split { !$0.isLetter }.map(String.init)
        guard words.count <= 8 else { return nil }
        if words.contains(where: { $0.hasPrefix("shopping") || $0.hasPrefix("grocer") }) { return "Buy" }
        if words.contains("courses") { return "Acheter" }
        if words.contains("compra") || words.contains("compras") { return "Comprar" }
        if let to = words.firstIndex(of: "to"), to > 0, to + 1 < words.count,
           actionVerbs.contains(words[to + 1]) || ["watch", "see", "listen", "try"].contains(words[to + 1]) {
            return words[to + 1].prefix(1).uppercased() + words[to + 1].dropFirst()
        }
        return nil
    }

    /// "milk, eggs and rice." as ["milk", "eggs", "rice"].
    static func listItems(_ text: String) -> [String] {
        var items = split(text, at: [", ", "; "])
        if let last = items.last {
            items.removeLast()
            items += split(last, at: [" and ", " et ", " y "])
        }
        return items.map { $0.droppingTrailing(".!;,").trimmingWhitespace() }
    }

    /// "9–11 write the design doc", "14:00 call Ana": the time the task is planned for leads.
    static func withoutLeadingTime(_ text: String) -> String {
        guard let first = text.split(separator: " ").first, first.first?.isNumber == true,
              first.allSatisfy({ $0.isNumber || ":.–-hapm".contains($0) }) else { return text }
        return String(text.dropFirst(first.count)).trimmingWhitespace()
    }

    /// A verb that is also a noun, used as one: "Study group meets at 2", "Phone bill went up",
    /// "Back pain again".
    static func namesAThing(_ lower: String) -> Bool {
        let words = lower.split(separator: " ")
        guard words.count >= 2 else { return false }
        if words[0] == "back" { return words[1] != "up" }
        return ["group", "bill", "bills", "session", "notes", "list", "club", "pain", "results", "call", "number"].contains(words[1])
            && !["make", "take"].contains(words[0])
    }

    /// Where one instruction ends and the next begins inside a sentence: at dashes and colons
    /// ("Refill the meds — only 1 pill left", "Plan: one test a week"), at a comma or "and"
    /// that a new instruction follows ("Email Dr. Okafor and submit it"). A comma that does not
    /// start one joins the clause when what follows is short, a list item ("Buy milk, eggs"),
    /// and ends it when it is a remark of its own ("Book it today, slots go fast").
    static func clauses(_ sentence: String) -> [String] {
        var clauses: [String] = []
        for piece in split(sentence, at: [" — ", " – ", " -- ", " - ", ": "]) {
            var current: [String] = []
            for part in split(piece, at: [", "]) {
                if current.isEmpty || startsInstruction(part) {
                    current.append(part)
                } else if isListItem(part) {
                    current[current.count - 1] += ", " + part
                } else {
                    current.append(part)
                }
            }
            for clause in current { clauses += splitAtConjunctions(clause) }
        }
        return clauses
    }

    /// "eggs", "eggs and bread": what follows a comma in a list, not a remark ("slots go fast").
    private static func isListItem(_ part: String) -> Bool {
        let words = part.lowercased().split(separator: " ")
        return words.count <= 2 || words.count <= 4 && words.contains { ["and", "or", "et", "ou", "y", "o"].contains($0) }
    }

    private static let conjunctions = ["and then", "and", "then", "y", "et", "&"]

    /// "Redo the sets and review eigenvalues" is two instructions; "Bring popcorn and the projector" one.
    private static func splitAtConjunctions(_ clause: String) -> [String] {
        let words = clause.split(separator: " ", omittingEmptySubsequences: true)
        var result: [[Substring]] = [[]]
        var index = 0
        while index < words.count {
            let word = words[index].lowercased()
            let conjunction = index + 1 < words.count && word == "and" && words[index + 1].lowercased() == "then" ? 2 : (conjunctions.contains(word) ? 1 : 0)
            if conjunction > 0, !result[result.count - 1].isEmpty, index + conjunction < words.count,
               startsInstruction(String(words[index + conjunction])) {
                result.append([])
                index += conjunction
                continue
            }
            result[result.count - 1].append(words[index])
            index += 1
        }
        return result.filter { !$0.isEmpty }.map { $0.joined(separator: " ") }
    }

    private static func startsInstruction(_ text: String) -> Bool {
        let lower = text.trimmingWhitespace().lowercased()
        if leadIns.contains(where: { lower.hasPrefix($0) }) { return true }
        return actionVerbs.contains(lower.split(whereSeparator: { !$0.isLetter && $0 != "-" }).first.map(String.init) ?? "")
    }

    private static func split(_ text: String, at separators: [String]) -> [String] {
        var pieces = [text]
        for separator in separators {
            pieces = pieces.flatMap { $0.split(separator: separator).map(String.init) }
        }
        return pieces.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
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

    /// One says all the other says (a checklist item also found as a sentence). Sharing half
    /// the words is not enough: "Read Piranesi" and "Read The Overstory" are two tasks.
    static func sameTask(_ a: String, _ b: String) -> Bool {
        let first = contentWords(a), second = contentWords(b)
        return a.lowercased() == b.lowercased() || (!first.isEmpty && !second.isEmpty && (first.isSubset(of: second) || second.isSubset(of: first)))
    }
}
