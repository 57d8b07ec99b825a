// ai-bench: decoding speed, guided generation of a four-field object, prewarm and memory, on the
// default model (or NOTES_MODEL). Prints `key value` lines; bench/ai/run.sh sets them beside the
// peer's (llama-cpp-python) from the same run.
import AI
import Notes
import Glibc

func readFile(_ path: String) -> String {
    guard let file = fopen(path, "r") else { fatalError("cannot read \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func report(_ key: String, _ value: Double) { print(key, (value * 1000).rounded() / 1000) }

func residentMegabytes() -> Double {
    let text = readFile("/proc/self/statm").split(separator: " ")
    return Double(Int(text[1])! * Int(sysconf(Int32(_SC_PAGESIZE)))) / 1_048_576
}

let arguments = CommandLine.arguments
let directory = arguments.count > 1 ? arguments[1] : "bench/ai"
let cold = arguments.contains("--cold")
let prompts = try GeneratedContent(json: readFile("\(directory)/prompts.json"))
let instructions: String = try prompts.value(forProperty: "instructions")
let notes: [String] = try prompts.value(forProperty: "notes")
let story: String = try prompts.value(forProperty: "story")

let schema = GenerationSchema.object("NoteAnalysis", properties: [
    .init("category", .string(anyOf: ["work", "personal", "study", "health", "finance", "other"])),
    .init("urgency", .integer(1...5)),
    .init("tasks", .array(of: .string(maxLength: 60), maximumCount: 3)),
    .init("summary", .string(maxLength: 100)),
])

var configuration = ModelConfiguration.fromEnvironment()
configuration.threads = ProcessEnvironment.current["NOTES_BENCH_THREADS"].flatMap { Int($0) } ?? 2
configuration.prefixCacheDirectory = ProcessEnvironment.current["NOTES_AI_BENCH_CACHE"] ?? "/tmp/notes-ai-bench-cache"
let clock = ContinuousClock()
let loadStart = clock.now
let model = LanguageModel(configuration: configuration)
guard model.availability.isAvailable else { fatalError("model: \(model.availability)") }
let info = model.info()
report(cold ? "cold_model_load_s" : "model_load_s", seconds(clock.now - loadStart))
let greedy = GenerationOptions(maximumResponseTokens: 256)

if arguments.contains("--guided-overhead") {
    // Guided decoding's cost per token: the same story prompt answered as free text and as one
    // free JSON string, alternately, ROUNDS times; tokens per second of sampled tokens only
    // (fast-forwarded ones are free), over the same generation budget.
    let rounds = ProcessEnvironment.current["ROUNDS"].flatMap { Int($0) } ?? 3
    let text = GenerationSchema.object("Story", properties: [.init("story", .string(minLength: 1, maxLength: 400))])
    let options = GenerationOptions(maximumResponseTokens: 160)
    // Room for the longest string the schema allows: the guided answer always completes.
    let guidedOptions = GenerationOptions(maximumResponseTokens: 420)
    let session = LanguageModelSession(model: model)
    _ = try await session.respond(to: "Say hello.", options: GenerationOptions(maximumResponseTokens: 8))
    var ratios: [Double] = []
    for round in 1...rounds {
        let free = try await session.respond(to: story, options: options).statistics
        let guided = try await session.respond(to: story, schema: text, includeSchemaInPrompt: false, options: guidedOptions).statistics
        let freeRate = Double(free.sampledTokens) / seconds(free.generationDuration)
        let guidedRate = Double(guided.sampledTokens) / seconds(guided.generationDuration)
        print("round \(round): unconstrained \(free.sampledTokens) tokens \((freeRate * 10).rounded() / 10) tok/s, guided \(guided.sampledTokens) sampled "
              + "\((guidedRate * 10).rounded() / 10) tok/s (masked steps \(guided.maskedSteps))")
        ratios.append(guidedRate / freeRate)
    }
    report("vocabulary", Double(info.vocabularySize ?? 0))
    report("guided_over_unconstrained_median", ratios.sorted()[ratios.count / 2])
    exit(0)
}

if cold {
    // A new process: the prefix comes from the file the warm run saved.
    let session = LanguageModelSession(model: model, instructions: instructions)
    let start = clock.now
    let outcome = try await session.prewarm(schema: schema)
    let restored = clock.now
    let response = try await session.respond(to: notes[0], schema: schema, options: greedy)
    let wasRestored: Bool = if case .restored = outcome { true } else { false }
    report("cold_prefix_restored", wasRestored ? 1 : 0)
    print("stats", response.statistics)
    report("cold_restore_s", seconds(restored - start))
    report("cold_first_request_s", seconds(clock.now - restored))
    report("cold_restore_plus_request_s", seconds(clock.now - start))
    let again = clock.now
    let second = try await session.respond(to: notes[0], schema: schema, options: greedy)
    report("cold_second_request_s", seconds(clock.now - again))
    print("stats", second.statistics)
    report("rss_mb_cold", residentMegabytes())
    exit(0)
}

// The exact system text of the guided requests, for the peer to use the same prompt.
if let file = fopen("\(ProcessEnvironment.current["NOTES_BENCH_OUT"] ?? "\(directory)/out")/system.txt", "w") {
    let system = "\(instructions)\n\nRespond with JSON that matches this JSON schema:\n\(schema.jsonSchema.jsonString)"
    fputs(system, file)
    fclose(file)
}

// 1. Unconstrained greedy decoding (text), the speed reference.
do {
    let session = LanguageModelSession(model: model)
    _ = try await session.respond(to: "Say hello.", options: GenerationOptions(maximumResponseTokens: 8))
    let response = try await session.respond(to: story, options: GenerationOptions(maximumResponseTokens: 128))
    report("unconstrained_tokens", Double(response.statistics.responseTokens))
    report("unconstrained_tok_s", response.statistics.tokensPerSecond)
}

// 2. Guided generation of the four-field object, end to end, on every note.
var valid = 0
var guidedTokens = 0
var sampledTokens = 0
var guidedSeconds = 0.0
var endToEnd: [Double] = []
do {
    let session = LanguageModelSession(model: model, instructions: instructions)
    for note in notes {
        let start = clock.now
        do {
            let response = try await session.respond(to: note, schema: schema, options: greedy)
            endToEnd.append(seconds(clock.now - start))
            try schema.validate(response.content)
            valid += 1
            guidedTokens += response.statistics.responseTokens
            sampledTokens += response.statistics.sampledTokens
            guidedSeconds += seconds(response.statistics.generationDuration)
            print("output", response.rawContent)
            print("stats", response.statistics)
        } catch {
            endToEnd.append(seconds(clock.now - start))
            print("invalid", error)
        }
    }
}
report("guided_tok_s", Double(guidedTokens) / guidedSeconds)
report("guided_sampled_share", Double(sampledTokens) / Double(guidedTokens))
report("json_valid_percent", Double(valid) * 100 / Double(notes.count))
report("json_mean_request_s", endToEnd.reduce(0, +) / Double(endToEnd.count))
report("json_total_s", endToEnd.reduce(0, +))

// 3. Prewarm: the first request after prewarm against the same request in steady state (the
// session has answered before, so only the note differs from what is in the cache). Three
// fresh sessions; medians.
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
var prewarmTimes: [Double] = []
var firstTimes: [Double] = []
var steadyTimes: [Double] = []
for round in 0..<3 {
    let session = LanguageModelSession(model: model, instructions: instructions)
    let start = clock.now
    _ = try await session.prewarm(schema: schema)
    prewarmTimes.append(seconds(clock.now - start))
    let note = notes[round]
    for attempt in 0..<3 {
        let requestStart = clock.now
        let response = try await session.respond(to: attempt == 1 ? notes[round + 3] : note, schema: schema, options: greedy)
        let elapsed = seconds(clock.now - requestStart)
        print("stats", response.statistics)
        if attempt == 0 { firstTimes.append(elapsed) } else if attempt == 2 { steadyTimes.append(elapsed) }
    }
}
// The first prewarm evaluates and saves the prefix; the next two restore that file.
report("prewarm_evaluate_s", prewarmTimes[0])
report("prewarm_restore_s", median(Array(prewarmTimes.dropFirst())))
report("first_after_prewarm_s", median(firstTimes))
report("steady_same_note_s", median(steadyTimes))
report("first_after_prewarm_ratio", median(firstTimes) / median(steadyTimes))
report("rss_mb", residentMegabytes())
print("model_params", info.parameters ?? 0)
