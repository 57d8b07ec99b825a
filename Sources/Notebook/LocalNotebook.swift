// The notebook on this machine, opened: the notes, their links, tags and tasks, as the commands
// read and change them. The SQLite store under it is Notebook's own business.
import Notes
import Storage
import Sync

/// The notebook in a `NotebookHome`, opened. Not Sendable, like the store it owns.
public final class LocalNotebook {
    public let home: NotebookHome
    /// Notebook's types work on it directly (searches, analyses, imports, exports); the
    /// executable asks the notebook.
    let store: NoteStore

    init(home: NotebookHome, store: NoteStore) {
        self.home = home
        self.store = store
    }

    /// Opens the notebook, creating its directory and database (or bringing an older one to the
    /// current schema) first if need be.
    public static func open(_ home: NotebookHome) throws -> LocalNotebook {
        LocalNotebook(home: home, store: try NoteStore.open(home: home.path))
    }

    /// Opens the notebook through a read-only connection: nothing is created or changed, and a
    /// notebook that does not exist yet is an error.
    public static func openForReading(_ home: NotebookHome) throws -> LocalNotebook {
        LocalNotebook(home: home, store: try NoteStore.open(home: home.path, mode: .readOnly))
    }

    /// Runs `body`, whose reads then see one state of the notebook (a search and the handles of
    /// its results). `body` must not write.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        try store.reading(body)
    }

    // MARK: Notes

    /// The id of the one live note `reference` names: its handle, or any unique start or end of
    /// its id.
    public func id(of reference: String) throws -> NoteID {
        try store.resolve(reference)
    }

    /// The live note `reference` names (see `id(of:)`).
    public func note(_ reference: String) throws -> Note {
        guard let note = try store.note(try store.resolve(reference)) else { throw NoteStoreError.notFound(reference) }
        return note
    }

    /// The live note with this id, or nil.
    public func note(id: NoteID) throws -> Note? {
        try store.note(id)
    }

    /// Live notes, newest change first.
    public func notes(matching filter: NoteFilter = NoteFilter()) throws -> [Note] {
        try store.notes(matching: filter)
    }

    /// Live notes with their analyses, newest change first; `forLines`: without their bodies and
    /// tasks, for a listing of one line a note.
    public func notesWithAnalyses(matching filter: NoteFilter, forLines: Bool) throws -> [(note: Note, analysis: Analysis?)] {
        try store.notesWithAnalyses(matching: filter, forLines: forLines)
    }

    /// Every live note's id.
    public func allIDs() throws -> [NoteID] {
        try store.allIDs()
    }

    /// The short handle of each of these ids, as listings show them (see `NoteHandle`).
    public func handles(for ids: [NoteID]) throws -> [NoteID: String] {
        try store.handles(for: ids)
    }

    public func handle(of id: NoteID) throws -> String {
        try store.handle(of: id)
    }

    /// Stores a new note.
    public func add(_ note: Note) throws {
        try store.insert(note)
    }

    /// Replaces a live note's title, body, tags and times.
    public func update(_ note: Note) throws {
        try store.update(note)
    }

    // MARK: Analyses, links, tags and tasks

    public func analysis(for id: NoteID) throws -> Analysis? {
        try store.analysis(for: id)
    }

    /// Notes whose full analysis by this analyzer version is missing or out of date.
    public func pendingAnalysisCount(analyzerVersion: String) throws -> Int {
        try store.pendingAnalysisCount(analyzerVersion: analyzerVersion)
    }

    /// Notes without current vectors from this embedding model.
    public func lackingVectorCount(model: String) throws -> Int {
        try store.lackingVectorCount(model: model)
    }

    /// The links in a note's text, in order.
    public func links(from id: NoteID) throws -> [StoredLink] {
        try store.links(from: id)
    }

    /// The links in other notes that point at this one.
    public func backlinks(to id: NoteID) throws -> [StoredLink] {
        try store.backlinks(to: id)
    }

    /// Every link that points at no note.
    public func brokenLinks() throws -> [StoredLink] {
        try store.brokenLinks()
    }

    /// Tags with how many live notes carry each, most used first.
    public func tags() throws -> [(tag: String, count: Int)] {
        try store.tagCounts()
    }

    /// The tasks the analyses found, open ones only unless `includeDone`.
    public func tasks(includeDone: Bool) throws -> [TaskEntry] {
        try store.tasks(includeDone: includeDone)
    }

    // MARK: The notebook as a whole

    /// How many notes, tombstones, tags and links there are.
    public func counts() throws -> NoteStore.Counts {
        try store.counts()
    }

    /// The number of the last migration applied.
    public func schemaVersion() throws -> Int {
        try store.schemaVersion()
    }

    /// The sync engine over this notebook; creates `repo/` in the home on first use.
    public func syncEngine() throws -> SyncEngine {
        try SyncEngine(repositoryPath: home.syncRepository, notebook: store)
    }
}
