// Links between notes: the names each note answers to, each note's links, and which note each
// link points at, kept current by every write to a note (add, edit, import, sync, delete).
//
// A link points at the nearest note that answers to its text (title, alias or file path, case
// and accents ignored; see NoteNames.nearest). When no note answers to it any more, it keeps the
// note it last pointed at while that note lives: renaming a note's title does not break the
// links to it. A link that never found a note, or whose note was deleted, is broken.
import Notes

extension NoteStore {
    /// Bumped whenever the link parser or the names change meaning: the store then rebuilds
    /// every note's names and links on open.
    static let linkIndexVersion: Int64 = 1

    /// What an import says about a note beyond the note itself.
    struct NoteOrigin {
        var aliases: [String]
        var path: String
    }

    // MARK: Reading

    /// The links in a note's text, in order.
    public func links(from id: NoteID) throws -> [StoredLink] {
        try database.statement("""
            SELECT s.id, s.title, l.target, l.heading, l.embed, l.markdown, t.id, t.title
            FROM links l JOIN notes s ON s.seq = l.source_seq LEFT JOIN notes t ON t.seq = l.target_seq
            WHERE s.id = ? ORDER BY l.position
            """).rows([id.rawValue], storedLink)
    }

    /// The links from other live notes that point at this one, the sources' newest change first.
    public func backlinks(to id: NoteID) throws -> [StoredLink] {
        try database.statement("""
            SELECT s.id, s.title, l.target, l.heading, l.embed, l.markdown, t.id, t.title
            FROM notes t JOIN links l ON l.target_seq = t.seq JOIN notes s ON s.seq = l.source_seq
            WHERE t.id = ? AND s.deleted IS NULL ORDER BY s.updated DESC, s.id, l.position
            """).rows([id.rawValue], storedLink)
    }

    /// Links from live notes that point at no note.
    public func brokenLinks() throws -> [StoredLink] {
        try database.statement("""
            SELECT s.id, s.title, l.target, l.heading, l.embed, l.markdown, NULL, NULL
            FROM links l JOIN notes s ON s.seq = l.source_seq
            WHERE l.target_seq IS NULL AND s.deleted IS NULL ORDER BY s.title, s.id, l.position
            """).rows([], storedLink)
    }

    /// The aliases an import gave the note.
    public func aliases(of id: NoteID) throws -> [String] {
        try database.statement("""
            SELECT nn.name FROM note_names nn JOIN notes n ON n.seq = nn.note_seq
            WHERE n.id = ? AND nn.kind = 'alias' ORDER BY nn.name
            """).rows([id.rawValue]) { $0.string(0) }
    }

    /// Where each imported live note's file was (relative, without extension).
    public func sourcePaths() throws -> [NoteID: String] {
        var paths: [NoteID: String] = [:]
        try database.statement("SELECT id, source_path FROM notes WHERE source_path IS NOT NULL AND deleted IS NULL").forEachRow {
            paths[NoteID($0.string(0))!] = $0.string(1)
        }
        return paths
    }

    private func storedLink(_ row: Row) -> StoredLink {
        StoredLink(source: NoteID(row.string(0))!, sourceTitle: row.string(1), target: row.string(2), heading: row.optionalString(3),
                   embed: row.int(4) == 1, markdown: row.int(5) == 1, resolved: row.optionalString(6).flatMap(NoteID.init),
                   resolvedTitle: row.optionalString(7))
    }

    // MARK: Writing (inside the caller's transaction)

    /// Brings names and links up to date after a write to the note at `seq`: its own names
    /// and links (none once it is deleted), then every other note's links that may now point
    /// elsewhere. `origin` replaces the note's aliases and path; nil keeps them.
    func indexLinks(seq: Int64, origin: NoteOrigin? = nil) throws {
        let oldKeys = Set(try database.statement("SELECT key FROM note_names WHERE note_seq = ?").rows([seq]) { $0.string(0) })
        let newKeys = try indexOwnLinks(seq: seq, origin: origin)
        if oldKeys != newKeys { try resolveLinks(toKeys: oldKeys.union(newKeys), orTarget: seq) }
    }

    /// Writes the note's names and, unless `namesOnly`, its own links; returns the names.
    /// `previous` is where its links pointed, by what each looked for (nil: as stored now), so
    /// that an edit keeps a link to a renamed note.
    @discardableResult
    private func indexOwnLinks(seq: Int64, origin: NoteOrigin?, previous stored: [String: Int64]? = nil, namesOnly: Bool = false) throws -> Set<String> {
        guard let row = try database.statement("SELECT title, body, source_path, deleted IS NOT NULL FROM notes WHERE seq = ?")
            .firstRow([seq], { (title: $0.string(0), body: $0.string(1), path: $0.optionalString(2), deleted: $0.int(3) == 1) })
        else { return [] }
        let aliases: [String]
        var path = row.path
        if let origin {
            aliases = origin.aliases
            path = origin.path
            try database.execute("UPDATE notes SET source_path = ? WHERE seq = ?", [path, seq])
        } else {
            aliases = try database.statement("SELECT name FROM note_names WHERE note_seq = ? AND kind = 'alias'").rows([seq]) { $0.string(0) }
        }
        let previous = try stored ?? previousTargets(ofSource: seq)
        try database.execute("DELETE FROM note_names WHERE note_seq = ?", [seq])
        try database.execute("DELETE FROM links WHERE source_seq = ?", [seq])
        guard !row.deleted else { return [] }

        let insertName = try database.statement("INSERT OR IGNORE INTO note_names(key, note_seq, kind, name) VALUES (?, ?, ?, ?)")
        let titleKey = NoteNames.fold(row.title)
        if !titleKey.isEmpty { try insertName.execute([titleKey, seq, "title", row.title]) }
        for alias in aliases where !NoteNames.fold(alias).isEmpty { try insertName.execute([NoteNames.fold(alias), seq, "alias", alias]) }
        for key in NoteNames.keys(title: "", aliases: [], path: path) { try insertName.execute([key, seq, "path", key]) }
        let names = Set(NoteNames.keys(title: row.title, aliases: aliases, path: path))
        if namesOnly { return names }

        let folder = NoteNames.folder(of: path)
        let insertLink = try database.statement(
            "INSERT INTO links(source_seq, position, target, markdown, target_key, heading, embed, target_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for (position, link) in NoteLink.inText(row.body).enumerated() {
            let key = link.lookupKey(sourceFolder: folder)
            let target = try resolve(key, fromFolder: folder, previous: previous[key])
            try insertLink.execute([seq, position, link.target, link.relative, key, link.heading, link.embed, target])
        }
        return names
    }

    private func previousTargets(ofSource seq: Int64) throws -> [String: Int64] {
        var targets: [String: Int64] = [:]
        try database.statement("SELECT target_key, target_seq FROM links WHERE source_seq = ? AND target_seq IS NOT NULL")
            .forEachRow([seq]) { targets[$0.string(0)] = $0.int(1) }
        return targets
    }

    /// Points again every link that looks for one of `keys` or points at `seq`.
    private func resolveLinks(toKeys keys: Set<String>, orTarget seq: Int64) throws {
        var affected: [(source: Int64, position: Int64, key: String, target: Int64?, path: String?)] = []
        let columns = "SELECT l.source_seq, l.position, l.target_key, l.target_seq, s.source_path FROM links l JOIN notes s ON s.seq = l.source_seq"
        func row(_ row: Row) -> (Int64, Int64, String, Int64?, String?) {
            (row.int(0), row.int(1), row.string(2), row.optionalInt(3), row.optionalString(4))
        }
        for key in keys.sorted() { affected += try database.statement(columns + " WHERE l.target_key = ?").rows([key], row) }
        affected += try database.statement(columns + " WHERE l.target_seq = ?").rows([seq], row)
        let update = try database.statement("UPDATE links SET target_seq = ? WHERE source_seq = ? AND position = ?")
        var done = Set<[Int64]>()
        for link in affected where done.insert([link.source, link.position]).inserted {
            let target = try resolve(link.key, fromFolder: NoteNames.folder(of: link.path), previous: link.target)
            if target != link.target { try update.execute([target, link.source, link.position]) }
        }
    }

    /// The note a link looking for `key` from `folder` points at (see the rule at the top).
    private func resolve(_ key: String, fromFolder folder: String, previous: Int64?) throws -> Int64? {
        let candidates = try database.statement("""
            SELECT DISTINCT nn.note_seq, n.source_path FROM note_names nn JOIN notes n ON n.seq = nn.note_seq
            WHERE nn.key = ? AND n.deleted IS NULL ORDER BY nn.note_seq
            """).rows([key]) { (id: $0.int(0), path: $0.optionalString(1)) }
        if let nearest = NoteNames.nearest(candidates, toFolder: folder) { return nearest }
        guard let previous, try database.scalarInt("SELECT 1 FROM notes WHERE seq = ? AND deleted IS NULL", [previous]) != nil else { return nil }
        return previous
    }

    // MARK: Rebuilding

    /// Rebuilds every note's names and links when they were made by another version of the
    /// rules (or before links existed), keeping where each link pointed.
    /// The link index was built by this version of the rules (or the database is read-only, and
    /// the index is used as it is).
    func linkIndexIsCurrent() throws -> Bool {
        try database.isReadOnly || database.scalarInt("SELECT version FROM link_index WHERE id = 1") == NoteStore.linkIndexVersion
    }

    func rebuildLinksIfNeeded() throws {
        guard try !linkIndexIsCurrent() else { return }
        try database.transaction {
            // Another process may have rebuilt meanwhile.
            guard try !linkIndexIsCurrent() else { return }
            var previous: [Int64: [String: Int64]] = [:]
            try database.statement("SELECT source_seq, target_key, target_seq FROM links WHERE target_seq IS NOT NULL").forEachRow {
                previous[$0.int(0), default: [:]][$0.string(1)] = $0.int(2)
            }
            try database.execute("DELETE FROM links")
            let seqs = try database.statement("SELECT seq FROM notes WHERE deleted IS NULL ORDER BY seq").rows { $0.int(0) }
            // Every note's names first, so that each link finds notes written after it.
            for seq in seqs { try indexOwnLinks(seq: seq, origin: nil, namesOnly: true) }
            for seq in seqs { try indexOwnLinks(seq: seq, origin: nil, previous: previous[seq] ?? [:]) }
            try database.execute("UPDATE link_index SET version = ? WHERE id = 1", [NoteStore.linkIndexVersion])
        }
    }
}
