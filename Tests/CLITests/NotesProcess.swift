// Runs the built `notes` binary in a private NOTES_HOME and captures what it prints.
import Foundation
import TestSupport
import Notes

struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
    let stdoutBytes: Data

    var json: Any? { try? JSONSerialization.jsonObject(with: stdoutBytes) }
}

/// A notebook in a temporary directory, and the binary to drive it.
final class Notebook {
    let home: String
    let root: String

    /// `.build/debug/notes`, found from this file's path (Tests/CLITests/ under the package).
    static let binary: String = {
        if let explicit = ProcessInfo.processInfo.environment["NOTES_BINARY"] { return explicit }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/notes").path
    }()

    /// Every command runs as the user nobody (through setpriv), for what root may do and a user
    /// may not (read a directory without permission) when the tests run as root, as in CI.
    let asNobody: Bool

    init(asNobody: Bool = false) {
        root = NSTemporaryDirectory() + "notes-cli-" + UUID().uuidString
        home = root + "/home"
        self.asNobody = asNobody
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if asNobody { chown(root, Notebook.nobody, Notebook.nobody) }
    }

    static let nobody: UInt32 = 65534

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var databasePath: String { home + "/notes.sqlite" }

    /// What every `notes` the tests run sees. The reading model is off (the rules give tasks
    /// and summaries) unless a test turns it on: it takes seconds a note. So is the embedding
    /// model (search is by words, as those tests expect), except in the tests of search by meaning.
    static func environment(home: String, root: String) -> [String: String] {
        var env = ["NOTES_HOME": home, "PATH": "/usr/bin:/bin", "HOME": root, "LANG": "C.UTF-8", "NOTES_READER_MODEL": "none",
                   "NOTES_EMBEDDING_MODEL": "none"]
        if let deps = ProcessInfo.processInfo.environment["NOTES_DEPS"] { env["NOTES_DEPS"] = deps }
        return env
    }

    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> RunResult {
        let process = Process()
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(Notebook.nobody)", "--regid=\(Notebook.nobody)", "--clear-groups", "--", Notebook.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Notebook.binary)
            process.arguments = arguments
        }
        var env = Notebook.environment(home: home, root: root)
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        // Feed and drain concurrently so large inputs and outputs cannot deadlock on pipe buffers.
        let writer = Thread {
            if let stdin { input.fileHandleForWriting.write(stdin) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = Shared(Data())
        let errorRead = DispatchSemaphore(value: 0)
        let errorReader = Thread {
            errorData.value = errors.fileHandleForReading.readDataToEndOfFile()
            errorRead.signal()
        }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        return RunResult(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData.value, as: UTF8.self), stdoutBytes: outputData)
    }

    /// `notes add TEXT` and the id it printed.
    func add(_ text: String, _ extra: [String] = []) throws -> String {
        let result = try run(["add"] + extra + [text])
        guard result.status == 0 else { throw NotebookError.failed(result.stderr) }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The handle `notes list` shows for the note, computed from every id in the notebook.
    func handle(of id: String) throws -> String {
        let all = (try run(["list", "--json"]).json as? [[String: Any]] ?? []).compactMap { ($0["id"] as? String).flatMap(NoteID.init) }
        guard let noteID = NoteID(id), let handle = NoteHandle.handles(for: [noteID], among: all)[noteID] else { throw NotebookError.failed("no note \(id)") }
        return handle
    }

    func noteJSON(_ id: String) throws -> [String: Any] {
        try run(["show", id, "--json"]).json as? [String: Any] ?? [:]
    }
}

enum NotebookError: Error { case failed(String) }

/// A child's output read as it comes on a thread of its own: kept, copied to a file, and
/// waited on for what it says (`wait`) or for its end (the child exited, or closed it).
final class WatchedOutput {
    /// Only ends a wait that would never end (a child that hangs without a word): no test's
    /// outcome depends on it.
    static let hangGuard: TimeInterval = 600

    private let condition = NSCondition()
    private var bytes = Data()
    private var ended = false

    init(_ handle: FileHandle, copyingTo path: String? = nil) {
        let file = path.flatMap { path -> FileHandle? in
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                file?.write(chunk)
                condition.lock()
                bytes.append(chunk)
                condition.broadcast()
                condition.unlock()
            }
            try? file?.close()
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Blocks until `holds` is true of the output so far (true), or the output ends without it (false).
    func wait(until holds: (String) -> Bool) -> Bool {
        let guardTime = Date().addingTimeInterval(Self.hangGuard)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if holds(String(decoding: bytes, as: UTF8.self)) { return true }
            if ended || !condition.wait(until: guardTime) { return false }
        }
    }

    /// Blocks until the output has ended.
    func waitForEnd() { _ = wait { _ in false } }
}
