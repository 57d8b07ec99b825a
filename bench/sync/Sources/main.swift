// Sync benchmark: the engine beside the git command line doing the equivalent add, commit,
// fetch, merge and push on the same files. One run; prints each figure, git's, and the ratio.
import Foundation
import Notes
import Sync
import TestSupport

@discardableResult
func git(_ arguments: [String], in directory: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = ["-c", "user.name=bench", "-c", "user.email=bench@bench.invalid"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try! process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "git \(arguments.joined(separator: " ")) failed")
    return String(decoding: data, as: UTF8.self)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Runs a sync and prints how long each step took, to see where the time goes.
func timedSync(_ engine: SyncEngine, _ label: String, quiet: Bool = false) throws {
    var marks: [(SyncStep, ContinuousClock.Instant)] = []
    let start = ContinuousClock.now
    _ = try engine.sync(remote: "origin") { marks.append(($0, ContinuousClock.now)) }
    let end = ContinuousClock.now
    var line = "  \(label) steps:"
    for (index, mark) in marks.enumerated() {
        let next = index + 1 < marks.count ? marks[index + 1].1 : end
        line += " \(mark.0.rawValue) \(Int((next - mark.1) / .milliseconds(1))) ms"
    }
    _ = start
    if !quiet { print(line) }
}

func write(_ note: Note, into workTree: String) {
    try! NoteDocument.render(note).write(toFile: workTree + "/notes/\(note.id).md", atomically: false, encoding: .utf8)
}

func report(_ name: String, ours: Double, git: Double) {
    let ratio = ours / git
    print(String(format: "%-44@ notes %7.3f s   git %7.3f s   ratio %.2fx", name as NSString, ours, git, ratio))
}

// sync-bench [NOTES [CHANGED]] [--plain-only]: the notebook's size (10,000), the notes each
// replica changes before its incremental sync (100), and whether to skip the encrypted rounds.
let options = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
let count = options.first.flatMap { Int($0) } ?? 10_000
let changed = options.dropFirst().first.flatMap { Int($0) } ?? 100
let plainOnly = CommandLine.arguments.contains("--plain-only")
let root = NSTemporaryDirectory() + "notes-sync-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }

var random = SeededGenerator(seed: 2026)
var clock: Int64 = 1_800_000_000_000
@MainActor func makeNote(_ index: Int) -> Note {
    clock += 1
    let words = ["dentist", "invoice", "garden", "meeting", "flight", "recipe", "backup", "report"]
    let body = (0..<8).map { line in
        (0..<10).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }.joined(separator: " ") + " \(index).\(line)"
    }.joined(separator: "\n")
    let time = Timestamp(milliseconds: clock)
    return Note(id: NoteID(milliseconds: clock, using: &random), title: "Note \(index)", body: body,
                tags: ["t\(index % 7)"], created: time, updated: time)
}
let notes = (0..<count).map(makeNote)
print("sync benchmark: \(count) notes, then \(changed) changed on each of two replicas")

// 1. First sync to an empty bare remote.
let remote = root + "/remote.git"
git(["init", "-q", "--bare", "-b", "main", remote], in: root)
let a = InMemoryNotebook()
for note in notes { a.put(note) }
let engineA = try SyncEngine(repositoryPath: root + "/a", notebook: a)
try engineA.addRemote(name: "origin", url: remote)
let firstOurs = try seconds { try timedSync(engineA, "first") }

let gitRemote = root + "/git-remote.git"
git(["init", "-q", "--bare", "-b", "main", gitRemote], in: root)
let gitA = root + "/git-a"
git(["init", "-q", "-b", "main", gitA], in: root)
git(["remote", "add", "origin", gitRemote], in: gitA)
try FileManager.default.createDirectory(atPath: gitA + "/notes", withIntermediateDirectories: true)
for note in notes { write(note, into: gitA) }
let firstGit = seconds {
    git(["add", "-A"], in: gitA)
    git(["commit", "-q", "-m", "first"], in: gitA)
    git(["push", "-q", "origin", "main"], in: gitA)
}
report("first sync, \(count) notes to an empty remote", ours: firstOurs, git: firstGit)

// 2. Incremental: a second replica joins (not timed), both change 100 notes, A syncs, then B.
let b = InMemoryNotebook()
let engineB = try SyncEngine(repositoryPath: root + "/b", notebook: b)
try engineB.addRemote(name: "origin", url: remote)
_ = try engineB.sync(remote: "origin")
let gitB = root + "/git-b"
git(["clone", "-q", "-b", "main", gitRemote, gitB], in: root)

@MainActor func edit(_ note: Note, _ tag: String) -> Note {
    var copy = note
    copy.body = "edited on \(tag)\n" + note.body
    clock += 1
    copy.updated = Timestamp(milliseconds: clock)
    return copy
}
let shuffled = notes.shuffled(using: &random)
let onA = shuffled.prefix(changed).map { edit($0, "a") }
let onB = shuffled.dropFirst(changed).prefix(changed).map { edit($0, "b") }
for note in onA { a.put(note); write(note, into: gitA) }
for note in onB { b.put(note); write(note, into: gitB) }

let incrementalA = try seconds { try timedSync(engineA, "A") }
let incrementalB = try seconds { try timedSync(engineB, "B") }
let gitIncrementalA = seconds {
    git(["add", "-A"], in: gitA)
    git(["commit", "-q", "-m", "a"], in: gitA)
    git(["fetch", "-q", "origin"], in: gitA)
    git(["merge", "-q", "--no-edit", "origin/main"], in: gitA)
    git(["push", "-q", "origin", "main"], in: gitA)
}
let gitIncrementalB = seconds {
    git(["add", "-A"], in: gitB)
    git(["commit", "-q", "-m", "b"], in: gitB)
    git(["fetch", "-q", "origin"], in: gitB)
    git(["merge", "-q", "--no-edit", "origin/main"], in: gitB)
    git(["push", "-q", "origin", "main"], in: gitB)
}
report("incremental, replica A (\(changed) changed, push)", ours: incrementalA, git: gitIncrementalA)
report("incremental, replica B (\(changed) changed, merge)", ours: incrementalB, git: gitIncrementalB)
report("incremental, both replicas", ours: incrementalA + incrementalB, git: gitIncrementalA + gitIncrementalB)
precondition(b.notes.count == count && onA.allSatisfy { b.notes[$0.id] == $0 }, "replica B did not converge")

if plainOnly {
    // The top level's `defer` does not run on exit.
    try? FileManager.default.removeItem(atPath: root)
    exit(0)
}

// 3. The same incremental sync through an encrypted remote and a plain one, same run: two
// fresh pairs of replicas with the same 10,000 notes, then rounds of 10 edits on A, synced by
// A (seal and push) and by B (fetch and open), alternating which kind goes first.
let edits = 10
let rounds = 7
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

struct Pair {
    let a = InMemoryNotebook(), b = InMemoryNotebook()
    let engineA: SyncEngine, engineB: SyncEngine
    var pushTimes: [Double] = [], receiveTimes: [Double] = []

    init(_ name: String, encrypted: Bool, notes: [Note], root: String) throws {
        let remote = root + "/\(name).git"
        git(["init", "-q", "--bare", remote], in: root)
        for note in notes { a.put(note) }
        engineA = try SyncEngine(repositoryPath: root + "/\(name)-a", notebook: a)
        engineB = try SyncEngine(repositoryPath: root + "/\(name)-b", notebook: b)
        let passphrase: PassphraseSource = { _ in Array("bench passphrase".utf8) }
        for engine in [engineA, engineB] {
            if encrypted {
                // The production cost (derived once per machine, not timed).
                try engine.addEncryptedRemote(name: "origin", url: remote, cost: .moderate, passphrase: passphrase)
            } else {
                try engine.addRemote(name: "origin", url: remote)
            }
            if engine === engineA { _ = try engine.sync(remote: "origin") }
        }
        _ = try engineB.sync(remote: "origin")
    }

    mutating func round(_ changed: [Note], showSteps: Bool) throws {
        for note in changed { a.put(note) }
        pushTimes.append(try seconds { try timedSync(engineA, "  A", quiet: !showSteps) })
        receiveTimes.append(try seconds { try timedSync(engineB, "  B", quiet: !showSteps) })
        precondition(changed.allSatisfy { b.notes[$0.id] == $0 }, "replica B did not receive the edits")
    }
}

var plainPair: Pair?, sealedPair: Pair?
let firstPlain = try seconds { plainPair = try Pair("plain", encrypted: false, notes: notes, root: root) }
let firstSealed = try seconds { sealedPair = try Pair("sealed", encrypted: true, notes: notes, root: root) }
var plain = plainPair!, sealed = sealedPair!
print("encrypted against plain, \(count) notes, \(rounds) rounds of \(edits) edits (medians):")
print(String(format: "%-44@ encrypted %7.3f s   plain %7.3f s   (Argon2id at the default cost included, twice)",
             "first syncs of both replicas" as NSString, firstSealed, firstPlain))
for round in 0..<rounds {
    let changed = notes.shuffled(using: &random).prefix(edits).map { edit($0, "round \(round)") }
    let last = round == rounds - 1
    if last { print("  last round's steps, \(round % 2 == 0 ? "plain then encrypted" : "encrypted then plain"):") }
    if round % 2 == 0 {
        try plain.round(changed, showSteps: last)
        try sealed.round(changed, showSteps: last)
    } else {
        try sealed.round(changed, showSteps: last)
        try plain.round(changed, showSteps: last)
    }
}
func compare(_ name: String, encrypted: Double, plain: Double) {
    print(String(format: "%-44@ encrypted %7.3f s   plain %7.3f s   ratio %.2fx   (bar <= 1.5x: %@)",
                 name as NSString, encrypted, plain, encrypted / plain, (encrypted / plain <= 1.5 ? "met" : "NOT met") as NSString))
}
compare("\(edits) edits, replica A (seal, push)", encrypted: median(sealed.pushTimes), plain: median(plain.pushTimes))
compare("\(edits) edits, replica B (fetch, open, import)", encrypted: median(sealed.receiveTimes), plain: median(plain.receiveTimes))
compare("\(edits) edits, both replicas", encrypted: median(zip(sealed.pushTimes, sealed.receiveTimes).map(+)),
        plain: median(zip(plain.pushTimes, plain.receiveTimes).map(+)))
let remoteObjects = { (name: String) -> Int in
    git(["count-objects", "-v"], in: root + "/\(name).git").split(separator: "\n")
        .compactMap { line -> Int? in line.hasPrefix("in-pack:") || line.hasPrefix("count:") ? Int(line.split(separator: " ").last ?? "") : nil }
        .reduce(0, +)
}
print("objects in the remote after all rounds: encrypted \(remoteObjects("sealed")), plain \(remoteObjects("plain"))")
