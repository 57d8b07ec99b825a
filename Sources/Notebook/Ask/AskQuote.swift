// A second look for `notes ask` when the model declined with notes in view: the small reader
// says "Your notes do not say." with the answer in the first note shown ("My driving test is on
// 22 February at 10:15"), or names the note instead of saying what it says. Code asks of each
// note shown, alone, whether it answers the question, then of that note's sentences which do,
// and the answer is the note's own sentence: a span of a retrieved note by construction.
import AI
import Notes

struct AskQuote: Sendable {
    /// The log-odds of "yes" over "no" to "Does this note answer the question?" for a note (its
    /// title and the text shown of it), read off the first token (`LanguageModelSession.yesOdds`).
    let odds: @Sendable (_ question: String, _ title: String, _ text: String) async throws -> Double

    /// A session of its own on `model`, reused for every note and sentence (its instructions,
    /// the checker's, stay in the cache).
    static func asking(_ model: LanguageModel) -> AskQuote {
        let session = LanguageModelSession(model: model, instructions: AskCheck.instructions, contextSize: AskCheck.contextSize)
        return AskQuote { question, title, text in try await session.yesOdds(after: prompt(question: question, title: title, text: text)) }
    }

    /// The notes looked at, in the order the tools showed them: the answer the model missed was
    /// in the first or second of them on the bench's tuned part.
    static let notesLooked = 4
    /// A long note's sentences looked at: those of what the search showed of it.
    static let sentencesLooked = 8
    /// How far "yes" must lead for a note (and for a sentence beside the likeliest one): of the
    /// tuned part's declines, the notes that answer scored 0.23 to 1.74, the closest notes of
    /// questions no note answers at most 0.43 (one evaluation of the 1.5B reader each).
    static let leaning = 0.5

    static func prompt(question: String, title: String, text: String) -> String {
        "Notes:\n" + AskText.quoted(title) + ": " + text + "\n\nQuestion: " + question + "\nDoes this note answer the question? Reply yes or no."
    }

    struct Found: Equatable, Sendable {
        var note: Note
        /// The note's sentences that answer, in its order, as it writes them.
        var text: String
    }

    /// The note among `notes` that answers `question` and the sentences of it that do, or nil
    /// when "yes" leads by less than `leaning` for every note.
    func answer(_ question: String, from notes: [Note]) async throws -> Found? {
        var best: (note: Note, shown: String, odds: Double)?
        for note in notes.prefix(Self.notesLooked) {
            let shown = AskText.excerpt(Self.text(of: note), matching: question, characters: AskCheck.noteCharacters)
            let odds = try await self.odds(question, note.title, shown)
            if odds > (best?.odds ?? Self.leaning) { best = (note, shown, odds) }
        }
        guard let best else { return nil }
        let sentences = Array(Self.sentences(best.shown).prefix(Self.sentencesLooked))
        guard sentences.count > 1 else { return Found(note: best.note, text: Self.cut(sentences.first ?? best.shown)) }
        var scores: [Double] = []
        for sentence in sentences { scores.append(try await odds(question, best.note.title, sentence)) }
        let likeliest = scores.indices.max { scores[$0] < scores[$1] } ?? 0
        let kept = sentences.indices.filter { $0 == likeliest || scores[$0] > Self.leaning }
        return Found(note: best.note, text: Self.cut(kept.map { sentences[$0] }.joined(separator: " ")))
    }

    /// The note's text after its title line, when it has one and more follows: the title is
    /// shown beside it, and an answer does not begin with it.
    static func text(of note: Note) -> String {
        let lines = note.body.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard lines.count == 2, lines[0].trimmingWhitespace() == note.title,
              lines[1].contains(where: { $0.isLetter || $0.isNumber }) else { return note.body }
        return String(lines[1])
    }

    /// The whole sentences of what a search shows of a note (`AskText.excerpt`): its parts
    /// between "…", each cut into sentences. A part the excerpt cut short ends at the "…" with
    /// no space before it: its last sentence is left out, unless it is all there is.
    static func sentences(_ shown: String) -> [String] {
        let parts = shown.components(separatedBy: "…")
        var sentences: [String] = []
        for (index, part) in parts.enumerated() {
            var its = AskText.sentences(part).filter { $0.contains { $0.isLetter || $0.isNumber } }
            if index < parts.count - 1, part.last?.isWhitespace == false { its = its.dropLast() }
            sentences += its
        }
        return sentences.isEmpty ? AskText.sentences(shown) : sentences
    }

    static func cut(_ text: String) -> String {
        text.count > NotebookQuestions.maximumAnswerCharacters ? String(text.prefix(NotebookQuestions.maximumAnswerCharacters - 1)) + "…" : text
    }
}
