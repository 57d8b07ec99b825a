// `notes links`: what a note links to and what links to it, or every broken link.
import Notebook
import Notes

struct LinksCommand: NotesCommand {
    static let broken = Flag("--broken", help: "List the links that point at no note.")
    static let note = Argument("id", type: .note, help: Common.note.spec.help, optional: true)

    static let configuration = CommandConfiguration(
        name: "links",
        abstract: "List a note's links and backlinks, or every broken link.",
        usage: "<id> [--json] | --broken [--json]",
        discussion: """
            [[Name]], [[Name|text]], [[Name#Heading]], ![[Name]] and relative Markdown links
            [text](Other%20note.md) point at the note with that title, alias or file name (case and
            accents ignored; of two with the same name, the one in the nearest folder). A link
            keeps its note when that note's title changes; it is broken when no note answers to it.
            """,
        options: [broken, Common.json],
        arguments: [note]
    )

    let reference: String?
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        json = arguments[Common.json]
        if arguments[Self.broken] {
            if let extra = arguments[Self.note] { throw UsageError(message: "--broken lists every note's broken links; unexpected '\(extra)'") }
            reference = nil
        } else {
            guard let reference = arguments[Self.note] else { throw UsageError(message: "missing <id>") }
            self.reference = reference
        }
    }

    func run(_ context: Context) throws {
        let notebook = try context.notebook()
        let terminal = context.terminal
        guard let reference else {
            let broken = try notebook.brokenLinks()
            if json {
                terminal.emit(.array(broken.map(\.incomingJSON)))
                return
            }
            if broken.isEmpty { terminal.printError("No broken links.") }
            let short = try context.handles(for: Array(Set(broken.map(\.source))))
            for link in broken {
                terminal.print(terminal.yellow(short[link.source] ?? link.source.rawValue) + "  " + link.sourceTitle + "  " + terminal.red(link.written))
            }
            return
        }
        let note = try notebook.note(reference)
        let links = try notebook.links(from: note.id)
        let backlinks = try notebook.backlinks(to: note.id)
        if json {
            terminal.emit(note.linksJSON(links: links, backlinks: backlinks))
            return
        }
        terminal.print(terminal.bold(note.title))
        for line in try terminal.linkLines(links: links, backlinks: backlinks, context: context) { terminal.print(line) }
    }
}

extension StoredLink {
    /// The link's form, without its shown text: `[[Name#Heading]]`, `![[Name]]`, `[…](Path.md)`.
    var written: String {
        let anchor = heading.map { "#" + $0 } ?? ""
        return markdown ? (embed ? "!" : "") + "[…](" + target + ".md" + anchor + ")" : (embed ? "![[" : "[[") + target + anchor + "]]"
    }
}

extension Terminal {
    /// A note's links, then its backlinks, one per line, for `notes links` and `notes show`.
    func linkLines(links: [StoredLink], backlinks: [StoredLink], context: Context) throws -> [String] {
        let short = try context.handles(for: Array(Set(links.compactMap(\.resolved) + backlinks.map(\.source))))
        var lines = [dim("Links (\(links.count))")]
        for link in links {
            if let target = link.resolved {
                lines.append("  → " + link.written + "  " + yellow(short[target] ?? target.rawValue) + "  " + (link.resolvedTitle ?? ""))
            } else {
                lines.append("  → " + link.written + "  " + red("broken: no note has this name"))
            }
        }
        lines.append(dim("Backlinks (\(backlinks.count))"))
        for link in backlinks {
            lines.append("  ← " + yellow(short[link.source] ?? link.source.rawValue) + "  " + link.sourceTitle + "  " + dim(link.written))
        }
        return lines
    }
}
