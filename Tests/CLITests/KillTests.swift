// Real kills: `notes sync` and `notes import` run as child processes and die by SIGKILL at many
// points (paused at each step of a sync and killed there, or killed after a random delay); then
// plain commands on each machine finish the work, and nothing is lost or half-written.
import Foundation
import Notes
import Testing
import TestSupport

/// A `notes` child started with posix_spawn, which the test stops or kills. (Foundation's Process
/// reaps its children itself, so it cannot wait for a child to stop.)
final class NotesChild {
    private(set) var pid: pid_t = 0
    let stderrPath: String
    let stdoutPath: String

    /// With a `barrier`, the child announces itself and waits there before it becomes `notes`
    /// (see `StartBarrier`), so that many children start at one moment.
    init(_ notebook: Notebook, _ arguments: [String], environment: [String: String] = [:], behind barrier: StartBarrier? = nil) throws {
        let name = notebook.root + "/child-\(UUID().uuidString.prefix(8))"
        stderrPath = name + ".err"
        stdoutPath = name + ".out"
        var env = Notebook.environment(home: notebook.home, root: notebook.root)
        env.merge(environment) { $1 }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let command = [Notebook.binary] + arguments
        let program = barrier == nil ? Notebook.binary : "/bin/sh"
        let argumentList = barrier.map { ["/bin/sh", "-c", $0.script, "sh"] + command } ?? command
        var argv = argumentList.map { strdup($0) } + [nil]
        var envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let rc = posix_spawn(&pid, program, &actions, nil, &argv, &envp)
        guard rc == 0 else { throw CommandError(command: program, status: rc, stderr: "posix_spawn failed") }
    }

    /// Waits for the child to exit and returns its exit status (128 + the signal if one killed it).
    func exitStatus() -> Int32 {
        guard pid > 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
    }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until the child stops itself (true) or exits (false).
    func waitUntilStopped() -> Bool {
        var status: Int32 = 0
        while waitpid(pid, &status, WUNTRACED) < 0 && errno == EINTR {}
        if status & 0xff == 0x7f { return true } // WIFSTOPPED
        pid = 0
        return false
    }

    /// SIGKILL, then reap it. True when the kill found it still running.
    @discardableResult
    func kill() -> Bool {
        guard pid > 0 else { return false }
        let alive = Foundation.kill(pid, SIGKILL) == 0
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
        // Killed (WIFSIGNALED with SIGKILL), not already done.
        return alive && status & 0x7f == SIGKILL
    }

    deinit { kill() }
}

/// Moves every lock and temporary in a git directory `seconds` into the past: the time a user
/// takes to reopen a laptop after it died mid-sync.
func ageLocks(in gitDirectory: String, by seconds: TimeInterval) {
    guard let files = FileManager.default.enumerator(atPath: gitDirectory) else { return }
    for case let file as String in files {
        let name = (file as NSString).lastPathComponent
        guard name.hasSuffix(".lock") || name.hasPrefix("pack_git2_") || name.hasPrefix("tmp_") else { continue }
        try? FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: gitDirectory + "/" + file)
    }
}

/// SplitMix64, so each run kills at the same sequence of delays.
struct KillSchedule {
    var state: UInt64
    mutating func next(below bound: UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return (z ^ (z >> 31)) % bound
    }
}

let syncSteps = ["export", "commit", "fetch", "merge", "import", "ref-update", "push", "verify"]

@Suite(.serialized) struct KillTests {
    /// Two machines sharing a remote, each adding a note per round.
    struct Machines {
        let a = Notebook(), b = Notebook()
        let remote: String
        let remoteGitDirectory: String?
        let environment: [String: String]
        var added: [String] = []
        var kills = 0
        var killedAt: [String: Int] = [:]

        /// `encrypted`: both add the remote with --encrypt (at the least Argon2id cost, as tests
        /// may) before either syncs, and find the passphrase in NOTES_PASSPHRASE_FILE.
        init(remoteURL: String, remoteGitDirectory: String?, environment: [String: String] = [:], encrypted: Bool = false) throws {
            remote = remoteURL
            self.remoteGitDirectory = remoteGitDirectory
            var environment = environment
            if encrypted {
                let file = a.root + "/passphrase"
                try Data("kill test passphrase\n".utf8).write(to: URL(fileURLWithPath: file))
                environment["NOTES_PASSPHRASE_FILE"] = file
            }
            self.environment = environment
            for machine in [a, b] {
                let added = try machine.run(["remote", "add", "origin", remoteURL] + (encrypted ? ["--encrypt", "--key-cost", "minimum"] : []),
                                            environment: environment)
                #expect(added.status == 0, "\(added.stderr)")
            }
        }

        mutating func add(on machine: Notebook, _ text: String) throws {
            added.append(try machine.add(text))
        }

        /// A plain `notes sync`, as the user would run it after the crash: it succeeds, or a lock
        /// younger than a live sync could hold is named as such (never "kept changing"); later,
        /// when that lock is old, it succeeds.
        func recover(_ machine: Notebook) throws {
            let first = try machine.run(["sync"], environment: environment)
            if first.status == 0 { return }
            #expect(first.stderr.contains("another machine is syncing with origin right now"), "\(first.stderr)")
            #expect(!first.stderr.contains("kept"))
            if let remoteGitDirectory { ageLocks(in: remoteGitDirectory, by: 60) }
            let later = try machine.run(["sync"], environment: environment)
            #expect(later.status == 0, "\(later.stderr)")
        }

        mutating func killSync(on machine: Notebook, pausedAt step: String) throws {
            let child = try NotesChild(machine, ["sync"], environment: environment.merging(["NOTES_SYNC_PAUSE_AT": step]) { $1 })
            let stopped = child.waitUntilStopped()
            #expect(stopped, "the sync never reached \(step): \((try? String(contentsOfFile: child.stderrPath, encoding: .utf8)) ?? "")")
            if stopped, child.kill() {
                kills += 1
                killedAt[step, default: 0] += 1
            }
        }

        /// Kills a sync after a random delay below `bound`; true when it landed (the sync was
        /// still running).
        @discardableResult
        mutating func killSync(on machine: Notebook, below bound: UInt64, schedule: inout KillSchedule) throws -> Bool {
            let child = try NotesChild(machine, ["sync"], environment: environment)
            usleep(UInt32(schedule.next(below: bound)))
            guard child.kill() else { return false }
            kills += 1
            killedAt["timed", default: 0] += 1
            return true
        }

        /// Timed kills until `count` landed (at most three tries each): a sync's time varies with
        /// the machine's load, so a delay that came after it ended is followed by shorter ones.
        mutating func killSyncs(_ count: Int, spreadOver duration: UInt64, seed: UInt64, round: inout Int, label: String) throws {
            var schedule = KillSchedule(state: seed)
            var bound = duration + duration / 5
            var landed = 0, tries = 0
            while landed < count, tries < count * 3 {
                tries += 1
                round += 1
                let machine = tries % 2 == 0 ? a : b
                try add(on: machine, "Round \(round)\(label), before a timed kill")
                if try killSync(on: machine, below: bound, schedule: &schedule) { landed += 1 } else { bound = max(2_000, bound * 2 / 3) }
                try recover(tries % 3 == 0 ? b : machine)
            }
        }

        /// Both machines end equal, with every note, a sound database and a sound remote.
        func check() throws {
            for _ in 0..<2 { for machine in [a, b] { try recover(machine) } }
            let listA = try a.run(["list", "--json", "-n", "1000"]).stdout
            #expect(listA == (try b.run(["list", "--json", "-n", "1000"]).stdout))
            let ids = Set(((try a.run(["list", "--json", "-n", "1000"]).json as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
            #expect(ids == Set(added), "lost: \(Set(added).subtracting(ids)), unexpected: \(ids.subtracting(added))")
            for machine in [a, b] {
                #expect(try run(["sqlite3", machine.databasePath, "PRAGMA integrity_check"]) == "ok\n")
                _ = try run(["git", "--git-dir", machine.home + "/repo", "fsck", "--strict", "--no-progress"])
            }
            if let remoteGitDirectory { _ = try run(["git", "--git-dir", remoteGitDirectory, "fsck", "--strict", "--no-progress"]) }
        }
    }

    /// Milliseconds one whole `notes sync` takes here, to spread the timed kills over it.
    func syncDuration(_ machines: Machines) throws -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        try machines.recover(machines.a)
        return max(5_000, (DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }

    /// Two machines on a bare path remote: each one's sync killed once at every step, then
    /// `randomKills` more at random moments; every kill is recovered from and checked.
    func killSyncsOnAPathRemote(encrypted: Bool, randomKills: Int, seed: UInt64, label: String, in directory: TemporaryDirectory) throws -> (machines: Machines, remote: String) {
        let remote = directory.path + "/remote.git"
        _ = try run(["git", "init", "--quiet", "--bare", remote])
        var machines = try Machines(remoteURL: remote, remoteGitDirectory: remote, encrypted: encrypted)
        try machines.add(on: machines.a, "First note on a")
        try machines.recover(machines.a)
        try machines.recover(machines.b)

        var round = 0
        for step in syncSteps {
            for machine in [machines.a, machines.b] {
                round += 1
                try machines.add(on: machine, "Round \(round), before a kill at \(step)")
                try machines.killSync(on: machine, pausedAt: step)
                try machines.recover(machine)
            }
        }
        try machines.killSyncs(randomKills, spreadOver: try syncDuration(machines), seed: seed, round: &round, label: label)
        try machines.check()
        for step in syncSteps { #expect(machines.killedAt[step] == 2, "\(machines.killedAt)") }
        return (machines, remote)
    }

    @Test func syncKilledAtEveryStepLeavesNothingLockedOrLost() throws {
        let directory = TemporaryDirectory()
        let (machines, _) = try killSyncsOnAPathRemote(encrypted: false, randomKills: 24, seed: 10, label: "", in: directory)
        // Only the paused kills (at each step) are certain; a timed one lands only while the
        // sync still runs, which this machine's speed decides, so those add cover, not a verdict.
        #expect(machines.kills >= 2 * syncSteps.count, "only \(machines.kills) kills landed: \(machines.killedAt)")
    }

    /// The same kills against an encrypted remote: sealing and opening are part of the sync,
    /// and the same results must hold.
    @Test func syncKilledOnAnEncryptedRemoteLeavesNothingLockedOrLost() throws {
        let directory = TemporaryDirectory()
        let (machines, remote) = try killSyncsOnAPathRemote(encrypted: true, randomKills: 12, seed: 11, label: " (encrypted)", in: directory)
        // Only the paused kills (at each step) are certain; a timed one lands only while the
        // sync still runs, which this machine's speed decides, so those add cover, not a verdict.
        #expect(machines.kills >= 2 * syncSteps.count, "only \(machines.kills) kills landed: \(machines.killedAt)")
        let everything = try run(["git", "-C", remote, "cat-file", "--batch-all-objects", "--batch"])
        #expect(!everything.contains("before a kill"))
    }

    @Test func syncKilledOverSSHLeavesNothingLockedOrLost() throws {
        let directory = TemporaryDirectory()
        let server = try TestSSHServer(in: directory)
        defer { server.stop() }
        let remote = directory.path + "/remote.git"
        _ = try run(["git", "init", "--quiet", "--bare", remote])
        let knownHosts = directory.path + "/known_hosts"
        try server.knownHostsLine.write(toFile: knownHosts, atomically: true, encoding: .utf8)
        var machines = try Machines(remoteURL: server.url(for: remote), remoteGitDirectory: nil,
                                    environment: ["NOTES_SSH_KEY": server.userKey, "NOTES_SSH_KNOWN_HOSTS": knownHosts])
        try machines.add(on: machines.a, "First note on a, over ssh")
        try machines.recover(machines.a)
        try machines.recover(machines.b)

        var round = 0
        for step in ["fetch", "merge", "push", "verify"] {
            round += 1
            try machines.add(on: machines.b, "Round \(round) over ssh, before a kill at \(step)")
            try machines.killSync(on: machines.b, pausedAt: step)
            try machines.recover(machines.b)
        }
        try machines.killSyncs(8, spreadOver: try syncDuration(machines), seed: 20, round: &round, label: " over ssh")
        try machines.check()
        _ = try run(["git", "--git-dir", remote, "fsck", "--strict", "--no-progress"])
        #expect(try run(["find", remote, "-name", "*.lock"]).isEmpty)
        // Only the paused kills (at each step) are certain; a timed one lands only while the
        // sync still runs, which this machine's speed decides, so those add cover, not a verdict.
        #expect(machines.kills >= 4, "only \(machines.kills) kills landed: \(machines.killedAt)")
    }

    /// A sync killed while it moves a path remote's branch: it holds the remote's writer lock,
    /// and its list there names the branch's lock, which the test makes where libgit2 would (it
    /// makes it right there, inside the call), with a half-written pack beside it. The next
    /// sync takes them for the dead writer's at once: a 0 s old branch lock with no dead writer
    /// behind it would be waited for and refused as another machine's live sync.
    @Test func aKilledWritersLocksAreRemovedByTheNextSyncAtOnce() throws {
        let directory = TemporaryDirectory()
        let remote = directory.path + "/remote.git"
        _ = try run(["git", "init", "--quiet", "--bare", remote])
        var machines = try Machines(remoteURL: remote, remoteGitDirectory: remote)
        try machines.add(on: machines.a, "First note on a")
        #expect(try machines.a.run(["sync"]).status == 0)
        try machines.add(on: machines.a, "Written just before the kill")

        let child = try NotesChild(machines.a, ["sync"], environment: ["NOTES_SYNC_PAUSE_AT": "move-branch"])
        #expect(child.waitUntilStopped(), "\((try? String(contentsOfFile: child.stderrPath, encoding: .utf8)) ?? "")")
        let writerLock = remote + "/notes-writer.lock"
        #expect(try FileLock.acquire(.exclusive, at: writerLock, create: false, patience: .zero) == nil, "the stopped sync holds the writer lock")
        #expect(try String(contentsOfFile: writerLock, encoding: .utf8).split(separator: "\n").contains("refs/heads/main.lock"))
        let branchLock = remote + "/refs/heads/main.lock", pack = remote + "/objects/pack/pack_git2_6f1d0c2b9a8e7d3c"
        #expect(FileManager.default.createFile(atPath: branchLock, contents: Data()))
        #expect(FileManager.default.createFile(atPath: pack, contents: Data("PACK".utf8)))
        #expect(child.kill())

        let next = try machines.a.run(["sync"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.split(separator: "\n").contains { $0.hasPrefix("removed a stale lock left by an interrupted sync, ") && $0.hasSuffix(" s old (\(branchLock))") })
        #expect(next.stderr.contains("removed 1 half-written file left by an interrupted sync"))
        #expect(!FileManager.default.fileExists(atPath: branchLock) && !FileManager.default.fileExists(atPath: pack))
        #expect(try machines.b.run(["sync"]).status == 0)
        try machines.check()
    }

    /// An import is one transaction: a kill leaves all of it or none, and running it again
    /// finishes it. Killed where it stops itself (before its first note, and with 500 and 1,000
    /// of 1,500 stored in the open transaction), then at a few random moments.
    @Test func importKilledAnywhereIsAllOrNothingAndFinishesWhenRunAgain() throws {
        let files = Notebook()
        let folder = files.root + "/vault"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<1500 {
            try "# Note \(index)\nSome words about topic \(index % 37), and a #tag\(index % 5).\n"
                .write(toFile: folder + "/note-\(index).md", atomically: false, encoding: .utf8)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(try files.run(["import", folder]).status == 0)
        let duration = max(20_000, (DispatchTime.now().uptimeNanoseconds - start) / 1000)

        /// A fresh notebook with one note, its import killed by `kill`; then checked and finished.
        func killedImport(_ environment: [String: String] = [:], kill: (NotesChild) -> Void) throws {
            let notebook = Notebook()
            _ = try notebook.add("Written before the import")
            kill(try NotesChild(notebook, ["import", folder], environment: environment))
            let count = ((try notebook.run(["list", "--json", "-n", "5000"]).json as? [Any]) ?? []).count
            #expect(count == 1 || count == 1501, "a killed import left \(count) notes")
            #expect(try run(["sqlite3", notebook.databasePath, "PRAGMA integrity_check"]) == "ok\n")
            #expect(try notebook.run(["import", folder]).status == 0)
            #expect(((try notebook.run(["list", "--json", "-n", "5000"]).json as? [Any]) ?? []).count == 1501)
            #expect((try notebook.run(["search", "written before", "--json"]).json as? [Any])?.count == 1)
        }

        for stored in [0, 500, 1000] {
            try killedImport(["NOTES_IMPORT_PAUSE_AT": String(stored)]) { child in
                let stopped = child.waitUntilStopped()
                #expect(stopped, "the import never stored \(stored) notes: \((try? String(contentsOfFile: child.stderrPath, encoding: .utf8)) ?? "")")
                if stopped { #expect(child.kill()) }
            }
        }
        // Random moments as well: where a kill lands is the schedule's and the machine's.
        var schedule = KillSchedule(state: 30)
        for _ in 0..<5 {
            try killedImport { child in
                usleep(UInt32(schedule.next(below: duration)))
                child.kill()
            }
        }
    }
}
