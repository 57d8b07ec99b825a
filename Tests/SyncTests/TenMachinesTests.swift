// Many machines, one path remote, clocks that disagree by days: seeded random adds, edits,
// deletes and syncs in random order converge to one notebook that lost no edit, and where the
// merge has to choose between two versions it keeps the one stamped later by causality.
import Foundation
import Notes
import TestSupport
import Testing
@testable import Sync

private let day: Int64 = 86_400_000

/// A machine's clock: the real time plus its own error.
private struct MachineClock {
    var offset: Int64
    func now(_ real: Int64) -> Timestamp { Timestamp(milliseconds: real + offset) }
}

/// An edit as `notes edit` makes it (NoteRules' edit clause, stamped by `NoteRules.editTime`).
private func edit(_ note: Note, body: String, at time: Timestamp) throws -> Note {
    try NoteRules.note(id: note.id, body: body, title: nil, tags: [], created: note.created, updated: time,
                       fallbackTime: note.created, origin: .edited(previous: note, untagging: []))
}

private func typed(_ body: String, at time: Timestamp, using generator: inout SeededGenerator) throws -> Note {
    try NoteRules.note(id: NoteID(milliseconds: time.milliseconds, using: &generator), body: body, title: nil, tags: [],
                       created: time, updated: time, fallbackTime: time, origin: .typed)
}

@Suite(.serialized)
struct ManyMachines {
    /// The case that wall-clock stamps got wrong. A machine whose clock is days ahead edits a
    /// note; one whose clock is days behind receives that edit and edits the same line again;
    /// a third, right, machine had edited that line too without seeing either. The merge has to
    /// choose: the behind machine's edit, made on the ahead one's (which would itself have won),
    /// is shown first, and the third machine's text is kept as a conflict copy.
    @Test func anEditFromAClockDaysBehindIsStillAfterTheVersionItEdited() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let ahead = try Replica("ahead", in: directory, remote: remote)
        let behind = try Replica("behind", in: directory, remote: remote)
        let right = try Replica("right", in: directory, remote: remote)
        let real: Int64 = 1_800_000_000_000
        var generator = SeededGenerator(seed: 3420)
        let note = try typed("groceries: milk\nbread", at: Timestamp(milliseconds: real), using: &generator)
        right.notebook.put(note)
        try right.sync()
        try ahead.sync()
        try behind.sync()

        let onRight = try edit(note, body: "groceries: oat milk\nbread", at: Timestamp(milliseconds: real + 60_000))
        right.notebook.put(onRight)
        let onAhead = try edit(note, body: "groceries: milk, eggs\nbread", at: Timestamp(milliseconds: real + 120_000 + 3 * day))
        ahead.notebook.put(onAhead)
        try ahead.sync()
        try behind.sync()
        let onBehind = try edit(behind.notebook.notes[note.id]!, body: "groceries: milk, eggs, butter\nbread",
                                at: Timestamp(milliseconds: real + 180_000 - 3 * day))
        #expect(onBehind.updated > onAhead.updated)
        behind.notebook.put(onBehind)
        try behind.sync()
        try right.sync()
        try ahead.sync()
        try behind.sync()

        for machine in [ahead, behind, right] {
            #expect(machine.notebook.notes[note.id]?.body == onBehind.body, "\(machine.name)")
            let conflicts = try machine.engine.conflicts()
            #expect(conflicts.map(\.id) == [note.id])
            #expect(conflicts.first?.copy?.body == onRight.body)
        }
    }

    /// Ten machines, two of them with clocks days ahead and behind, 300 seeded steps.
    @Test func tenMachinesWithSkewedClocksConvergeAndLoseNoEdit() throws {
        let directory = TemporaryDirectory()
        let remote = try makeBareRemote(in: directory)
        let machines = try (0..<10).map { try Replica("m\($0)", in: directory, remote: remote) }
        var clocks = (0..<10).map { _ in MachineClock(offset: 0) }
        clocks[3].offset = 4 * day
        clocks[7].offset = -5 * day
        var random = SeededGenerator(seed: 3430)
        var generator = SeededGenerator(seed: 3431)
        var real: Int64 = 1_800_000_000_000
        let options = SyncOptions(allowDeletes: true)

        // What each machine knows, as the steps it has seen (the remote's: what was pushed).
        var knows = Array(repeating: Set<Int>(), count: 10), remoteKnows = Set<Int>()
        enum Kind { case add, rewrite, append, delete }
        /// One change: its note, its text's token, and the steps its machine had seen.
        struct Step { var kind: Kind; var note: NoteID; var token: String; var knew: Set<Int> }
        var steps: [Step] = []
        var created: [NoteID] = []
        var conflictsMet = 0

        for number in 0..<300 {
            real += Int64.random(in: 1_000...120_000, using: &random)
            let index = Int.random(in: 0..<10, using: &random)
            let machine = machines[index]
            let time = clocks[index].now(real)
            let token = String(format: "t%04d", number)
            let live = created.filter { machine.notebook.notes[$0] != nil }
            var step: Step?
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2:
                let summary = try machine.engine.sync(remote: "origin", options: options)
                conflictsMet += summary.conflicted
                knows[index].formUnion(remoteKnows)
                remoteKnows = knows[index]
            case 3 where !live.isEmpty:
                let id = live.randomElement(using: &random)!
                machine.notebook.delete(id, at: time)
                step = Step(kind: .delete, note: id, token: token, knew: knows[index])
            case 4...6 where !live.isEmpty:
                // Rewrite the first line: concurrent rewrites conflict, and the old line goes.
                let note = machine.notebook.notes[live.randomElement(using: &random)!]!
                let lines = note.body.split(separator: "\n", omittingEmptySubsequences: false)
                let edited = try edit(note, body: ([token + " rewritten"] + lines.dropFirst()).joined(separator: "\n"), at: time)
                #expect(edited.updated > note.updated)
                machine.notebook.put(edited)
                step = Step(kind: .rewrite, note: note.id, token: token, knew: knows[index])
            case 7...8 where !live.isEmpty:
                let note = machine.notebook.notes[live.randomElement(using: &random)!]!
                let edited = try edit(note, body: note.body + "\n" + token + " appended", at: time)
                #expect(edited.updated > note.updated)
                machine.notebook.put(edited)
                step = Step(kind: .append, note: note.id, token: token, knew: knows[index])
            default:
                let note = try typed(token + " new\nbody", at: time, using: &generator)
                machine.notebook.put(note)
                created.append(note.id)
                step = Step(kind: .add, note: note.id, token: token, knew: knows[index])
            }
            if let step {
                knows[index].insert(steps.count)
                steps.append(step)
            }
        }
        // Two rounds: the first gathers every machine's work on the remote, the second gives it to all.
        for _ in 0..<2 {
            for machine in machines { conflictsMet += try machine.engine.sync(remote: "origin", options: options).conflicted }
        }

        let first = machines[0]
        for machine in machines.dropFirst() {
            #expect(machine.notebook.notes == first.notebook.notes, "\(machine.name)")
            #expect(Set(machine.notebook.tombstones.keys) == Set(first.notebook.tombstones.keys), "\(machine.name)")
            #expect(try machine.engine.repository.reference(SyncEngine.branch) == first.engine.repository.reference(SyncEngine.branch))
        }
        // No edit lost: its text is in the note or in a conflict copy, unless a step made on top
        // of it (knowing it) deleted the note or, for a first line, rewrote that line. (Appended
        // lines are never rewritten.) A delete that did not know an edit loses to it.
        let texts = first.notebook.notes.values.map(\.body).joined(separator: "\n")
        for (number, step) in steps.enumerated() where step.kind != .delete {
            let firstLine = step.kind != .append
            let replaced = steps.contains {
                $0.note == step.note && $0.knew.contains(number) && ($0.kind == .delete || ($0.kind == .rewrite && firstLine))
            }
            #expect(replaced || texts.contains(step.token + " "), "\(step.token) (\(step.kind)) lost")
        }
        #expect(conflictsMet > 0 && !first.notebook.tombstones.isEmpty, "the seed made no conflict or no delete: it tests less")
    }
}
