// Runs async work to completion from the synchronous command code (the main thread is not part
// of Swift's cooperative pool, so waiting on it here cannot starve the work).
import Dispatch

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

public func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    try waitFor(work, cancelWhen: nil)
}

/// As `waitFor(_:)`, asking `cancelWhen` ten times a second meanwhile: when it says so, the work
/// is cancelled (it stops at its next check of `Task.isCancelled`) and still waited for.
public func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T, cancelWhen: (() -> Bool)?) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    if let cancelWhen {
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if !task.isCancelled, cancelWhen() { task.cancel() }
        }
    } else {
        done.wait()
    }
    return try box.result!.get()
}
