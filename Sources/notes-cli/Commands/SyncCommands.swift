// `notes remote`, `notes sync`, `notes conflicts`, `notes log`: git sync through a remote you own.
import Notebook
import Notes

extension Context {
    var syncRepositoryPath: String { notebookHome.syncRepository }

    /// The notebook's sync, which may ask for a passphrase on the terminal; creates
    /// `$NOTES_HOME/repo` on first use.
    func sync() throws -> NotebookSync {
        try notebook().sync(environment: environment, passphrases: .fileOrTerminal)
    }
}

struct RemoteCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "remote",
        abstract: "List, add, show or remove sync remotes.",
        discussion: """
            A remote is a git repository you own: a path or file:// URL to a bare repository (a USB
            disk, a mounted share), or ssh://user@host/path/notes.git on your own server. Create a
            bare repository there first: git init --bare notes.git

            With --encrypt, the remote holds only ciphertext: every note, analysis, path and commit
            message is encrypted with a key from your passphrase (asked on the terminal, or read from
            the file NOTES_PASSPHRASE_FILE names). Other machines join with the same command and
            passphrase. A lost passphrase cannot be recovered; your notes stay on your machines.
            Without a subcommand, lists the remotes.
            """,
        options: [Common.json]
    )
    static var subcommands: [any NotesCommand.Type] { [RemoteAddCommand.self, RemoteShowCommand.self, RemoteRemoveCommand.self] }

    /// A remote's name as a command line gives it, completed from the remotes.
    static let name = Argument("name", type: .text("name", completion: .remotes), help: "The remote's name.")

    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let remotes = try context.sync().remotes()
        if json {
            context.terminal.emit(.array(remotes.map {
                .object([("name", .string($0.name)), ("url", .string($0.url)), ("encrypted", .bool($0.encrypted))])
            }))
        } else if remotes.isEmpty {
            context.terminal.printError("No remotes. Add one with: notes remote add origin /path/to/notes.git")
        } else {
            for remote in remotes { context.terminal.print("\(remote.name)\t\(remote.url)" + (remote.encrypted ? "\tencrypted" : "")) }
        }
    }
}

struct RemoteAddCommand: NotesCommand {
    static let encrypt = Flag("--encrypt", help: "Encrypt everything this notebook stores in the remote.")
    static let keyCost = Option("--key-cost", type: .choice("COST", KeyCost.self),
                                help: "Argon2id cost for a newly encrypted remote: moderate (default), interactive, sensitive, or minimum (tests only: weak).")
    static let name = Argument("name", type: ValueType(placeholder: "name", parse: { name in
        !name.isEmpty && name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) ? name : nil
    }, invalid: { _, text in "'\(text)' is not a remote name (letters, digits, - and _)" }), help: "A name for the remote: letters, digits, - and _.")
    static let url = Argument("url", type: .text("url", completion: .directories), help: "A path or file:// URL to a bare repository, or ssh://user@host/path.")

    static let configuration = CommandConfiguration(
        name: "remote add",
        abstract: "Add a sync remote (or join an encrypted one).",
        options: [encrypt, keyCost],
        arguments: [name, url]
    )

    let name: String
    let url: String
    let encrypt: Bool
    let keyCost: KeyCost

    init(arguments: ParsedArguments) throws(UsageError) {
        name = arguments[Self.name]!
        url = arguments[Self.url]!
        encrypt = arguments[Self.encrypt]
        keyCost = arguments[Self.keyCost] ?? .moderate
        if arguments[Self.keyCost] != nil, !encrypt { throw UsageError(message: "--key-cost goes with --encrypt") }
    }

    func run(_ context: Context) throws {
        let sync = try context.sync()
        if encrypt {
            let joined = try sync.addEncryptedRemote(name: name, url: url, cost: keyCost)
            context.terminal.printError(joined
                ? "Joined the encrypted remote \(name) (\(url)): the passphrase is right. Run 'notes sync' to get its notes."
                : "Added the encrypted remote \(name) (\(url)). Run 'notes sync' to send your notes, encrypted. Keep the passphrase safe: without it they cannot be read.")
        } else {
            try sync.addRemote(name: name, url: url)
            context.terminal.printError("Added remote \(name) (\(url)). Run 'notes sync' to sync with it.")
        }
    }
}

struct RemoteShowCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "remote show",
        abstract: "Show a remote: encrypted or not, and what its server can see.",
        options: [Common.json],
        arguments: [RemoteCommand.name]
    )

    let name: String
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        name = arguments[RemoteCommand.name]!
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        RemoteCommand.show(try context.sync().describeRemote(name), json: json, terminal: context.terminal)
    }
}

struct RemoteRemoveCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "remote remove",
        abstract: "Remove a sync remote (the notes stay here and there).",
        arguments: [RemoteCommand.name],
        aliases: ["rm"]
    )

    let name: String

    init(arguments: ParsedArguments) throws(UsageError) {
        name = arguments[RemoteCommand.name]!
    }

    func run(_ context: Context) throws {
        try context.sync().removeRemote(name: name)
        context.terminal.printError("Removed remote \(name).")
    }
}

extension RemoteCommand {
    static func show(_ description: RemoteDescription, json: Bool, terminal: Terminal) {
        let remote = description.remote
        if json {
            terminal.emit(.object([
                ("name", .string(remote.name)), ("url", .string(remote.url)), ("encrypted", .bool(remote.encrypted)),
                ("files", description.files.map { .int($0) } ?? .null),
                ("last_sync", description.lastSync.map { .string($0.iso8601) } ?? .null),
                ("key_cached", .bool(description.keyCached)),
            ]))
            return
        }
        terminal.print("\(remote.name)\t\(remote.url)")
        let files = description.files.map { "\($0) files at the last sync" } ?? "not synced yet"
        let last = description.lastSync.map { ", last synced \($0.iso8601)" } ?? ""
        guard remote.encrypted else {
            terminal.print("Plain: whoever can read the remote reads every note (\(files)\(last)).")
            return
        }
        terminal.print("Encrypted (XChaCha20-Poly1305; key from your passphrase by Argon2id\(description.cost.map { ", \($0.operations) pass\($0.operations == 1 ? "" : "es") over \($0.memory >> 20 > 0 ? "\($0.memory >> 20) MiB" : "\($0.memory >> 10) KiB")" } ?? "")).")
        terminal.print("The server sees: how many files there are and their sizes (\(files)), when each sync happened\(last), and from how many machines.")
        terminal.print("It cannot see: the notes' text, titles, tags, ids, analyses, file names or commit messages.")
        terminal.print(description.keyCached
            ? "The key is cached for the daemon in \(description.keyFile ?? "") (readable by you alone)."
            : "No key is cached on this machine: the next sync asks for the passphrase (or reads NOTES_PASSPHRASE_FILE).")
    }
}

struct SyncCommand: NotesCommand {
    static let allowDeletes = Flag("--allow-deletes", help: "Allow a sync that deletes 10 notes or more when that is more than 50 or a quarter of them.")
    static let remote = Argument("remote", type: .text("remote", completion: .remotes), help: "The remote to sync with.", optional: true)

    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Merge this notebook with a remote's and push the result.",
        discussion: """
            Exports what changed here, fetches, merges note by note (both versions survive when
            the same lines changed: see 'notes conflicts'), imports the result, then pushes. With
            one remote, or one named origin, the name can be left out.
            """,
        options: [allowDeletes, Common.json],
        arguments: [remote]
    )

    let remote: String?
    let allowDeletes: Bool
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        remote = arguments[Self.remote]
        allowDeletes = arguments[Self.allowDeletes]
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let sync = try context.sync()
        let name = try remote ?? sync.defaultRemote()
        let terminal = context.terminal
        let showSteps = terminal.err.isTerminal && !json
        let pauseAt = Settings(context.environment)[.syncPauseAt].flatMap(SyncStep.init(rawValue:))
        let summary = try sync.sync(remote: name, allowDeletes: allowDeletes) { step in
            if showSteps { LiveLine.shared.show("Syncing with \(name): \(step.rawValue)…") }
            if step == pauseAt { terminal.pauseForKillTest(at: step.rawValue) }
        }
        if showSteps { LiveLine.shared.finish() }
        for notice in summary.lockNotices { terminal.printError(notice) }
        if json {
            terminal.print(summary.json)
            return
        }
        terminal.print("Synced with \(name): \(summary.sent) sent, \(summary.received) received, \(summary.merged) merged, \(summary.conflicted) conflicted")
        if summary.conflicted > 0 { terminal.printError("See 'notes conflicts' to review the notes that changed on both sides.") }
    }
}

struct ConflictsCommand: NotesCommand {
    enum Keep: String, CaseIterable, Sendable { case note, copy }
    static let keep = Option("--keep", type: ValueType(placeholder: "note|copy", completion: .choices(["note", "copy"]), parse: { Keep(rawValue: $0) },
                                                       invalid: { _, _ in "--keep takes 'note' or 'copy'" }), help: "Resolve by keeping one version.")
    static let edit = Flag("-e", "--edit", help: "Resolve by editing both versions into one.")
    static let note = Argument("id", type: .note, help: "A flagged note.", optional: true)

    static let configuration = CommandConfiguration(
        name: "conflicts",
        abstract: "List, show and resolve notes that changed on two machines at once.",
        usage: "[<id> [--keep note|copy | --edit]] [--json]",
        discussion: """
            Without an id, lists the flagged notes. With an id, shows both versions; --keep note
            keeps this note and drops the copy, --keep copy takes the other version, --edit opens
            both in $EDITOR to write the merged note yourself.
            """,
        options: [keep, edit, Common.json],
        arguments: [note]
    )

    let reference: String?
    let keep: Keep?
    let edit: Bool
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = arguments[Self.note]
        keep = arguments[Self.keep]
        edit = arguments[Self.edit]
        json = arguments[Common.json]
        if keep != nil, edit { throw UsageError(message: "choose --keep or --edit, not both") }
        if reference == nil, keep != nil || edit { throw UsageError(message: "name the note to resolve") }
    }

    func run(_ context: Context) throws {
        let sync = try context.sync()
        let conflicts = try sync.conflicts()
        let terminal = context.terminal
        guard let reference else {
            if json {
                terminal.emit(.array(conflicts.map(ConflictsCommand.json)))
            } else if conflicts.isEmpty {
                terminal.printError("No conflicts.")
            } else {
                // Among the live notes too: a handle shown here is also one `notes show` reads.
                let handles = NoteHandle.handles(for: conflicts.map(\.id), among: try context.notebook().allIDs())
                for conflict in conflicts {
                    terminal.print(terminal.yellow(handles[conflict.id] ?? conflict.id.rawValue) + "  " + SyncRules.describe(conflict.kind) + "  " + (conflict.note?.title ?? "(deleted)"))
                }
            }
            return
        }
        let conflict = try SyncRules.conflict(reference, among: conflicts)
        if let keep {
            try sync.resolveConflict(conflict.id, keep == .note ? .keepNote : .keepCopy, at: Timestamp.current)
            terminal.printError("Resolved: kept the \(keep == .note ? "note" : "other version").")
        } else if edit {
            let text = try NoteInput.decode(try ExternalEditor.edit(SyncRules.mergeDraft(conflict), environment: context.environment, beforeStart: terminal.flush))
            let now = Timestamp.current
            try sync.resolveConflict(conflict.id, SyncRules.resolution(of: conflict, mergedText: text, at: now), at: now)
            terminal.printError("Resolved with your edited version.")
        } else if json {
            terminal.emit(ConflictsCommand.json(conflict))
        } else {
            terminal.print(terminal.bold(SyncRules.describe(conflict.kind)))
            terminal.print(terminal.bold("--- this note (--keep note)"))
            terminal.print(conflict.note?.body ?? "(deleted)")
            if conflict.copy != nil || SyncRules.hasCopy(conflict.kind) {
                terminal.print(terminal.bold("--- the other version (--keep copy)"))
                terminal.print(conflict.copy?.body ?? "(deleted)")
            }
        }
    }

    static func json(_ conflict: NoteConflict) -> JSON {
        .object([
            ("id", .string(conflict.id.rawValue)),
            ("kind", .string(SyncRules.hasCopy(conflict.kind) ? "edited-on-both" : "edit-beat-delete")),
            ("note", conflict.note.map { $0.json(analysis: nil) } ?? .null),
            ("copy", conflict.copy.map { $0.json(analysis: nil) } ?? .null),
        ])
    }
}

struct LogCommand: NotesCommand {
    static let configuration = CommandConfiguration(
        name: "log",
        abstract: "Show a note's history from the sync repository.",
        discussion: "Every synced version of the note, newest first (changes not yet synced are not in it).",
        options: [Common.json],
        arguments: [Common.note]
    )

    let reference: String
    let json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        reference = arguments[Common.note]!
        json = arguments[Common.json]
    }

    func run(_ context: Context) throws {
        let id: NoteID
        if let full = NoteID(reference) { id = full } else { id = try context.notebook().id(of: reference) }
        let revisions = try context.sync().history(of: id)
        let terminal = context.terminal
        if json {
            terminal.emit(.array(revisions.map { revision in
                var pairs: [(String, JSON)] = [("commit", .string(revision.commit)), ("time", .string(revision.time.iso8601)), ("message", .string(revision.message))]
                switch revision.state {
                case let .live(note): pairs.append(("note", note.json(analysis: nil)))
                case let .deleted(at): pairs.append(("deleted", .string(at.iso8601)))
                case .absent: pairs.append(("absent", .bool(true)))
                }
                return .object(pairs)
            }))
            return
        }
        if revisions.isEmpty { terminal.printError("No synced history for this note yet (run 'notes sync').") }
        for revision in revisions {
            let what: String = switch revision.state {
            case let .live(note): note.title + "  (" + String(note.body.count) + " characters)"
            case .deleted: "deleted"
            case .absent: "not in this commit"
            }
            terminal.print(terminal.yellow(String(revision.commit.prefix(10))) + "  " + terminal.dim(revision.time.iso8601) + "  " + what)
        }
    }
}
