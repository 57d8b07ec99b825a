// Search by words and by meaning together, and related notes. Words come from FTS5 (bm25),
// meaning from the notes' vectors (cosine); the two rankings are fused by reciprocal rank, and a
// note that has the query's words always ranks above one that only means something similar.
import Notes
import Storage

public struct NotebookSearch {
    public enum Mode: Sendable { case hybrid, words, meaning }

    /// How a result was found, for `--json`'s `"match"`.
    public enum Match: String, Sendable { case words, meaning, both }

    public struct Result: Sendable {
        public var hit: SearchHit
        public var match: Match
    }

    public struct Related: Sendable, Equatable {
        public var id: NoteID
        public var title: String
        public var similarity: Float
    }

    /// Reciprocal rank fusion's constant: the usual 60, so that the first few ranks of either
    /// list weigh about alike.
    static let fusionConstant = 60.0
    /// How many of the nearest notes count as close in meaning to a query: a note with a rare
    /// word of the query ranks by words only when meaning alone would show it on a first page.
    /// Ten let a note in the query's language with one of its words ("exam") rank above the
    /// note it is about in another language (fresh dev set, across languages: 38% -> 53%;
    /// English other-words MRR 0.672 -> 0.709; a rare word among other words 1.000 -> 0.975).
    static let closeInMeaning = 5

    let store: NoteStore
    let embedder: (any TextEmbedding)?

    public init(store: NoteStore, embedder: (any TextEmbedding)?) {
        self.store = store
        self.embedder = embedder
    }

    public init(notebook: LocalNotebook, embedder: (any TextEmbedding)?) {
        self.init(store: notebook.store, embedder: embedder)
    }

    /// The first filter of `query` that cannot be read (`tag:`, `due:<7d`, ...), if any:
    /// searching with it is an error.
    public static func invalidFilter(in query: String) -> SearchQueryError? {
        SearchQuery(query).invalidFilter
    }

    /// How many of the notes changed last `embedNewestNotes` looks at.
    public static let newestNotes = 8

    /// Makes the vectors of the notes added or changed last that lack them (of the newest
    /// `newestNotes`), so that a search right after `notes add` or `notes edit` finds the note by
    /// meaning without a daemon; returns how many were made. Not part of `search`, which reads in
    /// one transaction: call it before. Costs nothing but a few index lookups when they all have
    /// their vectors; a backlog (an import, a new model) is the daemon's or `notes analyze
    /// --vectors`'s. Without a usable model, nothing (the search says why).
    /// A failure (a model that fails, a notebook this process may not write) leaves the notes
    /// to the daemon and the search to go on.
    @discardableResult
    public func embedNewestNotes() -> Int {
        guard let embedder, let notes = try? store.newestLackingVectors(model: embedder.version, newest: Self.newestNotes),
              !notes.isEmpty, embedder.unavailableReason() == nil else { return 0 }
        return (try? embedder.embedAndStore(notes, in: store).count) ?? 0
    }

    /// The version of the vectors meaning is searched in, or nil without an embedder.
    public var embedderVersion: String? { embedder?.version }

    /// Why meaning cannot take part (no model, or switched off), or nil.
    public var meaningUnavailable: String? {
        guard let embedder else { return "search by meaning is off (NOTES_EMBEDDING_MODEL=none)" }
        return embedder.unavailableReason()
    }

    /// Best first, at most `filter.limit` (default 50). Without a usable embedding model, or
    /// for a query of filters alone, this is search by words.
    public func search(_ query: String, filter: NoteFilter = NoteFilter(), mode: Mode = .hybrid, now: Timestamp = .current) throws -> [Result] {
        let parsed = SearchQuery(query)
        if let invalid = parsed.invalidFilter { throw invalid }
        let limit = filter.limit ?? 50
        // The query is embedded (by the daemon, or by loading the model) on another thread while
        // this one searches the words. (Reading the stored vectors meanwhile as well was slower:
        // copying 15 MB of them costs more than the daemon takes to embed a query.)
        let meaningText = parsed.meaningText
        let pending = mode == .words || meaningText.isEmpty ? nil : try embedder.map { embedder in try Background { try embedder.embed(query: meaningText) } }
        var words = mode == .meaning ? [] : try store.search(query, filter: filter, now: now)
        guard let embedder, let pending else { return words.map { Result(hit: $0, match: .words) } }
        guard let vector = try queryVector(pending, embedder) else { return words.map { Result(hit: $0, match: .words) } }
        var nearest = try store.nearest(to: [vector], model: embedder.version, conditions: store.filterConditions(parsed, filter: filter, now: now),
                                        limit: max(limit, 100)).filter { $0.similarity >= embedder.queryFloor }
        if !parsed.excludedTerms.isEmpty {
            let excluded = try store.containing(anyOf: parsed.excludedTerms, among: nearest.map(\.id))
            nearest.removeAll { excluded.contains($0.id) }
        }
        if mode == .meaning {
            let similarity = Dictionary(nearest.map { ($0.id, $0.similarity) }, uniquingKeysWith: max)
            return try store.openings(of: Array(nearest.prefix(limit).map(\.id))).map { hit in
                var hit = hit
                hit.score = Double(similarity[hit.id] ?? 0)
                return Result(hit: hit, match: .meaning)
            }
        }
        // A note with a rare word of the query, though not all its words, ranks by words too when
        // it is also close in meaning ("okafor tooth pain" and the note about Dr. Okafor); one that
        // shares only a rare word ("appointment") with a query about something else does not.
        if words.count < limit {
            // Close: among the five nearest, whatever the model's scale of cosines.
            let found = Set(words.map(\.id)), close = Set(nearest.prefix(Self.closeInMeaning).map(\.id))
            words += try store.searchRareWords(query, filter: filter, now: now)
                .filter { !found.contains($0.id) && close.contains($0.id) }.prefix(limit - words.count)
        }
        return try fuse(words: words, meaning: nearest, limit: limit)
    }

    /// The query's vector; nil when no model can make one (search by words alone). Availability
    /// is asked only after a failure: the daemon may answer without this process ever opening
    /// llama.cpp, which the availability check would do.
    private func queryVector(_ pending: Background<[Float]>, _ embedder: any TextEmbedding) throws -> [Float]? {
        do {
            return try pending.wait()
        } catch {
            if embedder.unavailableReason() != nil { return nil }
            throw error
        }
    }

    /// Reciprocal rank fusion, in two tiers: the notes the words found (reordered by both
    /// ranks), then those found by meaning alone. Scores: the fused score, plus 1 in the first
    /// tier, so that a higher score is still a better match.
    func fuse(words: [SearchHit], meaning: [VectorMatch], limit: Int) throws -> [Result] {
        let meaningRank = Dictionary(meaning.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        func fused(wordsRank: Int?, meaningRank: Int?) -> Double {
            (wordsRank.map { 1 / (Self.fusionConstant + Double($0) + 1) } ?? 0) + (meaningRank.map { 1 / (Self.fusionConstant + Double($0) + 1) } ?? 0)
        }
        var results = words.enumerated().map { rank, hit in
            var hit = hit
            let other = meaningRank[hit.id]
            hit.score = 1 + fused(wordsRank: rank, meaningRank: other)
            return Result(hit: hit, match: other == nil ? .words : .both)
        }
        results.sort { $0.hit.score > $1.hit.score }
        let found = Set(words.map(\.id))
        let rest = meaning.enumerated().filter { !found.contains($0.element.id) }.prefix(max(0, limit - results.count))
        let openings = try store.openings(of: rest.map(\.element.id))
        let scores = Dictionary(rest.map { ($0.element.id, fused(wordsRank: nil, meaningRank: $0.offset)) }, uniquingKeysWith: { first, _ in first })
        results += openings.map { hit in
            var hit = hit
            hit.score = scores[hit.id] ?? 0
            return Result(hit: hit, match: .meaning)
        }
        return Array(results.prefix(limit))
    }

    /// The notes nearest in meaning to `id`, best first, down to the model's `relatedFloor`
    /// (past it, notes are not about the same thing). Uses the note's stored vectors; when it
    /// has none yet and `computeIfMissing`, embeds it now (and stores the result). Nil when it
    /// has none and none can be made.
    public func related(to id: NoteID, limit: Int = 10, computeIfMissing: Bool = true) throws -> [Related]? {
        guard let embedder else { return nil }
        var vectors = try store.vectors(for: id, model: embedder.version)
        if vectors == nil, computeIfMissing, embedder.unavailableReason() == nil, let note = try store.note(id) {
            let chunks = try embedder.embed(documents: [NoteText.fullText(title: note.title, body: note.body)]).first ?? []
            try store.saveVectors(chunks, for: id, contentHash: note.contentHash, model: embedder.version)
            vectors = chunks.isEmpty ? nil : chunks
        }
        guard let vectors else { return nil }
        let matches = try store.nearest(to: vectors, model: embedder.version, excluding: id, limit: limit)
            .filter { $0.similarity >= embedder.relatedFloor }
        let similarity = Dictionary(matches.map { ($0.id, $0.similarity) }, uniquingKeysWith: max)
        return try store.openings(of: matches.map(\.id)).map { Related(id: $0.id, title: $0.title, similarity: similarity[$0.id] ?? 0) }
    }
}
