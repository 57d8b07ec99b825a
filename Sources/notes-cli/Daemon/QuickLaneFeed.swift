// Tells the quick lane of each change to the notebook, from a thread of its own: the daemon's
// loop cannot, since it may be loading a model or reading a note for many seconds.
#if canImport(Glibc)
import Glibc
#endif
import Notebook
import Notes

final class QuickLaneFeed: @unchecked Sendable {
    private let inotify: Int32
    /// Written to by `stop()`; the thread ends when it becomes readable.
    private let stopEnds: [Int32]
    private let thread: Background<Void>

    /// Watches `directory` (the database and its WAL, `fileNames`) with inotify, which unlike
    /// signals any number of watchers can share, and calls `lane.notebookChanged()` on each change.
    init(directory: String, fileNames: Set<String>, lane: QuickLane) throws {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw CommandFailure("cannot watch \(directory) for changes: \(FileSystem.message(errno: errno))") }
        var ends: [Int32] = [0, 0]
        guard inotify_add_watch(inotify, directory, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)) >= 0,
              pipe2(&ends, Int32(O_CLOEXEC)) == 0 else {
            let failure = CommandFailure("cannot watch \(directory) for changes: \(FileSystem.message(errno: errno))")
            close(inotify)
            throw failure
        }
        self.inotify = inotify
        stopEnds = ends
        let stopEnd = ends[0]
        thread = try Background {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stopEnd, events: Int16(POLLIN), revents: 0)]
                guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
                if descriptors[1].revents != 0 { return }
                guard descriptors[0].revents != 0 else { continue }
                var changed = false
                while true {
                    let count = read(inotify, &buffer, buffer.count)
                    guard count > 0 else { break }
                    var offset = 0
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let (length, name) = buffer.withUnsafeBytes { raw -> (Int, String) in
                            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                            let start = offset + MemoryLayout<inotify_event>.size
                            let bytes = raw[start..<min(count, start + Int(event.len))].prefix { $0 != 0 }
                            return (Int(event.len), String(decoding: bytes, as: UTF8.self))
                        }
                        if fileNames.contains(name) { changed = true }
                        offset += MemoryLayout<inotify_event>.size + length
                    }
                }
                if changed { lane.notebookChanged() }
            }
        }
    }

    /// Ends the thread and waits for it.
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopEnds[1], &byte, 1)
        _ = try? thread.wait()
        close(inotify)
        close(stopEnds[0])
        close(stopEnds[1])
    }
}
