// The sync: export what changed, commit, fetch, merge note by note, import into the notebook
// in one transaction, then advance local refs and push, and check the push landed.
import Notes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public final class SyncEngine {
    package let repository: Repository
    let notebook: NotebookPort
    /// Tests stop a sync here, at the start of each step, by throwing an error of their own
    /// (a crash, simulated); it leaves the sync as it is.
    var interruption: ((SyncStep) throws -> Void)?
    let folders = FolderCache()
    /// Locks and temporaries of interrupted syncs that this sync removed, for its summary.
    var removedLocks: [GitLockFile] = []
    /// Each encrypted remote's key and commit map, once used.
    var sealers: [String: Sealer] = [:]
    /// An encrypted remote's opened tip, for its tracking ref once its objects are on disk.
    var openedTips: [String: ObjectID?] = [:]

    static let branch = "refs/heads/main"
    static func trackingRef(_ remote: String) -> String { "refs/remotes/\(remote)/main" }
    /// The remote tip after our last confirmed sync with it: its history must keep it.
    static func syncedRef(_ remote: String) -> String { "refs/notes-sync/\(remote)" }

    /// `repositoryPath` is the sync repository (`$NOTES_HOME/repo`), created bare if missing.
    public init(repositoryPath: String, notebook: NotebookPort) throws {
        repository = try Repository.openOrCreate(at: repositoryPath)
        self.notebook = notebook
    }

    /// A sync deleting more notes than this (or more than a quarter of them) needs `allowDeletes`.
    static let deletionLimit = 50
    /// Fewer deletions than this never need `allowDeletes`: in a notebook of a handful of
    /// notes, deleting one is a large share and an ordinary act.
    static let deletionsAlwaysAllowed = 10

    /// Syncs with `remote`: attempts (see `attempt`) until one is done, at most
    /// `options.maximumAttempts`, three of them at most lost to a notebook that changed meanwhile.
    public func sync(remote: String, options: SyncOptions = SyncOptions(),
                     progress: ((SyncStep) -> Void)? = nil) throws -> SyncSummary {
        let lock = try holdingSyncLock()
        defer { withExtendedLifetime(lock) {} }
        removedLocks = []
        clearLocalLocks()
        guard let info = try repository.remotes().first(where: { $0.name == remote }) else {
            throw SyncError.noSuchRemote(remote)
        }
        var counts = SyncCounts()
        var notebookRetries = 0
        for attempt in 1...max(1, options.maximumAttempts) {
            switch try self.attempt(attempt, info, options: options, progress: progress) {
            case let .done(kept, commit):
                counts += kept
                return SyncSummary(remote: remote, sent: counts.sent, received: counts.received, merged: counts.merged,
                                   conflicted: counts.conflicted, commit: commit?.hex ?? "", attempts: commit == nil ? 1 : attempt,
                                   removedLocks: removedLocks)
            case .retryNotebookChanged:
                notebookRetries += 1
                guard notebookRetries < 3 else { throw SyncError.notebookKeptChanging(attempts: notebookRetries) }
            case let .retryPushRace(kept):
                counts += kept
            }
        }
        throw SyncError.pushNotConfirmed(remote: remote, attempts: options.maximumAttempts)
    }

    /// What one attempt did to the notebook and the merge: what `SyncSummary` reports.
    struct SyncCounts {
        var sent = 0, received = 0, merged = 0, conflicted = 0

        static func += (total: inout SyncCounts, more: SyncCounts) {
            total.sent += more.sent
            total.received += more.received
            total.merged += more.merged
            total.conflicted += more.conflicted
        }
    }

    /// How an attempt ended. Its counts come with it only when its work stays: a notebook
    /// that changed meanwhile undoes the attempt (nothing was imported or committed to the
    /// branch), while a lost push race keeps the import and the local commit, which the next
    /// attempt builds on.
    enum AttemptOutcome {
        /// The remote has our commit (nil: there was nothing to sync).
        case done(SyncCounts, commit: ObjectID?)
        /// The user wrote while we merged: merge again from the newer notebook.
        case retryNotebookChanged
        /// Another machine pushed first, or overwrote our push: fetch and merge again.
        case retryPushRace(SyncCounts)
    }

    /// One pass: export, commit, fetch, merge, import, move the branch, push, verify.
    func attempt(_ number: Int, _ info: RemoteInfo, options: SyncOptions,
                 progress: ((SyncStep) -> Void)?) throws -> AttemptOutcome {
        let step = { (step: SyncStep) throws in
            progress?(step)
            try self.interruption?(step)
        }
        var counts = SyncCounts()
        try step(.export)
        let (head, since) = try recoverCheckpoint()
        let snapshot = try call { try notebook.snapshot(changedSince: since) }
        var ours = try NotebookTree.read(repository, commit: head, cache: folders)
        let unchanged = ours
        counts.sent = try export(snapshot.records, into: &ours)
        // An analysis written since the last sync changes the tree without changing a note.
        let treeChanged = counts.sent > 0 || !NotebookTree.differingIDs(unchanged, ours).isEmpty

        try step(.commit)
        var local = head
        if treeChanged || (head == nil && !snapshot.records.isEmpty) {
            local = try repository.createCommit(tree: try ours.write(repository), parents: head.map { [$0] } ?? [],
                                                message: "notes: \(counts.sent) changed on this machine")
        }

        try step(.fetch)
        let theirs = try using(info, .reading) { try fetch(info, options: options) }
        try checkNotRewritten(remote: info.name, tip: theirs)

        try step(.merge)
        let outcome = try merge(local: local, ours: ours, theirs: theirs, remote: info.name)
        counts.merged = outcome.merged
        counts.conflicted = outcome.conflicted

        try step(.import)
        // The checkpoint, the refs and the push below name these objects: store them first,
        // with the sealed commit an encrypted remote will be sent (one pack, one fsync).
        let sending = try outcome.commit.flatMap { result in
            result == theirs ? nil : try outgoing(result, to: info, replacing: theirs)
        }
        try storeObjects(info)
        if let result = outcome.commit {
            let records = try importRecords(from: ours, to: outcome.tree, allowDeletes: options.allowDeletes)
            do {
                _ = try notebook.apply(records, expected: snapshot.version, syncedCommit: result.hex)
            } catch NotebookPortError.changedSinceSnapshot {
                return .retryNotebookChanged
            } catch let error as SyncError {
                throw error
            } catch {
                throw SyncError.notebook(String(describing: error))
            }
            counts.received = records.count
        }

        try step(.refUpdate)
        guard let result = outcome.commit else { return .done(counts, commit: nil) }
        try repository.setReference(Self.branch, to: result, message: "notes sync")

        try step(.push)
        if let sending, try !push(sending, to: info, options: options, step: step) {
            // Someone pushed first: after a short random pause, so that two machines do not
            // keep colliding in step.
            usleep(UInt32.random(in: 5_000...25_000) * UInt32(number))
            return .retryPushRace(counts)
        }
        // A push to a path remote is not compare-and-swap in libgit2 1.5: another machine
        // may have overwritten ours. Only a fetched tip that contains our commit counts.
        try step(.verify)
        let tip = try using(info, .checking) { try fetch(info, options: options) }
        try storeObjects(info)
        guard let tip, try repository.contains(tip, ancestor: result) else { return .retryPushRace(counts) }
        try repository.setReference(Self.syncedRef(info.name), to: tip, message: "notes sync")
        return .done(counts, commit: result)
    }

    /// Every writer of the sync repository holds the sync lock (so that a sync may remove any
    /// git lock it finds there as a dead process's); a git config write is one.
    func holdingSyncLock() throws -> SyncLock {
        guard let lock = try SyncLock.tryAcquire(repositoryPath: repository.path) else {
            throw SyncError.alreadyRunning(lockFile: repository.path + "/notes-sync.lock")
        }
        return lock
    }

    // MARK: Steps

    /// Runs `body`, a fetch or a push of `info`; a failure that a path remote's directory or
    /// disk explains (gone, not a repository, permission denied, read-only, full), or a
    /// network remote's server that cannot be reached or whose connection ended mid-way, is said so.
    func using<T>(_ info: RemoteInfo, _ use: RemoteUse, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let SyncError.git(error) {
            guard let path = Self.localPath(of: info.url) else {
                let host = Self.host(of: info.url)
                if error.isUnreachable { throw SyncError.unreachable(remote: info.name, host: host, use: use, detail: error.message) }
                guard error.isConnectionLost else { throw SyncError.git(error) }
                throw SyncError.connectionLost(remote: info.name, host: host, use: use, detail: error.message)
            }
            throw SyncError.explaining(error, remote: info.name, at: path, use)
        }
    }

    /// Updates the remote branch from `expected` to `commit`; false when another machine moved
    /// it first. A path remote gets a real compare-and-swap: libgit2 1.5's local push "is not
    /// compare-and-swap and can silently drop a concurrent machine's commit", so the objects go
    /// to a ref of their own and the branch is then moved under its lock, only if still at
    /// `expected`. Over ssh, git-receive-pack checks the old value itself; its per-ref status
    /// (not the return code) says whether it did.
    func push(_ sending: Outgoing, to info: RemoteInfo, options: SyncOptions, step: (SyncStep) throws -> Void) throws -> Bool {
        let remote = info.name
        let (source, commit, expected) = (sending.source, sending.commit, sending.expected)
        if source != Self.branch {
            try repository.setReference(source, to: commit, message: "notes sync: sealed")
        }
        guard let path = Self.localPath(of: info.url) else {
            let status = try using(info, .writing) {
                try repository.push(remote: remote, refspec: "\(source):\(Self.branch)", credentials: options.credentials)
            }
            guard let failure = status[Self.branch], let failure else { return true }
            if failure.contains("non-fast-forward") || failure.contains("fetch first") { return false }
            // The server's git holds (or a killed one left) a lock we cannot inspect from here.
            if failure.contains("lock") { throw SyncError.remoteLocked(remote: remote, lock: failure, age: nil) }
            throw SyncError.pushRejected(ref: Self.branch, status: failure)
        }
        // One incoming ref per machine, overwritten and never deleted: libgit2's local transport
        // lists the remote's refs one by one, and a ref deleted meanwhile fails that listing.
        // Forced ("+"): only this machine writes it, and what it held last (a sealed commit of a
        // push that lost a race) need not be an ancestor of what it sends now; the branch
        // itself moves only by the compare-and-swap below. Every write there happens under the
        // remote's writer lock, each named first with the lock files it may leave (see GitLocks).
        let incoming = "refs/notes-sync/incoming/\(try machineID())"
        guard let writer = RemoteWriter.begin(remote: path, patience: options.writerPatience) else {
            throw SyncError.remoteBusy(remote: remote, lockFile: path + "/" + RemoteWriter.fileName)
        }
        defer { writer.end() }
        clearRemoteLocks(in: path, incoming: incoming, leftByDeadWriter: writer.leftByDeadWriter)
        return try using(info, .writing) {
            // libgit2 writes the pack as objects/pack/pack_git2_*, its index as pack_git2_*idx.lock.
            writer.willLeave([incoming + ".lock", "objects/pack/pack_git2_*"])
            try writingPastLocks(remote: remote, waiting: options.lockWait) { () throws -> RemoteWrite in
                let status: [String: String?]
                do {
                    status = try repository.push(remote: remote, refspec: "+\(source):\(incoming)", credentials: options.credentials)
                } catch let SyncError.git(failure) where failure.isLocked {
                    return .locked(GitLocks.lockPath(in: failure.message) ?? path + "/" + incoming + ".lock")
                }
                guard let failure = status[incoming], let failure else { return .done }
                if let lock = GitLocks.lockPath(in: failure) { return .locked(lock) }
                throw SyncError.pushRejected(ref: incoming, status: failure)
            }
            let remoteRepository = try Repository.open(at: path)
            writer.willLeave([Self.branch + ".lock"])
            try step(.moveBranch)
            var moved = false
            try writingPastLocks(remote: remote, waiting: options.lockWait) { () throws -> RemoteWrite in
                switch try remoteRepository.updateReference(Self.branch, to: commit, expecting: expected, message: "notes sync") {
                case .updated: return .done
                case .moved: moved = true; return .done
                case let .locked(lock): return .locked(lock)
                }
            }
            if !moved {
                writer.willLeave(["HEAD.lock"])
                pointHeadAtBranch(remoteRepository)
            }
            return !moved
        }
    }

    /// `git init --bare` points HEAD at an unborn `master`, so a plain `git clone` of the
    /// remote would show nothing: when HEAD names a branch that does not exist and `main` is
    /// the remote's only branch, HEAD is pointed at it. Other layouts are left as they are.
    func pointHeadAtBranch(_ remote: Repository) {
        guard let head = try? FileSystem.read(remote.path + "/HEAD"),
              let target = String(decoding: head, as: UTF8.self).trimmingWhitespace().split(separator: " ").last.map(String.init),
              target != Self.branch, (try? remote.reference(target)) == .some(nil),
              let names = try? remote.referenceNames(), names.filter({ $0.hasPrefix("refs/heads/") }) == [Self.branch] else { return }
        try? remote.setHead(Self.branch)
    }

    enum RemoteWrite { case done, locked(String) }

    /// Runs a write to a path remote until no lock stops it. A lock older than
    /// `GitLocks.staleAge` was left by an interrupted sync and is removed; a fresh one is
    /// waited for, briefly, then reported as what it is: another machine syncing right now.
    func writingPastLocks(remote: String, waiting wait: LockWait, _ write: () throws -> RemoteWrite) throws {
        var waited: Duration = .zero
        while case let .locked(path) = try write() {
            let lock = GitLocks.file(at: path)
            if let lock, lock.age >= GitLocks.staleAge {
                guard unlink(path) == 0 else { throw SyncError.remoteLocked(remote: remote, lock: path, age: lock.age) }
                removedLocks.append(lock)
                continue
            }
            guard waited < wait.patience else { throw SyncError.remoteLocked(remote: remote, lock: path, age: lock?.age) }
            wait.waiting?(path)
            wait.sleep(wait.interval)
            waited += wait.interval
        }
    }

    /// Under the sync lock no live notes process writes the sync repository: every lock and
    /// temporary in it was left by one that died.
    func clearLocalLocks() {
        removedLocks += GitLocks.remove(GitLocks.find(in: repository.path))
    }

    /// Other machines and plain git write a path remote too: what `GitLocks` says a live writer
    /// cannot hold is removed (older than any live write, this machine's own incoming ref's
    /// lock, and what a dead notes writer named).
    func clearRemoteLocks(in path: String, incoming: String, leftByDeadWriter: [String]) {
        let own = path + "/" + incoming + ".lock"
        removedLocks += GitLocks.remove(GitLocks.find(in: path).filter {
            $0.age >= GitLocks.staleAge || $0.path == own || GitLocks.isNamed($0, by: leftByDeadWriter, in: path)
        })
    }

    /// A random name for this sync repository, made once and kept in `notes-machine-id`.
    func machineID() throws -> String {
        let path = repository.path + "/notes-machine-id"
        if let bytes = try? FileSystem.read(path), bytes.count == 16 { return String(decoding: bytes, as: UTF8.self) }
        var generator = SystemRandomNumberGenerator()
        let id = String(String(generator.next() as UInt64, radix: 16).suffix(16))
        let padded = String(repeating: "0", count: 16 - id.count) + id
        do { try FileSystem.writeAtomically(Array(padded.utf8), to: path, durable: true) } catch {
            let failure = error as? FileSystemError
            throw SyncError.git(GitError(function: "write(\(path))", code: failure?.code ?? 0, errorClass: 0, message: failure?.reason ?? "\(error)"))
        }
        return padded
    }

    /// The directory of a path or file:// remote; nil for ssh (`ssh://`, `user@host:path`).
    static func localPath(of url: String) -> String? {
        if url.hasPrefix("file://") { return String(url.dropFirst(7)) }
        if url.contains("://") { return nil }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") { return nil }
        return url
    }

    /// The server of a network remote as the user wrote it, with its port if one was given:
    /// `nas` for `ssh://me@nas/srv/notes.git` and `me@nas:notes.git`, `nas:2222` for
    /// `ssh://nas:2222/srv/notes.git`.
    static func host(of url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        var rest = parts.count == 2 ? parts[1].prefix { $0 != "/" } : url.prefix { $0 != ":" }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return rest.isEmpty ? url : String(rest)
    }

    /// Where the local branch should be, and which notebook writes are not in it yet. After a
    /// crash between the import and the ref update, the notebook's checkpoint is ahead of the
    /// branch: move the branch to it. When the two disagree otherwise, compare every note.
    func recoverCheckpoint() throws -> (head: ObjectID?, since: NotebookVersion?) {
        let head = try repository.reference(Self.branch)
        guard let checkpoint = try call({ try notebook.checkpoint() }),
              let recorded = ObjectID(hex: checkpoint.commit),
              (try? repository.commit(recorded)) != nil else { return (head, nil) }
        if recorded == head { return (head, checkpoint.version) }
        let ahead = try head.map { head throws in
            try repository.contains(recorded, ancestor: head)
        } ?? true
        if ahead {
            try repository.setReference(Self.branch, to: recorded, message: "notes sync: recover")
            return (recorded, checkpoint.version)
        }
        return (head, nil)
    }

    /// Writes the records' files into `tree`; returns how many notes changed.
    func export(_ records: [NoteRecord], into tree: inout NotebookTree) throws -> Int {
        var changed = 0
        for record in records {
            let id = record.id
            switch record.state {
            case let .live(note):
                let blob = try repository.writeBlob(RepositoryFormat.noteFile(note))
                let noteChanged = tree[.notes, id] != blob
                if noteChanged || tree[.deleted, id] != nil { changed += 1 }
                tree[.notes, id] = blob
                tree[.deleted, id] = nil
                if let analysis = record.analysis, analysis.contentHash == note.contentHash {
                    tree[.analysis, id] = try repository.writeBlob(RepositoryFormat.analysisFile(analysis))
                } else if noteChanged {
                    tree[.analysis, id] = nil
                }
            case let .deleted(time):
                if tree[.notes, id] != nil || tree[.deleted, id] == nil { changed += 1 }
                tree[.notes, id] = nil
                tree[.analysis, id] = nil
                if tree[.deleted, id] == nil {
                    tree[.deleted, id] = try repository.writeBlob(RepositoryFormat.tombstoneFile(time))
                }
            }
        }
        return changed
    }

    func checkNotRewritten(remote: String, tip: ObjectID?) throws {
        guard let synced = try repository.reference(Self.syncedRef(remote)) else { return }
        guard let tip, try repository.contains(tip, ancestor: synced) else {
            throw SyncError.remoteRewritten(remote: remote, lastSynced: synced.hex, now: tip?.hex)
        }
    }

    struct MergeOutcome {
        var commit: ObjectID?
        var tree: NotebookTree
        var merged = 0
        var conflicted = 0
    }

    func merge(local: ObjectID?, ours: NotebookTree, theirs: ObjectID?, remote: String) throws -> MergeOutcome {
        guard let theirs else { return MergeOutcome(commit: local, tree: ours) }
        let theirTree = try NotebookTree.read(repository, commit: theirs, cache: folders)
        if let found = theirTree.formatVersion, found > RepositoryFormat.version {
            throw SyncError.newerFormat(found: found, supported: RepositoryFormat.version)
        }
        guard let local else { return MergeOutcome(commit: theirs, tree: theirTree) }
        if try repository.contains(local, ancestor: theirs) {
            return MergeOutcome(commit: local, tree: ours)
        }
        if try repository.contains(theirs, ancestor: local) {
            return MergeOutcome(commit: theirs, tree: theirTree)
        }
        let base = try repository.mergeBase(local, theirs)
        var outcome = try TreeMerger(repository: repository).merge(
            base: try NotebookTree.read(repository, commit: base, cache: folders), ours: ours, theirs: theirTree)
        outcome.commit = try repository.createCommit(tree: try outcome.tree.write(repository), parents: [local, theirs],
                                                     message: "notes: merge \(remote) (\(outcome.merged) merged, \(outcome.conflicted) flagged)")
        return outcome
    }

    /// The records that turn the notebook (which `ours` reflects) into `result`. A note that
    /// `result` lacks entirely is left alone: only a tombstone deletes.
    func importRecords(from ours: NotebookTree, to result: NotebookTree, allowDeletes: Bool) throws -> [NoteRecord] {
        var records: [NoteRecord] = []
        var deletions = 0
        for id in NotebookTree.differingIDs(ours, result, in: [.notes, .deleted, .analysis]).sorted() {
            switch try result.state(of: id, in: repository) {
            case .absent: continue
            case let .live(note):
                records.append(NoteRecord(note, analysis: try result.analysis(of: note, in: repository)))
            case let .deleted(time):
                if ours[.notes, id] != nil { deletions += 1 }
                records.append(NoteRecord(id: id, state: .deleted(at: time)))
            }
        }
        let total = ours.liveNoteCount
        if !allowDeletes, deletions >= Self.deletionsAlwaysAllowed, deletions > Self.deletionLimit || deletions * 4 > total {
            throw SyncError.tooManyDeletions(count: deletions, of: total)
        }
        return records
    }

    /// Runs a notebook call; its errors pass through as `SyncError.notebook`.
    func call<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SyncError { throw error } catch {
            throw SyncError.notebook(String(describing: error))
        }
    }
}
