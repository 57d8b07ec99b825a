// Writes to chosen files of one directory, as inotify reports them: the daemon's loop and the
// quick lane's feed each hold one (inotify, unlike a signal, serves any number of watchers).
#if canImport(Glibc)
import Notes
import Glibc
#endif

final class FileChanges {
    /// Readable when a change is queued: for poll(2).
    let descriptor: Int32
    private let fileNames: Set<String>

    init(directory: String, fileNames: Set<String>) throws {
        self.fileNames = fileNames
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw DaemonStartError(description: "cannot watch \(directory) for changes: \(FileSystem.message(errno: errno))") }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        // Until every property is set a throw runs no deinit: close what is open here.
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            let failure = DaemonStartError(description: "cannot watch \(directory) for changes: \(FileSystem.message(errno: errno))")
            close(descriptor)
            throw failure
        }
    }

    deinit {
        close(descriptor)
    }

    /// Reads every queued event; true when one names a watched file.
    func drain() -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                if fileNames.contains(String(decoding: nameBytes, as: UTF8.self)) { relevant = true }
                offset += header + length
            }
        }
    }
}
