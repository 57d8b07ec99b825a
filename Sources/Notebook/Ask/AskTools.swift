// The tools `notes ask` gives the model over the notebook: search, read a note, list tasks. They
// only read. Each note they show gets a short handle (N1, N2, ...) that the model writes to read
// it or cite it; the answer's sources are guided to the handles shown in the same request.
import AI
import Analysis
import Notes
import Storage
import Synchronization

/// The notebook as the tools see it: one store, used by one tool at a time.
final class AskNotebook: Sendable {
    private let search: Mutex<NotebookSearch>
    let now: Timestamp

    init(search: sending NotebookSearch, now: Timestamp) {
        self.search = Mutex(search)
        self.now = now
    }

    func withSearch<T: Sendable>(_ body: (NotebookSearch) throws -> T) throws -> T {
        try search.withLock { try body($0) }
    }

    /// Searches for `query` and shows what it finds in `sources` (each note gets a handle, and
    /// its amounts and days become the tools' to pick), without telling the model: a count needs
    /// every note of what it counts, and the model's own search shows five.
    func show(searchFor query: String, limit: Int, in sources: AskSources) throws {
        let now = now
        let found = try withSearch { search in
            try search.search(query, filter: NoteFilter(limit: limit), now: now).compactMap { try search.note($0.hit.id) }
        }
        for note in found {
            let shown = AskText.cut(note.body, characters: AskLimits.snippetCharacters)
            _ = sources.show(note, text: shown, whole: shown == note.body)
        }
    }

    /// The note a tool showed with `handle`, read again from the store; nil if none was.
    func note(shownAs handle: String, in sources: AskSources) throws -> Note? {
        guard let shown = sources.note(handle) else { return nil }
        return try withSearch { try $0.note(shown.id) }
    }
}

/// The handles of the notes the tools have shown, for the session's life (a follow-up can read
/// a note by the handle it saw before), and which of them were shown in the current request:
/// those are what the answer may cite.
final class AskSources: Sendable {
    struct Shown: Sendable, Equatable {
        var id: NoteID
        var title: String
    }

    private struct State {
        var handles: [NoteID: String] = [:]
        var notes: [String: Shown] = [:]
        var order: [String] = []
        var thisRequest: [String] = []
        var searches: [String] = []
        /// Notes whose whole text the model has seen (a search's uncut start, or a read).
        var wholeShown: Set<String> = []
        /// What the notes shown in this request state as amounts, and what code made of them.
        var amounts: [AskAmount] = []
        /// The calendar days they state, for counting the days to or since one.
        var days: [AskDay] = []
        var results: [AskResult] = []
        /// The titles and texts shown in this request, as shown, and the question.
        var shownText: [String] = []
        var question = ""
        /// The time the question names, which a count is held to.
        var period: AskPeriod?
        /// The language it is asked in, which code's own answers are said in.
        var language = AskLanguage.english
    }

    private let state = Mutex(State())

    /// A request begins: nothing is citable yet, no search made; a total or count is held to
    /// `period`, the time the question names.
    func beginRequest(question: String = "", period: AskPeriod? = nil) {
        state.withLock {
            $0.question = question
            $0.period = period
            $0.language = AskLanguage.of(question)
            $0.thisRequest = []
            $0.searches = []
            $0.amounts = []
            $0.days = []
            $0.results = []
            $0.shownText = []
        }
    }

    /// The note's handle, now citable in this request; `text` is what the model was shown of
    /// it (the amounts and dates it states can be added up and counted to), `whole` whether
    /// that is all of it.
    func show(_ note: Note, text: String, whole: Bool) -> String {
        let handle = show(note.id, title: note.title)
        state.withLock { state in
            state.shownText.append(note.title + "\n" + text)
            if whole { state.wholeShown.insert(handle) }
            for amount in AskAmount.amounts(in: text, handle: handle) where !state.amounts.contains(amount) {
                state.amounts.append(amount)
            }
            for day in Deadlines.calendarDates(in: text, created: note.created.daysSince1970)
            where !state.days.contains(where: { $0.handle == handle && $0.day == day }) {
                state.days.append(AskDay(handle: handle, day: day, shown: note.title + "\n" + text))
            }
        }
        return handle
    }

    /// The note's handle, now citable in this request.
    func show(_ id: NoteID, title: String) -> String {
        state.withLock { state in
            let handle: String
            if let known = state.handles[id] {
                handle = known
            } else {
                handle = "N\(state.order.count + 1)"
                state.handles[id] = handle
                state.notes[handle] = Shown(id: id, title: title)
                state.order.append(handle)
            }
            if !state.thisRequest.contains(handle) { state.thisRequest.append(handle) }
            return handle
        }
    }

    func note(_ handle: String) -> Shown? { state.withLock { $0.notes[handle] } }

    /// The title a handle was shown with, or the handle when none was shown with it.
    func title(_ handle: String) -> String { note(handle)?.title ?? handle }

    /// The handle a note was shown with in this session, if it was.
    func handle(of id: NoteID) -> String? { state.withLock { $0.handles[id] } }

    /// Every note shown in this session, in the order its handle was given.
    var shownInOrder: [NotebookQuestions.Source] {
        state.withLock { state in state.order.compactMap { state.notes[$0] }.map { NotebookQuestions.Source(id: $0.id, title: $0.title) } }
    }

    /// Every handle shown in this session, in the order shown.
    var allHandles: [String] { state.withLock { $0.order } }
    /// The handles shown in this request: the answer's possible sources.
    var citable: [String] { state.withLock { $0.thisRequest } }
    var searches: [String] { state.withLock { $0.searches } }

    func recordSearch(_ query: String) { state.withLock { $0.searches.append(query) } }

    /// Whether `query` is a run of a note's text shown in this request, five words or more word
    /// for word, that the question does not have.
    func copiesShownText(_ query: String) -> Bool {
        let words = AskCheck.allWords(query)
        guard words.count >= 5 else { return false }
        let needle = " " + words.joined(separator: " ") + " "
        let (shown, question) = state.withLock { ($0.shownText, $0.question) }
        // The question's own words are the user's, wherever a note has them too.
        guard !(" " + AskCheck.allWords(question).joined(separator: " ") + " ").contains(needle) else { return false }
        return shown.contains { (" " + AskCheck.allWords($0).joined(separator: " ") + " ").contains(needle) }
    }

    /// Shown handles whose whole text the model has not seen: what `read_note` may read.
    var partlyShown: [String] { state.withLock { state in state.order.filter { !state.wholeShown.contains($0) } } }
    var amounts: [AskAmount] { state.withLock { $0.amounts } }
    var days: [AskDay] { state.withLock { $0.days } }
    /// The totals and counts made in this request, in order.
    var results: [AskResult] { state.withLock { $0.results } }
    func record(_ result: AskResult) { state.withLock { $0.results.append(result) } }
    var period: AskPeriod? { state.withLock { $0.period } }
    var language: AskLanguage { state.withLock { $0.language } }
    /// The question of this request, as asked.
    var question: String { state.withLock { $0.question } }
}

/// How much of a note a tool shows: search results show the start of each note, `read_note`
/// the note up to `readBytes` (a small model's context holds a few of them).
enum AskLimits {
    static let resultsPerSearch = 5
    static let snippetCharacters = 320
    static let readBytes = 3_000
    static let tasksListed = 25
}

struct SearchNotesTool: Tool {
    struct Arguments: Generable {
        var query: String
        static let generationSchema = GenerationSchema.object("SearchNotes", properties: [
            .init("query", description: "a few words to look for", .string(minLength: 1, maxLength: 80)),
        ])
        init(_ content: GeneratedContent) throws(GenerationDecodingError) { query = try content.value(forProperty: "query") }
    }

    let notebook: AskNotebook
    let sources: AskSources
    let name = "search_notes"
    let description = "Searches the user's notes by words and by meaning; returns the best notes, each with its handle (N1, N2...), title, date and text."

    func call(arguments: Arguments) async throws -> String {
        if sources.copiesShownText(arguments.query) {
            // A small model steered by a note copies the note's words as its next search (and
            // then as its answer): a note is data, its words are not the user's question.
            return "That is the text of a note already shown; search with the words of the user's question, or answer."
        }
        if sources.searches.contains(arguments.query) {
            return "You searched for \"\(arguments.query)\" already; use other words, or answer."
        }
        sources.recordSearch(arguments.query)
        let now = notebook.now
        let hits = try notebook.withSearch { search in
            try search.search(arguments.query, filter: NoteFilter(limit: AskLimits.resultsPerSearch), now: now).map(\.hit.id)
        }
        let notes = try hits.compactMap { id in try notebook.withSearch { try $0.note(id) } }
        guard !notes.isEmpty else { return "No note matches \"\(arguments.query)\"." }
        return notes.map { note in
            let snippet = AskText.excerpt(note.body, matching: arguments.query, characters: AskLimits.snippetCharacters)
            let handle = sources.show(note, text: snippet, whole: !snippet.hasSuffix("…"))
            return AskText.heading(handle, note) + ": " + snippet
        }.joined(separator: "\n")
    }
}

struct ReadNoteTool: Tool {
    struct Arguments: ConvertibleFromGeneratedContent {
        var handle: String
        init(_ content: GeneratedContent) throws(GenerationDecodingError) { handle = try content.value(forProperty: "id") }
    }

    let notebook: AskNotebook
    let sources: AskSources
    let name = "read_note"
    let description = "Returns the whole text of one note, by the handle a search or the task list gave it."

    /// Offered while a note shown has more to read than was shown.
    var isOffered: Bool { !sources.partlyShown.isEmpty }

    /// The handles shown so far and not seen whole: a read names a note the model has seen
    /// part of (reading a note shown whole would spend a step on nothing new).
    var parameters: GenerationSchema {
        let handles = sources.partlyShown
        return .object("ReadNote", properties: [
            .init("id", description: "the note's handle, such as N1",
                  handles.isEmpty ? .string(pattern: "N[1-9][0-9]{0,2}") : .string(anyOf: handles)),
        ])
    }

    func call(arguments: Arguments) async throws -> String {
        guard let note = try notebook.note(shownAs: arguments.handle, in: sources) else {
            return "No note \(arguments.handle) has been shown: search first."
        }
        let text = NoteReader.cut(note.body, toBytes: AskLimits.readBytes)
        let handle = sources.show(note, text: text, whole: true)
        return AskText.heading(handle, note) + ":\n" + text
    }
}

struct ListTasksTool: Tool {
    struct Arguments: Generable {
        var about: String
        static let generationSchema = GenerationSchema.object("ListTasks", properties: [
            .init("about", description: "words the task or its note must contain, or \"\" for every open task", .string(maxLength: 40)),
        ])
        init(_ content: GeneratedContent) throws(GenerationDecodingError) { about = try content.value(forProperty: "about") }
    }

    let notebook: AskNotebook
    let sources: AskSources
    let name = "list_tasks"
    let description = "Lists the open tasks found in the notes, soonest due first, each with its due day and its note's handle."

    func call(arguments: Arguments) async throws -> String {
        let words = AskText.words(arguments.about)
        let entries = try notebook.withSearch { try $0.openTasks() }.filter { entry in
            words.isEmpty || !AskText.words(entry.task.text + " " + entry.noteTitle).isDisjoint(with: words)
        }.prefix(AskLimits.tasksListed)
        guard !entries.isEmpty else {
            return (words.isEmpty ? "No open tasks." : "No open task about \"\(arguments.about)\".") + " search_notes finds notes by their text."
        }
        return entries.map { entry in
            let handle = sources.show(entry.noteID, title: entry.noteTitle)
            return "\(handle) \(AskText.quoted(entry.noteTitle)): \(entry.task.text) (due \(entry.task.due ?? "no day given"))"
        }.joined(separator: "\n")
    }
}

extension NotebookSearch {
    func note(_ id: NoteID) throws -> Note? { try store.note(id) }
    func openTasks() throws -> [TaskEntry] { try store.tasks() }
}

/// How the tools write notes for the model.
enum AskText {
    static func heading(_ handle: String, _ note: Note) -> String {
        "\(handle) \(quoted(note.title)) (written \(note.created.day))"
    }

    /// `22 Feb 2027`: a day as code's answers give it in English.
    static func spelledDay(_ time: Timestamp) -> String {
        let (year, month, day) = time.civil
        return "\(day) \(monthAbbreviations[month - 1]) \(year)"
    }

    static let monthAbbreviations = AskPeriod.monthNames.map { String($0.prefix(3)) }

    /// Whether `text` (words joined by single spaces, as `Deadlines.key` gives them) holds one of
    /// `phrases` as whole words.
    static func says(any phrases: [String], _ text: String) -> Bool {
        let padded = " " + text + " "
        return phrases.contains { padded.contains(" " + $0 + " ") }
    }

    static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences("\"", with: "'") + "\"" }

    /// The text's first `characters` characters, on one line.
    static func cut(_ text: String, characters: Int) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > characters ? String(line.prefix(characters)) + "…" : line
    }

    /// What a search shows of a note: all of it when short; else its first sentence and then the
    /// sentences that have most of the query's words (in the note's order), up to `characters`,
    /// ending with "…". The answer to a question about a long meeting note or diary is rarely
    /// in its first lines, and a small model answers from what it is shown rather than read on.
    /// Only the note's first `excerptReach` characters are looked through: a search shows five
    /// notes, and one may be of megabytes.
    static func excerpt(_ text: String, matching query: String, characters: Int) -> String {
        let reach = text.prefix(excerptReach)
        let line = reach.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard line.count > characters else { return line }
        let asked = wordList(query).filter { !AskCheck.isQuestionWord($0) }
        let sentences = sentences(line)
        let scores = sentences.map { sentence in
            let its = wordList(sentence)
            return asked.count { word in its.contains { AskCheck.sameWord(word, $0) } }
        }
        guard sentences.count > 1, let best = scores.max(), best > 0 else { return cut(line, characters: characters) }
        var kept: Set<Int> = [0]
        var length = min(sentences[0].count, characters / 3)
        for index in sentences.indices.sorted(by: { (scores[$0], -$0) > (scores[$1], -$1) }) where scores[index] > 0 && !kept.contains(index) {
            guard length + sentences[index].count + 2 <= characters else { continue }
            kept.insert(index)
            length += sentences[index].count + 2
        }
        var shown = ""
        for index in kept.sorted() {
            let sentence = index == 0 && sentences[0].count > characters / 3 ? String(sentences[0].prefix(characters / 3)) + "…" : sentences[index]
            shown += shown.isEmpty ? sentence : (kept.contains(index - 1) ? " " : " … ") + sentence
        }
        let whole = kept.count == sentences.count && sentences[0].count <= characters / 3 && reach.endIndex == text.endIndex
        return shown + (whole ? "" : " …")
    }

    static let excerptReach = 20_000

    /// The text's sentences: cut after ".", "!", "?" or ";" where a capital follows ("12.–14.
    /// helmikuuta", "3 p.m. on" and "Mr. Okonkwo" stay whole).
    static func sentences(_ text: String) -> [String] {
        let characters = Array(text)
        var sentences: [String] = []
        var start = 0
        for index in characters.indices where ".!?;".contains(characters[index]) {
            let next = index + 1
            guard next + 1 < characters.count, characters[next].isWhitespace, characters[next + 1].isUppercase else { continue }
            // A title's short form ("Mr.", "Dr.", "St.") is a capitalised word of three letters at most.
            let word = characters[start..<index].reversed().prefix { $0.isLetter }
            if characters[index] == ".", (1...3).contains(word.count), word.last?.isUppercase == true { continue }
            sentences.append(String(characters[start...index]))
            start = next + 1
        }
        if start < characters.count { sentences.append(String(characters[start...])) }
        return sentences.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    static func words(_ text: String) -> Set<String> { Set(wordList(text)) }

    /// The text's words of three letters or more, lowercased, in order.
    static func wordList(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.filter { $0.count > 2 }.map(String.init)
    }
}
