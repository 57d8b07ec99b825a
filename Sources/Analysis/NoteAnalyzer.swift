// Note analysis on the local model: a category, an urgency, tasks and a summary for each note.
import AI
import Notes
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the model generates for a note, in this property order: the category and urgency come
/// first so that the tasks and summary are written knowing them.
struct GeneratedAnalysis: Generable, Sendable, Equatable {
    var category: Category
    var urgency: Int
    var tasks: [String]
    var summary: String

    static let maximumTasks = 6
    static let maximumSummaryWords = 30

    static let generationSchema = GenerationSchema.object("NoteAnalysis", properties: [
        .init("category", .string(anyOf: Category.allCases.map(\.rawValue))),
        .init("urgency", .integer(Analysis.urgencyRange)),
        .init("tasks", .array(of: .string(minLength: 1, maxLength: maximumTaskCharacters), maximumCount: maximumTasks)),
        // About 30 words; the word limit itself is applied after generation.
        .init("summary", .string(minLength: 1, maxLength: maximumSummaryCharacters)),
    ])

    static let maximumTaskCharacters = 80
    static let maximumSummaryCharacters = 200
    /// Enough tokens for the longest output the schema allows (a token is at least one byte),
    /// so that generation always completes: a small model caught in a loop fills a string to
    /// its length limit and then must close it.
    static let maximumResponseTokens = maximumTasks * (maximumTaskCharacters + 4) + maximumSummaryCharacters + 80

    /// The schema of one note's answer once its category is chosen and, when the note names a
    /// deadline, its urgency computed: those values are fixed (and fast-forwarded, costing no
    /// sampling), so the model writes the summary knowing them. It writes no tasks: on the dev
    /// set, its tasks that survived the grounding check were all already found in the note's
    /// checklist and instructions (task F1 52.8% with and without them), and writing them took
    /// a sixth of each note's time (bench/analysis/RESULTS.md).
    static func schema(category: Category, urgency: ClosedRange<Int>) -> GenerationSchema {
        .object("NoteAnalysis", properties: [
            .init("category", .string(anyOf: [category.rawValue])),
            .init("urgency", .integer(urgency)),
            .init("tasks", .array(of: .string(minLength: 1, maxLength: maximumTaskCharacters), maximumCount: 0)),
            .init("summary", .string(minLength: 1, maxLength: maximumSummaryCharacters)),
        ])
    }

    init(category: Category, urgency: Int, tasks: [String], summary: String) {
        self.category = category
        self.urgency = urgency
        self.tasks = tasks
        self.summary = summary
    }

    /// The analysis as the JSON the generator would have written, for the live display.
    var generatedContent: GeneratedContent {
        GeneratedContent(kind: .structure(properties: [
            "category": GeneratedContent(kind: .string(category.rawValue)),
            "urgency": GeneratedContent(kind: .number(String(urgency))),
            "tasks": GeneratedContent(kind: .array(tasks.map { GeneratedContent(kind: .string($0)) })),
            "summary": GeneratedContent(kind: .string(summary)),
        ], orderedKeys: ["category", "urgency", "tasks", "summary"]))
    }

    init(_ content: GeneratedContent) throws(GenerationDecodingError) {
        let name = try content.value(String.self, forProperty: "category")
        guard let category = Category(rawValue: name) else { throw GenerationDecodingError("unknown category \(name)") }
        self.init(category: category, urgency: try content.value(Int.self, forProperty: "urgency"),
                  tasks: try content.value([String].self, forProperty: "tasks"),
                  summary: try content.value(String.self, forProperty: "summary"))
    }
}

/// Analyses notes with one session whose instructions (and few-shot examples) are prewarmed
/// once; each note then costs only its own tokens.
public final class NoteAnalyzer: NoteAnalyzing {
    public let model: LanguageModel
    private let session: LanguageModelSession
    private let categories: CategoryScorer

    /// Long notes: the model sees the first `maximumNoteBytes` bytes of UTF-8 (a note's point is
    /// nearly always at its start; bytes bound the token count, characters do not), then a line
    /// saying the rest was cut. Checklist items from the whole note are still added as tasks
    /// (see `tasks(in:)`).
    static let maximumNoteBytes = 2_000
    static let promptPrefix = "Created: "

    /// The model named by the environment, with a context that holds the instructions (about
    /// 700 tokens), a note cut to `maximumNoteBytes` and the longest response the schema allows.
    public static func model(environment: [String: String]) -> LanguageModel {
        var configuration = ModelConfiguration.fromEnvironment(environment)
        configuration.contextSize = 3_072
        return LanguageModel(configuration: configuration)
    }

    /// How many of the user's corrections the category reads as examples.
    public static var maximumCorrections: Int { CategoryScorer.maximumCorrections }

    /// Where a summary comes from.
    public enum Summaries: String, Sendable, CaseIterable {
        /// The note's own opening sentences, at most 30 words (`extract(from:)`). The default:
        /// the bundled 270M model cannot summarise; on the dev set's longer notes it copied an
        /// example's summary, looped ("I'm tired. I'm tired.") or wrote digits, and the few
        /// summaries kept were sentences of the note (bench/analysis/RESULTS.md).
        case note
        /// Guided generation for notes longer than 30 words, kept when it is about the note
        /// (else the note's opening): for a model that can summarise (`NOTES_SUMMARIES=model`).
        case model

        /// `NOTES_SUMMARIES`: `note` (or unset) or `model`; nil for anything else.
        public static func fromEnvironment(_ environment: [String: String]) -> Summaries? {
            guard let value = Settings(environment)[.summaries] else { return .note }
            return Summaries(rawValue: value.lowercased())
        }
    }

    public let summaries: Summaries

    /// `corrections`: notes whose category the user set by hand, newest first
    /// (`NoteStore.categoryCorrections`); they become examples in the category scorer's prompt
    /// when there is no vote (`neighbours` nil; with it, they vote there instead). They do not
    /// change `analyzerVersion`: a correction does not make every note pending again.
    /// Reads tasks and summaries from the note (`NoteReader`); nil leaves them to the rules.
    public let reader: NoteReader?

    /// Where a full analysis's tasks come from besides the reader: the note's checklist items
    /// alone (the default), or every task the rules find (`tasks(in:)`).
    public enum RuleTasks: String, Sendable { case checklists, all }
    let ruleTasks: RuleTasks

    /// The nearest labelled notes by meaning, which vote for the category (nil: no vote, as
    /// without an embedding model).
    public let neighbours: CategoryNeighbours?

    public init(model: LanguageModel, reader: NoteReader? = nil, corrections: [(text: String, category: Category)] = [],
                neighbours: CategoryNeighbours? = nil, summaries: Summaries = .note, ruleTasks: RuleTasks = .checklists) {
        self.model = model
        self.reader = reader
        self.neighbours = neighbours
        self.ruleTasks = ruleTasks
        self.summaries = summaries
        // Its context is made on first use: with summaries from the note, never.
        session = LanguageModelSession(model: model, instructions: NoteAnalyzer.instructions)
        // With the vote, the corrections are heard there. In the scorer's prompt they cost 11
        // points of category accuracy on the dev notes (69.0 to 58.0%, 20 corrections of notes
        // it had got wrong; bench/analysis/RESULTS.md): the 270M model copies their labels.
        categories = CategoryScorer(model: model, corrections: neighbours == nil ? corrections : [])
    }

    /// The same model (loaded once) and summaries, with other corrections as examples and
    /// neighbours.
    public func with(corrections: [(text: String, category: Category)], neighbours: CategoryNeighbours?) -> NoteAnalyzer {
        NoteAnalyzer(model: model, reader: reader, corrections: corrections, neighbours: neighbours, summaries: summaries, ruleTasks: ruleTasks)
    }

    /// Bumped when the analysis changes in a way the prompts do not show (deadline rules).
    static let rulesVersion = "5"

    /// Changes when the model file, the prompt or the schema changes.
    public var analyzerVersion: String {
        NoteAnalyzer.name(of: model) + "@" + NoteAnalyzer.identity(of: model) + "/" + NoteAnalyzer.fingerprint + (summaries == .model ? "/generated" : "")
            + (reader.map { "+" + NoteAnalyzer.name(of: $0.model) + "@" + NoteAnalyzer.identity(of: $0.model)
                + "/" + NoteAnalyzer.readerFingerprint + (ruleTasks == .all ? "/rules" : "") } ?? "")
            + (neighbours.map { "+votes:" + $0.identity } ?? "")
    }

    /// The file's size stands for its identity: cheap (no load), and it differs between models.
    static func identity(of model: LanguageModel) -> String {
        FileSystem.identity(of: model.configuration.modelPath).map { String($0.size) } ?? "missing"
    }

    static let readerFingerprint = String(ContentHash.of([NoteReader.instructions, NoteReading.generationSchema.jsonSchema.jsonString,
                                                           String(NoteReader.maximumNoteBytes), rulesVersion].joined(separator: "\u{0}")).prefix(8))

    /// The prompts, schema and rules, hashed once: they are fixed for the life of the process,
    /// and `analyzerVersion` is read for every note.
    static let fingerprint = String(ContentHash.of([instructions, GeneratedAnalysis.generationSchema.jsonSchema.jsonString,
                                                     String(maximumNoteBytes), CategoryScorer.examples, CategoryScorer.keywordsText,
                                                     rulesVersion].joined(separator: "\u{0}")).prefix(8))

    /// The model file's name (through symbolic links), stored with each analysis for display.
    var modelName: String {
        NoteAnalyzer.name(of: model) + (reader.map { " + " + NoteAnalyzer.name(of: $0.model) } ?? "")
    }

    static func name(of model: LanguageModel) -> String {
        String(FileSystem.realPath(model.configuration.modelPath).split(separator: "/").last ?? "model")
    }

    public func unavailableReason() -> String? {
        if case let .unavailable(reason) = model.availability { return reason }
        if let reader, case let .unavailable(reason) = reader.model.availability { return "the reading model: " + reason }
        return nil
    }

    public func prewarm() async throws {
        try await reader?.prewarm()
        if summaries == .model {
            try await session.prewarm(promptPrefix: NoteAnalyzer.promptPrefix, schema: GeneratedAnalysis.generationSchema, includeSchemaInPrompt: false)
        }
        try await categories.prewarm()
    }

    /// The category by likelihood (`CategoryScorer`), the urgency from the deadline the note
    /// names (`Deadlines`), tasks from the note (`tasks(in:)`; with no deadline they
    /// settle whether the urgency is 1, nothing to do, or 2), then the summary (`Summaries`).
    /// Even when the model may summarise, a note short enough to be its own summary
    /// (`ownSummary(of:)`) is not given to it: most notes are, and generating a summary is most
    /// of the time an analysis takes.
    public func analyze(_ note: Note, today: Timestamp, partial: (@Sendable (String) -> Void)?) async throws -> Analysis {
        try await analyzeExplained(note, today: today, partial: partial).analysis
    }

    /// The analysis, with the category the reader chose on its own (nil without a reader), for
    /// the evaluation's study of how the category's voices add up.
    public func analyzeExplained(_ note: Note, today: Timestamp, partial: (@Sendable (String) -> Void)? = nil) async throws
        -> (analysis: Analysis, readerCategory: Category?) {
        if let reader {
            let reading = try await reader.read(note, summary: NoteAnalyzer.ownSummary(of: note.body) == nil)
            let analysis = try await analysis(of: note, reading: reading, today: today)
            partial?(GeneratedAnalysis(category: analysis.category, urgency: analysis.urgency, tasks: analysis.tasks.map(\.text),
                                       summary: analysis.summary).generatedContent.jsonString)
            return (analysis, reading.category)
        }
        let category = try await category(of: note)
        let (reading, tasks, urgency) = NoteAnalyzer.plan(note, today: today)
        let summary: String
        if let own = NoteAnalyzer.ownSummary(of: note.body) ?? (summaries == .note ? NoteAnalyzer.extract(from: note.body) : nil) {
            summary = own
            partial?(GeneratedAnalysis(category: category, urgency: urgency, tasks: tasks, summary: summary).generatedContent.jsonString)
        } else {
            let generated = try await generate(note, today: today, category: category, urgency: reading.isPressing || reading.daysLeft != nil ? urgency : nil, partial: partial)
            summary = NoteAnalyzer.summary(model: generated.summary, body: note.body)
        }
        return (Analysis(category: category, urgency: urgency, tasks: tasks.map { TaskItem(text: $0) }, summary: summary,
                         model: modelName, analyzedAt: today, analyzerVersion: analyzerVersion, contentHash: note.contentHash), nil)
    }

    public var readsNotes: Bool { reader != nil }

    /// The reader's batch: several pending notes are read together.
    public var batchSize: Int { reader?.batchSize ?? 1 }

    /// Notes read by the reader several at once as `next` gives them
    /// (`NoteReader.read(pulling:done:)`), each then analysed as `analyze(_:today:partial:)`
    /// does; with no reader, or one that reads one note at a time, one after the other.
    public func analyze(pulling next: @escaping @Sendable () async -> (note: Note, today: Timestamp)?,
                        done: @escaping @Sendable (Note, Result<Analysis, any Error>) async -> Void) async {
        guard let reader, reader.batchSize > 1 else { return await analyzeOneByOne(pulling: next, done: done) }
        // The notes given and not yet done, with their day.
        let open = Mutex<[NoteID: (note: Note, today: Timestamp)]>([:])
        do {
            try await reader.read(pulling: {
                guard let item = await next() else { return nil }
                open.withLock { $0[item.note.id] = item }
                return (item.note, NoteAnalyzer.ownSummary(of: item.note.body) == nil)
            }) { note, reading in
                guard let today = open.withLock({ $0.removeValue(forKey: note.id)?.today }) else { return }
                let result: Result<Analysis, any Error>
                do { result = .success(try await self.analysis(of: note, reading: reading.get(), today: today)) } catch { result = .failure(error) }
                await done(note, result)
            }
        } catch {
            for item in open.withLock({ $0.values.sorted { $0.note.id.rawValue < $1.note.id.rawValue } }) { await done(item.note, .failure(error)) }
        }
    }

    /// The full analysis from what the reader wrote: the category by likelihood with the
    /// reader's vote, the checklist and the reader's grounded tasks, the urgency from them.
    private func analysis(of note: Note, reading: NoteReading, today: Timestamp) async throws -> Analysis {
        let category = try await category(of: note, reader: reading.category)
        let rules = ruleTasks == .all ? NoteAnalyzer.tasks(in: note.body) : NoteAnalyzer.checklistItems(in: note.body)
        let tasks = NoteAnalyzer.tasks(checklist: rules, read: reading.tasks, note: note)
        let pressing = NoteAnalyzer.isPressing(note, today: today)
        let summary = NoteAnalyzer.ownSummary(of: note.body) ?? NoteAnalyzer.summary(read: reading.summary, note: note)
        return Analysis(category: category, urgency: NoteAnalyzer.urgency(tasks: tasks, pressing: pressing, today: today),
                        tasks: tasks, summary: summary, model: modelName, analyzedAt: today,
                        analyzerVersion: analyzerVersion, contentHash: note.contentHash, stage: .full)
    }

    /// The category (the scorer's, or without the model the keywords'), the rules' tasks with
    /// their due days, the urgency from them, the note's opening as summary.
    public func quickAnalysis(_ note: Note, today: Timestamp, usingModel: Bool) async throws -> Analysis {
        try await quickAnalysis(note, today: today, usingModel: usingModel, inBacklog: false)
    }

    /// In a backlog without the model, no vote: embedding each note would take a thousand
    /// notes' quick stage from seconds to minutes, and their full analyses vote anyway.
    public func quickAnalysis(_ note: Note, today: Timestamp, usingModel: Bool, inBacklog: Bool) async throws -> Analysis {
        let category = usingModel ? try await category(of: note) : inBacklog ? NoteAnalyzer.ruleCategory(note) : ruleCategory(note)
        return quickAnalysis(note, today: today, category: category)
    }

    /// The quick stage without the model (no generation, at most an embedding).
    public func quickAnalysisWithoutModel(_ note: Note, today: Timestamp) -> Analysis {
        quickAnalysis(note, today: today, category: ruleCategory(note))
    }

    private func quickAnalysis(_ note: Note, today: Timestamp, category: Category) -> Analysis {
        let tasks = NoteAnalyzer.tasks(checklist: NoteAnalyzer.tasks(in: note.body), read: [], note: note)
        let pressing = NoteAnalyzer.isPressing(note, today: today)
        return Analysis(category: category, urgency: NoteAnalyzer.urgency(tasks: tasks, pressing: pressing, today: today), tasks: tasks,
                        summary: NoteAnalyzer.extract(from: note.body), model: modelName, analyzedAt: today,
                        analyzerVersion: analyzerVersion, contentHash: note.contentHash, stage: .quick)
    }

    /// "Urgent", "asap", "emergency" anywhere in the note.
    static func isPressing(_ note: Note, today: Timestamp) -> Bool {
        Deadlines.read(note.body, created: note.created.milliseconds.floorDays, today: today.milliseconds.floorDays).isPressing
    }

    /// A tag naming a category, else the scorer's; the reader's choice (`reader`) is added to
    /// the scorer's as one keyword more (`CategoryScorer.keywordWeight`): on the dev sample the
    /// two are each right for 70% of notes, but not the same ones, and together for 75%. The
    /// nearest labelled notes' vote (`neighbours`) is added with its own weight.
    private func category(of note: Note, reader: Category? = nil) async throws -> Category {
        if let tagged = NoteAnalyzer.taggedCategory(note) { return tagged }
        let text = NoteText.fullText(title: note.title, body: note.body)
        var scores = try await categories.scores(of: text)
        if let reader, let index = Category.allCases.firstIndex(of: reader) { scores[index] += CategoryScorer.keywordWeight }
        return CategoryScorer.best(NoteAnalyzer.adding(votes(for: text), to: scores))
    }

    /// The neighbours' vote for the text, or nil without neighbours or when the text cannot be
    /// embedded now (the category is then the model's and the keywords' alone).
    func votes(for text: String) -> [Double]? {
        try? neighbours?.votes(for: text)
    }

    static func adding(_ votes: [Double]?, to scores: [Double]) -> [Double] {
        guard let votes else { return scores }
        return zip(scores, votes).map { $0 + CategoryNeighbours.weight * $1 }
    }

    /// Without the model: a tag naming a category, else the keywords' and the neighbours' vote
    /// (`other` with neither).
    func ruleCategory(_ note: Note) -> Category {
        if let tagged = NoteAnalyzer.taggedCategory(note) { return tagged }
        let text = NoteText.fullText(title: note.title, body: note.body)
        guard let votes = votes(for: text) else { return CategoryScorer.keywordCategory(of: text) }
        return CategoryScorer.best(NoteAnalyzer.adding(votes, to: CategoryScorer.keywordScores(in: text)))
    }

    /// What plain rules find in a note, with no model: its deadline, tasks and urgency.
    static func plan(_ note: Note, today: Timestamp) -> (reading: DeadlineReading, tasks: [String], urgency: Int) {
        let reading = Deadlines.read(note.body, created: note.created.milliseconds / 86_400_000, today: today.milliseconds / 86_400_000)
        let tasks = NoteAnalyzer.tasks(in: note.body)
        return (reading, tasks, Deadlines.urgency(reading, hasTasks: !tasks.isEmpty))
    }

    /// A tag naming a category, else the one with the most keywords in the note (`other` with
    /// none): the category without any model.
    static func ruleCategory(_ note: Note) -> Category {
        taggedCategory(note) ?? CategoryScorer.keywordCategory(of: NoteText.fullText(title: note.title, body: note.body))
    }

    /// What the rules alone give, without any model (no summary): the category from tags and
    /// keywords, as a backlog's quick stage has it, the tasks and the urgency; for evaluating
    /// those rules quickly (`analysis-eval --rules-only`).
    public static func rules(_ note: Note, today: Timestamp) -> Analysis {
        let (_, tasks, urgency) = plan(note, today: today)
        return Analysis(category: ruleCategory(note), urgency: urgency, tasks: tasks.map { TaskItem(text: $0) }, summary: "",
                        model: "rules", analyzedAt: today, analyzerVersion: "rules", contentHash: note.contentHash)
    }

    /// How strongly the scorer holds each category for this note (calibrated log-probabilities
    /// and keywords, higher is likelier), for the evaluation's study of its mistakes.
    public func categoryScores(_ note: Note) async throws -> [Category: Double] {
        let scores = try await categories.scores(of: NoteText.fullText(title: note.title, body: note.body))
        return Dictionary(uniqueKeysWithValues: zip(Category.allCases, scores))
    }

    /// The nearest labelled notes' vote for this note, or nil without neighbours, for the
    /// evaluation's study of the vote.
    public func categoryVotes(_ note: Note) -> [Category: Double]? {
        votes(for: NoteText.fullText(title: note.title, body: note.body)).map { Dictionary(uniqueKeysWithValues: zip(Category.allCases, $0)) }
    }

    /// Guided generation of the summary, with the category and (when the note names a deadline)
    /// the urgency fixed in the schema, so that it is written knowing them.
    private func generate(_ note: Note, today: Timestamp, category: Category, urgency: Int?, partial: (@Sendable (String) -> Void)?) async throws -> GeneratedAnalysis {
        let schema = GeneratedAnalysis.schema(category: category, urgency: urgency.map { $0...$0 } ?? 1...2)
        let prompt = NoteAnalyzer.prompt(for: note, today: today)
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: GeneratedAnalysis.maximumResponseTokens)
        guard let partial else {
            return try GeneratedAnalysis(try await session.respond(to: prompt, schema: schema, includeSchemaInPrompt: false, options: options).content)
        }
        var last: ResponseSnapshot?
        for try await snapshot in session.streamResponse(to: prompt, schema: schema, includeSchemaInPrompt: false, options: options) {
            partial(snapshot.rawContent)
            last = snapshot
        }
        guard let final = last?.content, last?.isComplete == true else { throw GenerationError.decodingFailure("the model produced nothing") }
        return try GeneratedAnalysis(final)
    }

    /// A note of at most 30 words (its #tags and Markdown marks aside) already says what a
    /// summary would, in the user's own words: it is its own summary, on one line. A 270M
    /// model's summary of such a note adds nothing and sometimes adds what is false ("bill
    /// paid" for a bill still to pay). Nil for longer notes, and for a note with no words.
    static func ownSummary(of body: String) -> String? {
        let total = body.split(whereSeparator: \.isWhitespace).filter { !isTag($0) && $0.contains(where: { $0.isLetter || $0.isNumber }) }.count
        let text = extract(from: body)
        guard !text.isEmpty, total > 0, total <= GeneratedAnalysis.maximumSummaryWords else { return nil }
        return text
    }

    /// The summary taken from the note: its opening (`opening(of:)`) without its #tags, which are
    /// shown beside it already; with the tags when there is nothing else.
    static func extract(from body: String) -> String {
        let opening = opening(of: body)
        let untagged = withoutTags(opening)
        return untagged.isEmpty ? opening : untagged
    }

    static func withoutTags(_ text: String) -> String {
        text.split(separator: " ").filter { !isTag($0) }.joined(separator: " ")
    }

    static func isTag(_ word: Substring) -> Bool { word.hasPrefix("#") && word.count > 1 }

    /// A tag that names one category (#work) is the user's own word for it.
    public static func taggedCategory(_ note: Note) -> Category? {
        let named = Set(note.tags.compactMap { Category(rawValue: $0.lowercased()) })
        return named.count == 1 ? named.first : nil
    }

    /// The user message: the dates the model needs for relative deadlines, then the note.
    static func prompt(for note: Note, today: Timestamp) -> String {
        let text = NoteReader.cut(NoteText.fullText(title: note.title, body: note.body), toBytes: maximumNoteBytes)
        return promptPrefix + note.created.day + "\nToday: " + today.day + "\nNote:\n" + text
    }

    /// Checked `- [x]` items: done, so never a task, however the reader reads them.
    static func doneItems(in body: String) -> [String] {
        body.split(whereSeparator: \.isNewline).compactMap { Checklist.item($0) }.filter(\.done).map(\.text)
    }

    /// Unchecked `- [ ]` / `* [ ]` items and `TODO:` lines, in order, as the user wrote them.
    static func checklistItems(in body: String) -> [String] {
        var items: [String] = []
        for line in body.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace()
            if let box = Checklist.item(trimmed), !box.done { items.append(box.text) }
            if let range = trimmed.firstRange(of: "TODO:") ?? trimmed.firstRange(of: "TODO ") {
                let item = String(trimmed[range.upperBound...]).trimmingWhitespace()
                if !item.isEmpty { items.append(item) }
            }
        }
        return items.filter { !$0.isEmpty }
    }

    /// The model's summary, cut where it starts to loop and at 30 words; when it is not about
    /// this note (a small model sometimes repeats an example or the instructions: most of its
    /// words are not the note's), the note's own opening words instead.
    static func summary(model: String, body: String) -> String {
        let generated = summaryText(model: model, body: body)
        return generated.isEmpty ? extract(from: body) : withoutTags(generated)
    }

    /// `summary` before the note's #tags are taken out (they are shown beside it already).
    private static func summaryText(model: String, body: String) -> String {
        let generated = limitWords(withoutRepetition(model), to: GeneratedAnalysis.maximumSummaryWords)
        let words = TaskText.contentWords(generated)
        // An echo of the prompt's own lines ("Today: 2026-11-12. Note: ...") is not a summary either.
        let echoesPrompt = ["Created:", "Today:", "Note:"].contains { generated.contains($0) && !body.contains($0) }
        if !words.isEmpty, !stutters(generated), !echoesPrompt, words.intersection(TaskText.contentWords(body)).count * 2 >= words.count {
            return generated
        }
        return ""
    }

    /// A run of up to 10 characters repeated 4 times in a row ("1.1.1.1.", "abcabcabcabc"): the
    /// model looped inside a word, where `withoutRepetition` sees no repeated words.
    static func stutters(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        for period in 1...10 where bytes.count >= period * 4 {
            var run = 0
            for index in period..<bytes.count {
                run = bytes[index] == bytes[index - period] ? run + 1 : 0
                if run >= period * 3 && !(period == 1 && bytes[index] == UInt8(ascii: ".")) { return true }
            }
        }
        return false
    }

    /// The first sentences of the note, up to 30 words, its lines joined with ";", without
    /// Markdown marks, checkboxes or code blocks. A longer opening ends at the last sentence
    /// that fits when that keeps at least half the words, else after 30 words with "…".
    static func opening(of body: String) -> String {
        let limit = GeneratedAnalysis.maximumSummaryWords
        var words: [Substring] = []
        var inCode = false
        for line in body.split(whereSeparator: \.isNewline) {
            var text = line.trimmingWhitespace()
            if text.hasPrefix("```") || text.hasPrefix("~~~") {
                inCode.toggle()
                continue
            }
            if inCode { continue }
            while let first = text.first, "-*•+>#".contains(first) || first == " " { text.removeFirst() }
            for box in ["[ ]", "[x]", "[X]"] where text.hasPrefix(box) { text = String(text.dropFirst(box.count)).trimmingWhitespace() }
            if text.isEmpty { continue }
            words += text.split(whereSeparator: \.isWhitespace)
            if words.count > limit { break }
            if let last = words.last?.last, !".!?:;".contains(last) { words[words.count - 1] += ";" }
        }
        guard words.count > limit else { return trimmedEnd(words.joined(separator: " ")) }
        let kept = words.prefix(limit)
        if let end = kept.lastIndex(where: { [".", "!", "?", ";"].contains($0.last) }), end + 1 >= limit / 2 {
            return trimmedEnd(kept[...end].joined(separator: " "))
        }
        return trimmedEnd(kept.joined(separator: " ")) + "…"
    }

    private static func trimmedEnd(_ text: String) -> String { text.droppingTrailing(";:,") }

    /// A small model sometimes loops ("dental care about dental care about ..."): the text is
    /// cut where a run of three words starts to repeat, keeping its first occurrence.
    static func withoutRepetition(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        var seen = Set<String>()
        for start in 0..<max(0, words.count - 2) {
            let trigram = words[start..<start + 3].map { $0.lowercased() }.joined(separator: " ")
            if !seen.insert(trigram).inserted {
                return words[..<start].joined(separator: " ").droppingTrailing(",;:")
            }
        }
        return text
    }

    static func limitWords(_ text: String, to limit: Int) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count > limit else { return text.trimmingWhitespace() }
        return words.prefix(limit).joined(separator: " ")
    }
}

extension String {
    /// Without the given characters at its end ("Book it today." less ".").
    func droppingTrailing(_ characters: String) -> String {
        var text = self
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return text
    }
}

/// Words of tasks and summaries, for comparing them with each other and with the note.
enum TaskText {
    static let stopWords: Set<String> = ["a", "an", "the", "to", "of", "and", "or", "for", "in", "on", "at", "by", "with", "my", "your", "it", "is", "be"]

    static func contentWords(_ text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { !stopWords.contains($0) })
    }
}
