// Shared by the test targets: temporary directories and running commands.
import Foundation

/// A fresh directory under the system's temporary directory, removed with the value.
public final class TemporaryDirectory {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "notes-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a command and returns its standard output; throws when it exits non-zero.
@discardableResult
public func run(_ arguments: [String], in directory: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CommandError(command: arguments.joined(separator: " "), status: process.terminationStatus,
                           stderr: String(decoding: errorData, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self)
}

public struct CommandError: Error, CustomStringConvertible {
    public let command: String
    public let status: Int32
    public let stderr: String

    public init(command: String, status: Int32, stderr: String) {
        self.command = command
        self.status = status
        self.stderr = stderr
    }

    public var description: String { "\(command) exited \(status): \(stderr)" }
}

/// A value one thread writes and another reads, under a lock.
public final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    public func mutate(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// The category model set-up installs (`NOTES_MODEL` names another), for the tests that run it.
public enum DefaultModelFile {
    public static let path = ProcessInfo.processInfo.environment["NOTES_MODEL"]
        ?? (ProcessInfo.processInfo.environment["NOTES_DEPS"] ?? "/opt/notes-deps") + "/default-model.gguf"
    public static var isPresent: Bool { FileManager.default.fileExists(atPath: path) }
}

/// Runs `work`, which blocks (a socket read, a stream waited for), on a thread of its own: a test
/// that blocked one of Swift's few cooperative threads could starve the task it waits for.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
