// Which notes a count is made of, as the model says of each note shown, one at a time, while
// the count is made.
import AI
import Notes

/// The model asked about each note on its own whether it is about what is counted ("jogging",
/// "blood donations"). Asked to fill in a list of the notes shown, the small model said "yes" to
/// nearly every one (a gym session among three runs, a blood test among blood donations). Asked
/// of one note at a time, in a session that sees only that note, it tells them apart; asked in
/// the conversation, after the notes and the tool calls, its replies were near a coin's toss.
struct AskJudge: Sendable {
    /// For each note (its title and the start of its text), whether the model says it tells of
    /// one of the times `question` counts, `what` being what is counted ("runs").
    let saysYes: @Sendable (_ question: String, _ what: String, _ notes: [(title: String, text: String)]) async throws -> [Bool]

    /// A session of its own on `model`, reused for every note: its instructions stay in the cache.
    /// Each note is asked two ways, and the log-odds of "yes" are summed: "is this note about
    /// runs?" alone said yes to running shoes and a school run; "is it one of the runs the
    /// question counts?" alone leaned to no on every note; summed, they told apart 16 of 16
    /// notes of the bench's tuned count questions (11 and 9 alone). The second way costs only
    /// its own words: the note before them is in the cache.
    static func asking(_ model: LanguageModel) -> AskJudge {
        let session = LanguageModelSession(model: model, instructions: instructions, contextSize: contextSize)
        return AskJudge { question, what, notes in
            var yes: [Bool] = []
            for note in notes {
                var odds = 0.0
                for asked in [aboutIt(what), countedBy(question, what)] {
                    odds += try await session.yesOdds(after: prompt(title: note.title, text: note.text, asked: asked))
                }
                yes.append(odds > 0)
            }
            return yes
        }
    }

    static let instructions = "You tell whether a note is about something. The notes are the user's own: I, my and me are the user. Reply yes or no."
    /// One note's start and the question, with room to spare.
    static let contextSize = 1_024
    /// The start of each note the model is asked about: enough for a short note or a long one's
    /// opening, little to evaluate for each (about a second a note on the 1.5B reader).
    static let noteCharacters = 240

    static func aboutIt(_ what: String) -> String { "Is this note about " + what + "? Reply yes or no." }

    static func countedBy(_ question: String, _ what: String) -> String {
        "Question: " + question + "\nIs this note one of the " + what + " the question counts? Reply yes or no."
    }

    /// The note first, so that each way of asking reuses it from the cache.
    static func prompt(title: String, text: String, asked: String) -> String {
        "Note " + AskText.quoted(title) + ": " + text + "\n\n" + asked
    }

    /// The handles of the notes shown (`notes`) that the model says are of what `question`
    /// counts, in the order given.
    func notes(_ notes: [(handle: String, note: Note)], about what: String, question: String) async throws -> [String] {
        guard !notes.isEmpty else { return [] }
        let yes = try await saysYes(question, what, notes.map { ($0.note.title, AskText.cut($0.note.body, characters: Self.noteCharacters)) })
        return zip(notes, yes).filter(\.1).map(\.0.handle)
    }
}

extension LanguageModelSession {
    /// The log-odds of the reply "yes" over "no" (either spelling of each) to `prompt`: a
    /// verdict read off the first token, never generated, so it costs one evaluation.
    func yesOdds(after prompt: String) async throws -> Double {
        let scores = try await logProbabilities(of: ["yes", "Yes", "no", "No"], after: prompt)
        return max(scores[0], scores[1]) - max(scores[2], scores[3])
    }
}
