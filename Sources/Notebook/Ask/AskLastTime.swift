// "When did I last work out at the gym?": which notes tell of it is the model's to say, one note
// at a time (`AskJudge`); which of them is the newest is code's, by the day each was written.
import AI
import Notes

struct LastTimeTool: Tool {
    struct Arguments: Generable {
        var what: String
        static let generationSchema = GenerationSchema.object("LastTime", properties: [
            .init("what", description: "what happened, in a few words, without the time (\"gym sessions\", \"blood donations\")",
                  .string(minLength: 1, maxLength: 60)),
        ])
        init(_ content: GeneratedContent) throws(GenerationDecodingError) { what = try content.value(forProperty: "what") }
    }

    let notebook: AskNotebook
    let sources: AskSources
    let judge: AskJudge
    let name = "last_time"
    let description = "Finds when something last happened: say what; returns the notes that tell of it, newest first, with their days."

    /// Called only where code forces it (a question that asks when something last happened),
    /// so the instructions, and every other question's prompt, stay as they were.
    var isListed: Bool { false }
    var isOffered: Bool { !sources.citable.isEmpty && (Self.isAskedFor(in: sources.question) || sources.lastTimeBefore != nil) }

    /// The time before the one the answer before gave: its note, the day it was written and
    /// the question it answered ("When did I last work out at the gym?").
    struct Before: Sendable {
        var id: NoteID
        var day: String
        var question: String
    }

    /// The notes the search for what happened adds, at most.
    static let notesSearched = 10
    /// The notes found of it, newest first, that the output lists: the last time, and the ones
    /// before it, for "and the one before that?".
    static let notesListed = 3
    /// The notes put to the model, newest first, at most (about two seconds each).
    static let notesAsked = 8

    /// Whether `question` asks when something last happened ("when did I last", "when was the
    /// last time", "milloin ... viimeksi", "kiedy ostatnio", "πότε ... τελευταία φορά"), or how
    /// long since ("how many days since I last gave blood?"). "What did I eat the last time we
    /// went out?" asks what, not when; a count ("how many times") or a total is asked for otherwise.
    static func isAskedFor(in question: String) -> Bool {
        guard !CountNotesTool.isAskedFor(in: question), !AddUpTool.isAskedFor(in: question) else { return false }
        let key = Deadlines.key(question)
        return AskText.says(any: lastWords, key) && (AskText.says(any: whenWords, key) || CountDaysTool.isAskedFor(in: question))
    }

    static let lastWords: [String] = [
        "i last", "we last", "the last time", "most recent", "most recently", "viimeksi", "viimeisen kerran", "viime kerran", "ostatnio",
        "ostatni raz", "ostatnim razem", "τελευταία φορά", "τελευταία", "πιο πρόσφατα", "zuletzt", "letzte mal", "dernière fois",
        "última vez", "ultima volta", "laatst", "laatste keer", "senast", "sista gången",
    ].map(Deadlines.key)

    static let whenWords: [String] = [
        "when", "what day", "which day", "what date", "milloin", "kiedy", "πότε", "wann", "quand", "cuándo", "quando", "wanneer", "när",
    ].map(Deadlines.key)

    /// Whether `question` asks for the time before the one just given ("and the one before
    /// that?", "sitä ennen", "a wcześniej?", "και πριν από αυτό;").
    static func asksForTheOneBefore(_ question: String) -> Bool { AskText.says(any: beforeWords, Deadlines.key(question)) }

    static let beforeWords: [String] = [
        "before that", "the one before", "the time before", "previous one", "previous time", "sitä ennen", "edellinen", "edellisellä",
        "wcześniej", "przedtem", "poprzedni", "πριν από αυτό", "πριν από αυτή", "πριν απ αυτό", "προηγούμενη", "προηγούμενο", "davor",
        "avant ça", "avant cela", "antes de eso", "la anterior", "prima di quello", "prima di quella", "daarvoor", "innan dess",
    ].map(Deadlines.key)

    /// The notes shown in this request, written by today (and in the time the question names),
    /// are put to the model newest first, one at a time, until `notesListed` tell of it; code
    /// lists them with their days. The newest is the request's last time (`AskSources.lastTime`):
    /// a count of days since is counted to it.
    func call(arguments: Arguments) async throws -> String {
        let what = AskPeriod.withoutTime(arguments.what)
        try notebook.show(searchFor: what, limit: Self.notesSearched, in: sources)
        // "And the one before that?": before the day of the note the answer before gave.
        let before = sources.lastTimeBefore
        let question = before?.question ?? sources.question
        let today = notebook.now.day
        var written: [(handle: String, note: Note)] = []
        for handle in sources.citable {
            guard let note = try notebook.note(shownAs: handle, in: sources), note.created.day <= today, note.id != before?.id,
                  before.map({ note.created.day < $0.day }) ?? true, sources.period?.contains(note.created.day) ?? true else { continue }
            written.append((handle, note))
        }
        // Newest first; of one day, the order shown.
        let newestFirst = written.enumerated().sorted { ($0.element.note.created.day, -$0.offset) > ($1.element.note.created.day, -$1.offset) }.map(\.element)
        var found: [(handle: String, note: Note)] = []
        var notOfIt: [String] = []
        for candidate in newestFirst.prefix(Self.notesAsked) where found.count < Self.notesListed {
            if try await judge.notes([candidate], about: what, question: question).isEmpty {
                notOfIt.append(candidate.handle + " " + AskText.quoted(candidate.note.title))
            } else {
                found.append(candidate)
            }
        }
        guard let last = found.first else {
            return "No note shown tells of " + what + "." + (notOfIt.isEmpty ? "" : " Not of it: " + notOfIt.joined(separator: ", ") + ".")
        }
        sources.lastTime(last.handle, note: last.note, today: notebook.now.daysSince1970)
        let day = sources.language == .english ? "on " + AskText.spelledDay(last.note.created) : last.note.created.day
        sources.record(AskResult(figure: String(last.note.created.civil.day), statement: day + ": " + AskAmount.trimmed(Substring(last.note.title)) + ".",
                                 handles: [last.handle], askedOfEachNote: true))
        let listed = found.map { "\($0.handle) \(AskText.quoted($0.note.title)) (written \($0.note.created.day))" }
        var output = (before.map { "Before " + $0.day + ", newest first: " } ?? "Newest first: ") + listed.joined(separator: ", ") + "."
        if !notOfIt.isEmpty { output += " Not of it: " + notOfIt.joined(separator: ", ") + "." }
        return output
    }
}
