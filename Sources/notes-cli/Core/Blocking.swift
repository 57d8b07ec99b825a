// Runs async work to completion from the synchronous command code (the main thread is not part
// of Swift's cooperative pool, so waiting on it here cannot starve the work).
import Dispatch

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}
