// analysis-eval: runs NoteAnalyzer over the labelled devset and writes predictions in the format
// bench/analysis/score.py reads. Usage: analysis-eval DEVSET.jsonl OUT.jsonl [--limit N] [--rules-only]
// --rules-only skips the model: the category from tags and keywords (a backlog's quick stage),
// tasks and urgency (their rules are plain code), in seconds, for working on those rules; the
// summary is left empty and scores as a miss.
// --corrections FILE (dev-set lines, newest first) are the user's category corrections.
// --category-scores adds each note's calibrated category scores ("scores") to its line, and with
// the vote, the nearest labelled notes' vote ("votes") and the note's vector ("vector").
// The bundled examples nearest in meaning vote for the category as in the product, through the
// multilingual embedding model set-up installs (NOTES_DEPS); --no-votes leaves them out.
// NOTES_READER_MODEL names the model that reads tasks and summaries (else the default reader,
// `NoteReader.model(environment:)`; `none` for the rules alone); --rule-tasks all adds every task
// the rules find to the reader's. --batch N reads N notes at a time (default 1: one
// after the other), a finished note's place taken by the next; --copies drafts from the note
// (prompt-lookup decoding), which the product leaves off, so by default the figures are the product's.
import AI
import Analysis
import Foundation
import Notes
import Synchronization

struct DevNote: Decodable {
    let id: String
    let created: String
    let today: String
    let text: String
    /// The label, read only from a --corrections file.
    let category: String?
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: analysis-eval DEVSET.jsonl OUT.jsonl [--limit N] [--rules-only]\n".utf8))
    exit(64)
}
let limit = arguments.firstIndex(of: "--limit").flatMap { Int(arguments[$0 + 1]) } ?? .max
let lines = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").prefix(limit)
let notes = try lines.map { try JSONDecoder().decode(DevNote.self, from: Data($0.utf8)) }

let rulesOnly = arguments.contains("--rules-only")
let environment = ProcessInfo.processInfo.environment
let ruleTasks = arguments.firstIndex(of: "--rule-tasks").flatMap { NoteAnalyzer.RuleTasks(rawValue: arguments[$0 + 1]) } ?? .checklists
let batch = max(1, arguments.firstIndex(of: "--batch").flatMap { Int(arguments[$0 + 1]) } ?? 1)
let copies = arguments.contains("--copies")
let deps = environment["NOTES_DEPS"] ?? "/opt/notes-deps"
let embedder = MultilingualEmbeddingModel(path: deps + "/e5/" + MultilingualEmbeddingModel.installedName)
let firstPart: CategoryNeighbours.Embed = { texts in try embedder.embed(documents: texts.map(CategoryNeighbours.firstPart(of:))).map { $0.first ?? [] } }
if !arguments.contains("--no-votes"), case let .unavailable(reason) = embedder.availability {
    FileHandle.standardError.write(Data("the vote needs the embedding model: \(reason) (or pass --no-votes)\n".utf8))
    exit(1)
}
// --corrections FILE: notes in the dev set's form whose labelled category the user set (the first
// line the newest), as `notes set --category` makes them: examples in the scorer's prompt and voters.
let corrections: [CategoryCorrection] = try arguments.firstIndex(of: "--corrections").map { index in
    try String(contentsOfFile: arguments[index + 1], encoding: .utf8).split(separator: "\n").map { line -> CategoryCorrection in
        let dev = try JSONDecoder().decode(DevNote.self, from: Data(line.utf8))
        let note = try NoteInput.makeNote(text: dev.text, title: nil, extraTags: [], at: Timestamp(iso8601: dev.created)!)
        return CategoryCorrection(text: NoteText.fullText(title: note.title, body: note.body), category: Category(rawValue: dev.category ?? "") ?? .other)
    }
} ?? []
let neighbours = arguments.contains("--no-votes") ? nil : CategoryNeighbours(modelVersion: embedder.version, corrections: corrections, embed: firstPart)
let analyzer = NoteAnalyzer(model: NoteAnalyzer.model(environment: environment),
                            reader: NoteReader.model(environment: environment).map { NoteReader(model: $0, batchSize: batch, copies: copies) },
                            corrections: corrections.map { ($0.text, $0.category) },
                            neighbours: neighbours, ruleTasks: ruleTasks)
if !rulesOnly, let reason = analyzer.unavailableReason() {
    FileHandle.standardError.write(Data("model unavailable: \(reason)\n".utf8))
    exit(1)
}

func milliseconds() -> Double { Date().timeIntervalSince1970 * 1000 }

let prewarmStart = milliseconds()
if !rulesOnly { try await analyzer.prewarm() }
FileHandle.standardError.write(Data("prewarm: \(Int(milliseconds() - prewarmStart)) ms\n".utf8))

guard FileManager.default.createFile(atPath: arguments[2], contents: nil), let output = FileHandle(forWritingAtPath: arguments[2]) else {
    FileHandle.standardError.write(Data("cannot write \(arguments[2])\n".utf8))
    exit(1)
}
// The bundled examples' vectors beside the notes' (OUT.examples.jsonl), to study the vote.
if arguments.contains("--category-scores"), let neighbours {
    let lines = try zip(CategoryNeighbours.examples, firstPart(CategoryNeighbours.examples.map(\.text))).map { example, vector in
        String(decoding: try JSONSerialization.data(withJSONObject: ["category": example.category.rawValue, "vector": vector] as [String: Any]), as: UTF8.self)
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: arguments[2] + ".examples.jsonl", atomically: true, encoding: .utf8)
}
let runStart = milliseconds()
var done = 0
let made = try notes.map { dev in
    let created = Timestamp(iso8601: dev.created)!
    var generator = SeededGenerator(text: dev.id)
    return try NoteInput.makeNote(text: dev.text, title: nil, extraTags: [], at: created,
                                  id: NoteID(milliseconds: created.milliseconds, using: &generator))
}
// --batch N: every note through one run of the analyzer, N at a time (a finished note's place
// taken by the next), each judged by its own day; the run's time is shared among its notes.
var batched: [NoteID: Result<Analysis, any Error>]?
var batchMilliseconds = 0.0
if batch > 1, !rulesOnly {
    let queue = Mutex((next: 0, results: [NoteID: Result<Analysis, any Error>]()))
    let items = Array(zip(made, notes.map { Timestamp(iso8601: $0.today)! }))
    let start = milliseconds()
    await analyzer.analyze(pulling: {
        queue.withLock { state in
            guard state.next < items.count else { return nil }
            state.next += 1
            return items[state.next - 1]
        }
    }, done: { note, result in
        queue.withLock { $0.results[note.id] = result }
        FileHandle.standardError.write(Data("\r\(queue.withLock { $0.results.count })/\(items.count)".utf8))
    })
    batchMilliseconds = (milliseconds() - start) / Double(max(1, made.count))
    batched = queue.withLock { $0.results }
}
for (dev, note) in zip(notes, made) {
    let start = milliseconds()
    let usageBefore = analyzer.reader?.usage
    var record: [String: Any] = ["id": dev.id]
    do {
        let today = Timestamp(iso8601: dev.today)!
        let analysis: Analysis
        var readerCategory: Category?
        if let batched {
            guard let result = batched[note.id] else { throw GenerationDecodingError("no result from the batch") }
            analysis = try result.get()
        } else {
            (analysis, readerCategory) = rulesOnly ? (NoteAnalyzer.rules(note, today: today), nil) : try await analyzer.analyzeExplained(note, today: today)
        }
        record["category"] = analysis.category.rawValue
        record["urgency"] = analysis.urgency
        record["tasks"] = analysis.tasks.map { ["text": $0.text, "due": $0.due ?? NSNull()] as [String: Any] }
        record["stage"] = analysis.stage.rawValue
        record["summary"] = analysis.summary
        record["valid"] = true
        if arguments.contains("--category-scores") {
            record["scores"] = Dictionary(uniqueKeysWithValues: try await analyzer.categoryScores(note).map { ($0.key.rawValue, $0.value) })
            record["reader_category"] = readerCategory?.rawValue ?? NSNull()
            record["tagged"] = NoteAnalyzer.taggedCategory(note)?.rawValue ?? NSNull()
            if let votes = analyzer.categoryVotes(note) {
                record["votes"] = Dictionary(uniqueKeysWithValues: votes.map { ($0.key.rawValue, $0.value) })
                record["vector"] = try firstPart([NoteText.fullText(title: note.title, body: note.body)]).first
            }
        }
    } catch {
        record["valid"] = false
        record["error"] = "\(error)"
    }
    record["ms"] = batched == nil ? milliseconds() - start : batchMilliseconds
    // The reader's tokens for this note: the prompt it evaluated and the answer.
    if let before = usageBefore, let after = analyzer.reader?.usage, after.notes > before.notes {
        record["reader_tokens"] = ["prompt": after.promptTokens - before.promptTokens, "reused": after.reusedTokens - before.reusedTokens,
                                   "sampled": after.sampledTokens - before.sampledTokens,
                                   "fast_forwarded": after.fastForwardedTokens - before.fastForwardedTokens,
                                   "drafted": after.draftedTokens - before.draftedTokens,
                                   "generation_ms": (after.generationSeconds - before.generationSeconds) * 1000]
    }
    // One line at a time: an interrupted run keeps what it did.
    output.write(try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) + Data("\n".utf8))
    done += 1
    if batched == nil { FileHandle.standardError.write(Data("\r\(done)/\(notes.count)".utf8)) }
}
FileHandle.standardError.write(Data("\nnotes per minute: \(String(format: "%.2f", Double(done) * 60_000 / (milliseconds() - runStart)))\n".utf8))
try output.close()
