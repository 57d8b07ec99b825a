// How text becomes a note, in one place for every way a note arrives: typed, edited, imported
// from a file, or read from the sync repository.

/// The rules that make a note from what a source says. Every entry point calls `note(...)`
/// (typed, edited, imported) or `note(synced:id:)` (the sync repository); the clauses:
///
/// 1. **Body**: the text without its trailing blank space (`NoteInput.normalizedBody`); line
///    endings and leading space are kept.
/// 2. **Title**: an explicit title (`--title`, front matter `title`), trimmed, wins. Otherwise
///    the origin's derived title: typed, the body's first line (`NoteText.title(from:)`);
///    imported, the first `# heading` outside a vault, then the file name; edited, the new
///    body's first line when the old title was the old body's first line, else the old title
///    stays. A blank explicit title asks for the derived one (an edit's `--title ''` returns
///    the note to a title that follows its body).
/// 3. **Tags**: the explicit tags (`--tag`, front matter `tags`) plus the body's inline
///    `#tags` (`Tags.inText`). An edit keeps the old note's tags except those that came from
///    the old body, then removes the `--untag` ones last, inline or not.
/// 4. **Times**: front matter `created` and `updated` when given; a missing `created` is
///    `updated`, else the fallback time; a missing `updated` is the later of `created` and the
///    fallback time. An edit is stamped after the version it was made on
///    (`NoteRules.editTime`), whatever this machine's clock says: `updated` orders a note's
///    versions by causality, and the merge keeps the later one in front.
/// 5. **Empty**: a note with neither body nor title is refused (`NoteInputError.empty`).
/// 6. **Synced**: a sync repository's document was made by these rules on the machine that
///    wrote it, so it is taken as written: its body verbatim, its front matter tags exactly
///    (no inline tags added: a tag removed with `--untag` stays removed), never refused. Only
///    a missing title is derived from the body, and missing times follow clause 4 with the
///    epoch as fallback. So `note(synced: parse(render(note)))` is `note` on every machine:
///    a synced note never differs from its source and is never exported again for it.
public enum NoteRules {
    /// Where a note's text comes from, with what that source adds to the rules.
    public enum Origin: Sendable {
        /// Typed by the user (`notes add`).
        case typed
        /// A change to `previous` (`notes edit`, a conflict resolved by editing); `untagging`
        /// are tags to remove.
        case edited(previous: Note, untagging: [String])
        /// A Markdown file (`notes import`), named by `fileName` when nothing else names it.
        case imported(fileName: String, inVault: Bool)
    }

    /// A note made from a source's body, explicit title and tags and front matter times
    /// (clauses 1 to 5).
    public static func note(id: NoteID, body text: String, title explicitTitle: String?, tags: [String],
                            created: Timestamp?, updated: Timestamp?, fallbackTime: Timestamp,
                            origin: Origin) throws(NoteInputError) -> Note {
        let body = NoteInput.normalizedBody(text)
        let trimmedTitle = explicitTitle?.trimmingWhitespace() ?? ""
        let title = trimmedTitle.isEmpty ? derivedTitle(body: body, origin: origin, explicitlyBlank: explicitTitle != nil) : trimmedTitle
        guard !body.isEmpty || !title.isEmpty else { throw .empty }
        var allTags = tags + Tags.inText(body)
        if case let .edited(previous, untagging) = origin {
            let oldInline = Set(Tags.inText(previous.body))
            let removed = Set(Tags.normalized(untagging))
            allTags = Tags.normalized(previous.tags.filter { !oldInline.contains($0) } + allTags).filter { !removed.contains($0) }
        }
        var times = self.times(created: created, updated: updated, fallback: fallbackTime)
        if case let .edited(previous, _) = origin { times.updated = editTime(of: previous, now: times.updated) }
        return Note(id: id, title: title, body: body, tags: allTags, created: times.created, updated: times.updated)
    }

    /// When an edit of `previous` made at `now` (this machine's clock) is stamped: at least a
    /// millisecond after `previous`. A clock days behind would otherwise stamp an edit before
    /// the version it replaced, and a merge that has to choose (`NoteMerger`) would put the
    /// older text first. Like a Lamport clock: an edit made on a version is always after it,
    /// and a synced merge carries the later stamp of its sides.
    public static func editTime(of previous: Note, now: Timestamp) -> Timestamp {
        max(now, Timestamp(milliseconds: previous.updated.milliseconds + 1))
    }

    /// The note a sync repository's document holds (clause 6).
    public static func note(synced document: NoteDocument.Parsed, id: NoteID) -> Note {
        let times = times(created: document.created, updated: document.updated, fallback: Timestamp(milliseconds: 0))
        return Note(id: id, title: document.title ?? NoteText.title(from: document.body), body: document.body,
                    tags: document.tags ?? [], created: times.created, updated: times.updated)
    }

    /// Clause 4: the times a note gets from its front matter and a fallback time.
    static func times(created: Timestamp?, updated: Timestamp?, fallback: Timestamp) -> (created: Timestamp, updated: Timestamp) {
        let created = created ?? updated ?? fallback
        return (created, updated ?? max(created, fallback))
    }

    private static func derivedTitle(body: String, origin: Origin, explicitlyBlank: Bool) -> String {
        switch origin {
        case .typed:
            return NoteText.title(from: body)
        case let .edited(previous, _):
            let wasDerived = previous.title == NoteText.title(from: previous.body)
            return explicitlyBlank || wasDerived ? NoteText.title(from: body) : previous.title
        case let .imported(fileName, inVault):
            return (inVault ? nil : NoteImport.firstHeading(body)) ?? fileName
        }
    }
}
