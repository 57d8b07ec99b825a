// Work on a POSIX thread of its own (Foundation's Thread is not linked into the CLI): the daemon's
// query service runs detached, and a search embeds its query while it reads the stored vectors.
import Notes
#if canImport(Glibc)
import Glibc
#endif

/// The result of `body`, computed on another thread; `wait()` joins it.
package final class Background<Value: Sendable>: @unchecked Sendable {
    struct StartError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "cannot start a thread: \(FileSystem.message(errno: code))" }
    }

    private let body: @Sendable () throws -> Value
    /// Written by the thread before it ends; read only after `pthread_join`, which orders the two.
    private var result: Result<Value, any Error>?
    private var thread = pthread_t()
    private var joined = false

    package init(_ body: @escaping @Sendable () throws -> Value) throws {
        self.body = body
        try start()
    }

    private func start() throws {
        thread = try ThreadStart.spawn { [self] in run() }
    }

    private func run() {
        do { result = .success(try body()) } catch { result = .failure(error) }
    }

    deinit { if !joined { pthread_detach(thread) } }

    /// Blocks until `body` has returned, then returns what it returned or throws what it threw.
    package func wait() throws -> Value {
        if !joined {
            pthread_join(thread, nil)
            joined = true
        }
        return try result!.get()
    }

    /// Runs `body` on a thread nobody waits for.
    package static func detach(_ body: @escaping @Sendable () -> Void) throws where Value == Void {
        _ = try Background(body)
    }
}

/// The thread's entry point: a C function cannot capture a generic type, so it calls this box.
private final class ThreadStart {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }

    static func spawn(_ body: @escaping () -> Void) throws -> pthread_t {
        let context = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            throw Background<Void>.StartError(code: status)
        }
        return thread
    }
}
