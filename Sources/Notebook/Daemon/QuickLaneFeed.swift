// Tells the quick lane of each change to the notebook, from a thread of its own: the daemon's
// loop cannot, since it may be loading a model or reading a note for many seconds.
#if canImport(Glibc)
import Glibc
#endif
import Notes

final class QuickLaneFeed: @unchecked Sendable {
    /// Written to by `stop()`; the thread ends when its read end becomes readable.
    private let stopEnds: [Int32]
    private let thread: Background<Void>

    /// Watches `directory` (the database and its WAL, `fileNames`) and calls
    /// `lane.notebookChanged()` on each change.
    init(directory: String, fileNames: Set<String>, lane: QuickLane) throws {
        let changes = try FileChanges(directory: directory, fileNames: fileNames)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw DaemonStartError(description: "cannot start the quick stage's watch: \(FileSystem.message(errno: errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopEnds = ends
        let stopEnd = ends[0]
        nonisolated(unsafe) let watched = changes
        do {
            thread = try Background {
                while true {
                    var descriptors = [pollfd(fd: watched.descriptor, events: Int16(POLLIN), revents: 0),
                                       pollfd(fd: stopEnd, events: Int16(POLLIN), revents: 0)]
                    guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
                    if descriptors[1].revents != 0 { return }
                    if descriptors[0].revents != 0, watched.drain() { lane.notebookChanged() }
                }
            }
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
    }

    /// Ends the thread and waits for it.
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopEnds[1], &byte, 1)
        _ = try? thread.wait()
        close(stopEnds[0])
        close(stopEnds[1])
    }
}
