// The NoteAnalyzing contract (Notes/NoteAnalyzing.swift), checked on every analyzer behind the
// port: NoteAnalyzer on the default model, and the FakeAnalyzer that the queue's, the daemon's
// and `notes analyze`'s tests trust to behave as the real one does.
@testable import AI
import Analysis
import Foundation
import NotebookTestSupport
import Notes
import Synchronization
import TestSupport
import Testing

enum AnalyzerKind: String, CaseIterable, CustomTestStringConvertible {
    case model, fake
    var testDescription: String { rawValue }

    /// One model for every test, loaded once; one thread, as the other model tests.
    static let shared = NoteAnalyzer(model: LanguageModel(configuration: ModelConfiguration(modelPath: DefaultModelFile.path,
                                                                                          contextSize: 3_072, threads: 1)))

    /// The kinds this machine can check: the real analyzer only with the default model installed.
    static var available: [AnalyzerKind] { allCases.filter { $0 != .model || DefaultModelFile.isPresent } }

    func make() -> any NoteAnalyzing {
        switch self {
        case .model: Self.shared
        case .fake: FakeAnalyzer()
        }
    }
}

@Suite(.serialized) struct NoteAnalyzingContractTests {
    static let today = Timestamp(iso8601: "2026-11-25T08:00:00Z")!

    static func note(_ text: String) throws -> Note {
        try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: today)
    }

    static let notes = ["Pay the electricity bill by Friday, it is 84 euros.",
                        "Ραντεβού με τον οδοντίατρο την Πέμπτη στις 9:30, να πάρω τις ακτινογραφίες.",
                        "- [ ] buy milk\n- [ ] call mum"]

    /// What every result must be, whatever made it: of this note's text, dated, within range.
    func check(_ analysis: Analysis, of note: Note, by analyzer: any NoteAnalyzing, stage: AnalysisStage) {
        #expect(analysis.stage == stage)
        #expect(analysis.contentHash == note.contentHash)
        #expect(analysis.analyzerVersion == analyzer.analyzerVersion)
        #expect(analysis.analyzedAt == Self.today)
        #expect(Analysis.urgencyRange.contains(analysis.urgency))
        #expect(!analysis.summary.isEmpty)
        for task in analysis.tasks {
            #expect(!task.text.isEmpty)
            if let due = task.due { #expect(due.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "\(due)") }
        }
    }

    @Test(arguments: AnalyzerKind.available)
    func itIsAvailableAndNamesItsVersion(_ kind: AnalyzerKind) {
        let analyzer = kind.make()
        #expect(analyzer.unavailableReason() == nil)
        #expect(!analyzer.analyzerVersion.isEmpty)
        #expect(analyzer.batchSize >= 1)
    }

    @Test(arguments: AnalyzerKind.available)
    func theQuickStageWithoutAModelIsAQuickAnalysisOfTheNote(_ kind: AnalyzerKind) async throws {
        let analyzer = kind.make()
        for text in Self.notes {
            let note = try Self.note(text)
            check(try await analyzer.quickAnalysis(note, today: Self.today, usingModel: false), of: note, by: analyzer, stage: .quick)
        }
    }

    @Test(arguments: AnalyzerKind.available)
    func theFullStageReadsTheNote(_ kind: AnalyzerKind) async throws {
        let analyzer = kind.make()
        let note = try Self.note(Self.notes[0])
        check(try await analyzer.analyze(note, today: Self.today, partial: nil), of: note, by: analyzer,
              stage: .full)
    }

    /// Every note the batch was handed gets exactly one result, and each result is of its note.
    @Test(arguments: AnalyzerKind.available)
    func everyPulledNoteGetsOneResult(_ kind: AnalyzerKind) async throws {
        let analyzer = kind.make()
        let notes = try Self.notes.map(Self.note)
        let queue = Mutex(notes)
        let results = Mutex<[(Note, Result<Analysis, any Error>)]>([])
        await analyzer.analyze(pulling: { queue.withLock { $0.isEmpty ? nil : (note: $0.removeFirst(), today: Self.today) } },
                               done: { note, result in results.withLock { $0.append((note, result)) } })
        let got = results.withLock { $0 }
        #expect(got.map(\.0.id).sorted() == notes.map(\.id).sorted())
        for (note, result) in got {
            check(try result.get(), of: note, by: analyzer, stage: .full)
        }
    }
}
