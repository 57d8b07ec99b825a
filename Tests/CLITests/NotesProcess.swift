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
        let errorReader = Thread { errorData.value = errors.fileHandleForReading.readDataToEndOfFile() }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errorReader.isExecuting || !errorReader.isFinished { usleep(1000) }
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
