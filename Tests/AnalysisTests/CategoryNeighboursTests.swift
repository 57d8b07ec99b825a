// The vote of the nearest labelled notes: its arithmetic on vectors made by hand, then with the
// real multilingual-e5-small (set-up installs it) the case the issue was filed for: a musician
// whose band notes are "work" teaches it with five corrections, and a new band note, in English or
// in Greek, is analysed as work without the model.
import Foundation
import Synchronization
import Testing
@testable import AI
@testable import Analysis
import Notes

struct CategoryNeighboursTests {
    static func unit(_ values: [Float]) -> [Float] {
        let length = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return values.map { $0 / length }
    }

    static func labelled(_ values: [Float], _ category: Category, correction: Bool = false) -> LabelledVector {
        LabelledVector(vector: unit(values), category: category, isCorrection: correction)
    }

    func share(_ votes: [Double], _ category: Category) -> Double { votes[Category.allCases.firstIndex(of: category)!] }

    @Test func theNearestLabelledNotesCarryTheVote() {
        let labelled = [Self.labelled([1, 0, 0], .work), Self.labelled([0.99, 0.1, 0], .work),
                        Self.labelled([0, 1, 0], .health), Self.labelled([0, 0, 1], .finance)]
        let votes = CategoryNeighbours.votes(for: Self.unit([1, 0.05, 0]), among: labelled)
        #expect(abs(votes.reduce(0, +) - 1) < 1e-9, "the votes are shares")
        #expect(share(votes, .work) > 0.99, "\(votes)")
        // Between two, the nearer one has the larger share.
        let between = CategoryNeighbours.votes(for: Self.unit([0.6, 0.5, 0]), among: labelled)
        #expect(share(between, .work) > share(between, .health))
        #expect(share(between, .health) > share(between, .finance))
    }

    @Test func aCorrectionCountsForMoreThanABundledExampleAtTheSameDistance() {
        let labelled = [Self.labelled([1, 0.2, 0], .personal), Self.labelled([1, -0.2, 0], .work, correction: true)]
        let votes = CategoryNeighbours.votes(for: Self.unit([1, 0, 0]), among: labelled)
        #expect(abs(share(votes, .work) / share(votes, .personal) - Double(CategoryNeighbours.correctionWeight)) < 1e-3)
    }

    @Test func onlyTheNearestVoteAndVectorsOfAnotherModelNever() {
        // Eight far finance examples cannot outvote one near health example: only `voters` vote,
        // each by its distance from the nearest.
        let labelled = [Self.labelled([1, 0, 0], .health)] + (0..<8).map { Self.labelled([0.9, 0.44 + Float($0) * 0.001, 0], .finance) }
        let votes = CategoryNeighbours.votes(for: Self.unit([1, 0, 0]), among: labelled)
        #expect(share(votes, .health) > 0.9, "\(votes)")
        // A vector of another length (another model's) is not compared: no vote at all.
        #expect(CategoryNeighbours.votes(for: [1, 0], among: labelled) == [Double](repeating: 0, count: Category.allCases.count))
    }

    @Test func aModelThatFailsLeavesTheCategoryToTheKeywords() throws {
        struct Broken: Error {}
        let neighbours = CategoryNeighbours(modelVersion: "broken", corrections: []) { _ in throw Broken() }
        #expect(throws: Broken.self) { try neighbours.votes(for: "anything") }
        let analyzer = NoteAnalyzer(model: LanguageModel(configuration: ModelConfiguration(modelPath: "/nonexistent.gguf")), neighbours: neighbours)
        let note = try NoteInput.makeNote(text: "Pay the electricity bill and the rent", title: nil, extraTags: [], at: Timestamp(milliseconds: 0))
        #expect(analyzer.quickAnalysisWithoutModel(note, today: Timestamp(milliseconds: 0)).category == .finance)
    }

    @Test func theExamplesVectorsAreMadeOnceAndKeptForTheNextProcess() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("neighbours-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let embedded = Mutex<[String]>([])
        // A made-up model: each text's vector from its length, so that the same text gives the same vector.
        let embed: CategoryNeighbours.Embed = { texts in
            embedded.withLock { $0 += texts }
            return texts.map { Self.unit([Float($0.count % 7) + 1, Float($0.count % 5), 1]) }
        }
        let first = CategoryNeighbours(modelVersion: "made-up", corrections: [], cacheDirectory: directory, embed: embed)
        let votes = try first.votes(for: "Pay the rent")
        #expect(embedded.withLock { $0.count } == CategoryNeighbours.examples.count + 1)
        // The next process: only the note and the correction that has no vector are embedded.
        embedded.withLock { $0 = [] }
        let next = CategoryNeighbours(modelVersion: "made-up", corrections: [CategoryCorrection(text: "Gig on Friday", category: .work)],
                                      cacheDirectory: directory, embed: embed)
        _ = try next.votes(for: "Pay the rent")
        #expect(embedded.withLock { $0 } == ["Gig on Friday", "Pay the rent"])
        let again = CategoryNeighbours(modelVersion: "made-up", corrections: [], cacheDirectory: directory, embed: embed)
        #expect(try again.votes(for: "Pay the rent") == votes, "the same vectors come back from the file")
        // Another model's vectors are not read: its own file is made.
        embedded.withLock { $0 = [] }
        _ = try CategoryNeighbours(modelVersion: "another", corrections: [], cacheDirectory: directory, embed: embed).votes(for: "x")
        #expect(embedded.withLock { $0.count } == CategoryNeighbours.examples.count + 1)
        // A damaged file is made again.
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        embedded.withLock { $0 = [] }
        #expect(try CategoryNeighbours(modelVersion: "made-up", corrections: [], cacheDirectory: directory, embed: embed).votes(for: "Pay the rent") == votes)
        #expect(embedded.withLock { $0.count } == CategoryNeighbours.examples.count + 1)
    }

    // MARK: with the real embedding model

    static let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps"
    static let model = MultilingualEmbeddingModel(path: deps + "/e5/" + MultilingualEmbeddingModel.installedName)

    static func neighbours(_ corrections: [CategoryCorrection]) -> CategoryNeighbours {
        CategoryNeighbours(modelVersion: model.version, corrections: corrections) { texts in
            try model.embed(documents: texts).map { $0.first ?? [] }
        }
    }

    static let bandCorrections = [
        "Rehearsal with the band Thursday 8pm, bring the new setlist and spare strings.",
        "Gig at the Blue Note on Saturday: soundcheck at 6, we play two sets.",
        "Send the mix of the new single to the label by Friday.",
        "Band meeting: split the van hire for the tour, book the studio for March.",
        "Practise the bridge of the second song, the drummer wants it slower.",
    ].map { CategoryCorrection(text: $0, category: .work) }

    /// Fourteen corrections about other things, as a real notebook has them.
    static let otherCorrections: [CategoryCorrection] = [
        ("Dentist on Tuesday at 10, ask about the crown.", Category.health), ("Run 5 km three times a week.", .health),
        ("Pay the electricity bill before the 5th.", .finance), ("Move 200 into savings this month.", .finance),
        ("Mum's birthday on Sunday, buy flowers.", .personal), ("Clean the flat and do the laundry.", .personal),
        ("Dinner with Anna and Jo on Friday.", .personal), ("Exam in statistics next week, redo chapter 4.", .study),
        ("Read the paper on transformers for the seminar.", .study), ("Quote: less is more.", .other),
        ("Pancakes: 2 eggs, 250 ml milk, 125 g flour.", .other), ("Renew the car insurance, compare offers.", .finance),
        ("Book the physio for my knee.", .health), ("Water the plants while the neighbours are away.", .personal),
    ].map { CategoryCorrection(text: $0.0, category: $0.1) }

    static let newBandNotes = [
        "Band practice moved to Wednesday, learn the two new covers.",
        "The venue wants our rider and the stage plot by Monday.",
        "Record the bass takes for the EP this weekend.",
        "Tour poster: ask the designer for the final version with all the dates.",
        "Πρόβα με το συγκρότημα την Πέμπτη, να φέρω το καινούργιο setlist.",
    ]

    @Test(.enabled(if: model.availability == .available, "needs multilingual-e5-small (scripts/setup.sh)"))
    func fiveCorrectionsTeachWhatWorkMeansForThisUser() throws {
        let blank = LanguageModel(configuration: ModelConfiguration(modelPath: "/nonexistent.gguf"))
        let taught = NoteAnalyzer(model: blank, neighbours: Self.neighbours(Self.bandCorrections + Self.otherCorrections))
        let untaught = NoteAnalyzer(model: blank, neighbours: Self.neighbours(Self.otherCorrections))
        let day = Timestamp(milliseconds: 1_780_000_000_000)
        var untaughtWork = 0
        for text in Self.newBandNotes {
            let note = try NoteInput.makeNote(text: text, title: nil, extraTags: [], at: day)
            #expect(taught.quickAnalysisWithoutModel(note, today: day).category == .work, "\(text): \(taught.categoryVotes(note) ?? [:])")
            if untaught.quickAnalysisWithoutModel(note, today: day).category == .work { untaughtWork += 1 }
        }
        #expect(untaughtWork < Self.newBandNotes.count, "without the corrections, band notes are not all work: the corrections taught it")
        // The other corrections still hold for notes like them.
        let bill = try NoteInput.makeNote(text: "Pay the water bill before the 10th.", title: nil, extraTags: [], at: day)
        #expect(taught.quickAnalysisWithoutModel(bill, today: day).category == .finance)
        #expect(taught.analyzerVersion.contains("+votes:"), "notes analysed without the vote are analysed again")
    }
}
