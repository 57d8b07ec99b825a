// The quick stage on a thread of its own, so that a new note gets its category, tasks and
// deadlines within moments whatever the full stage is doing: loading the models, reading another
// note, or asleep.
import Dispatch
import Notes
import Storage
import Synchronization

/// Gives every note that has no analysis of its current text the quick stage without the model
/// (the category from the note's tags and keywords, the rules' tasks and deadlines), on a thread
/// nothing else uses, with a connection to the notebook of its own: it never waits for a model
/// to load, for a generation, or for the daemon's loop. The full stage replaces that analysis
/// later (its category is the model's); the quick stage with the model still runs on the
/// daemon's loop when it reaches a note first.
///
/// SQLite's rule is kept: each connection has one owner (this lane's is opened, used and closed
/// on its thread), and the two writers meet only in the database's own locking (WAL and the busy
/// timeout, as the CLI and the daemon always have).
public final class QuickLane: Sendable {
    private let wakes: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    /// Starts the lane, which at once looks for notes waiting for their quick stage; after that,
    /// it looks again on each `notebookChanged()`. `openStore` runs on the lane's thread.
    /// `failed`: the notebook could not be opened or read (the lane then stops). `report` is
    /// given each event with the handle of a note (as `notes list` shows it), looked up on the
    /// lane's own connection.
    public init(openStore: @escaping @Sendable () throws -> NoteStore, analyzer: any NoteAnalyzing,
                clock: @escaping @Sendable () -> Timestamp, report: @escaping @Sendable (AnalysisEvent, _ handle: (NoteID) -> String) -> Void,
                failed: @escaping @Sendable (any Error) -> Void) throws {
        let executor = try ThreadExecutor()
        let (stream, wakes) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakes.yield()
        self.wakes = wakes
        task = Task(executorPreference: executor) {
            defer { executor.stop() }
            do {
                let store = try openStore()
                let queue = AnalysisQueue(store: store, analyzer: analyzer, clock: clock) { event in
                    report(event) { (try? store.handle(of: $0)) ?? $0.rawValue }
                }
                for await _ in stream {
                    while !Task.isCancelled, try await queue.quickStepWithoutModel() {}
                }
            } catch {
                failed(error)
            }
        }
    }

    /// The notebook changed (a note added or edited): its quick stage is due.
    public func notebookChanged() { wakes.yield() }

    /// Ends the lane after the note it is analysing, and waits for that; its connection is then closed.
    public func stop() async {
        wakes.finish()
        await task.value
    }
}

/// Runs the jobs of the tasks that prefer it on one POSIX thread of its own, one after another:
/// the lane's work never waits for a thread of Swift's cooperative pool, which on two cores the
/// full stage's model can keep busy for seconds.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = Mutex<(queue: [UnownedJob], stopped: Bool)>(([], false))
    private let available = DispatchSemaphore(value: 0)

    init() throws {
        try Background.detach { [self] in run() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.queue.append(job) }
        available.signal()
    }

    /// The thread ends once the jobs enqueued so far have run.
    func stop() {
        jobs.withLock { $0.stopped = true }
        available.signal()
    }

    private func run() {
        while true {
            available.wait()
            let next: UnownedJob? = jobs.withLock { state in state.queue.isEmpty ? nil : state.queue.removeFirst() }
            if let next {
                next.runSynchronously(on: asUnownedTaskExecutor())
            } else if jobs.withLock({ $0.stopped && $0.queue.isEmpty }) {
                return
            }
        }
    }
}
