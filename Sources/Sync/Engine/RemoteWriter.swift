// The kernel lock every notes writer of a path remote holds while it writes there, and the list,
// in the lock's file, of the lock files its writes may leave: how a sync knows a dead writer's.
import Notes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One sync's writes to a path remote, from removing what a dead writer left to the last ref it
/// moves (see `GitLocks` for the rule this serves). Not Sendable: one sync owns it.
final class RemoteWriter {
    static let fileName = "notes-writer.lock"

    /// How long a sync waits for another machine's writes to the remote to end. An incremental
    /// sync writes for well under a second; the first sync of a large notebook to a slow disk,
    /// a few seconds. A holder that keeps it longer is stopped or on a hung disk, and the user
    /// is told that another machine is syncing.
    static let patience: Duration = .seconds(10)

    /// The lock held, nil when the remote cannot hold one for every writer (see
    /// `sharesLocks(at:)`); the writes then go ahead under the age rule alone.
    private let lock: FileLock?
    /// What the previous holder named and never cleared: it died while writing them.
    let leftByDeadWriter: [String]
    private var named: [String] = []

    private init(lock: FileLock?, leftByDeadWriter: [String]) {
        self.lock = lock
        self.leftByDeadWriter = leftByDeadWriter
    }

    /// The remote's writer lock, or nil when another writer, alive, still holds it after
    /// `patience`. A lock file that cannot be opened for writing (a read-only mount, another
    /// user's directory, a remote gone missing) is no reason to stop here: the write that
    /// follows fails, and says why, or goes through under the age rule.
    static func begin(remote gitDirectory: String, patience: Duration) -> RemoteWriter? {
        guard sharesLocks(at: gitDirectory) else { return RemoteWriter(lock: nil, leftByDeadWriter: []) }
        let path = gitDirectory + "/" + fileName
        let lock: FileLock
        do {
            guard let held = try FileLock.acquire(.exclusive, at: path, patience: patience) else { return nil }
            lock = held
        } catch {
            return RemoteWriter(lock: nil, leftByDeadWriter: [])
        }
        let record = (try? FileSystem.read(path, limit: 64 * 1024)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let left = record.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        // Acted on once: if this sync dies before it names anything, the next one must not take
        // a new fresh lock for the dead writer's.
        try? lock.write([])
        return RemoteWriter(lock: lock, leftByDeadWriter: left)
    }

    /// Names, before a write, the lock files it may leave (patterns relative to the git
    /// directory, as `GitLocks.isNamed` reads them). Written without fsync: a killed process's
    /// writes stay in the kernel; after a power cut the list may be gone, and what it named
    /// then waits for the age rule, which is the safe side.
    func willLeave(_ patterns: [String]) {
        guard let lock else { return }
        named += patterns
        let header = """
            # A notes sync writing this remote holds this file's lock (flock). If no process holds it,
            # that sync died, and the lock files below, if they are there, are its.

            """
        do { try lock.write(Array((header + named.joined(separator: "\n") + "\n").utf8)) } catch {
            // An empty file names nothing: a lock this write leaves then waits for the age rule.
            named = []
        }
    }

    /// The writes are over: nothing of this sync's is left to remove.
    func end() {
        named = []
        try? lock?.write([])
    }

    /// Whether an flock on a file at `path` excludes every process that may write there: true
    /// for filesystems on this machine's own disks and memory, where every writer runs on this
    /// kernel (a USB disk is mounted on one machine at a time). Network filesystems are left
    /// out: NFS passes an flock to its server unless mounted with `nolock` or `local_lock`, and
    /// sshfs and SMB may keep it on the client, so another machine could write while this one
    /// holds it and mistake that machine's live locks for a dead writer's. The type is the one
    /// /proc/self/mountinfo gives the path's device (its third field, after " - ").
    static func sharesLocks(at path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, let table = try? FileSystem.read("/proc/self/mountinfo") else { return false }
        let device = UInt64(info.st_dev)
        // glibc's major() and minor(), which Swift does not import.
        let major = (device >> 8) & 0xFFF | (device >> 32) & ~0xFFF, minor = device & 0xFF | (device >> 12) & ~0xFF
        let types = String(decoding: table, as: UTF8.self).split(separator: "\n").compactMap { line -> Substring? in
            let fields = line.split(separator: " ")
            guard fields.count > 2, fields[2] == "\(major):\(minor)", let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { return nil }
            return fields[dash + 1]
        }
        return !types.isEmpty && types.allSatisfy { localFilesystems.contains(String($0)) }
    }

    /// Filesystems that live on this machine's disks or memory (`fuseblk`: a FUSE driver of a
    /// local disk, such as ntfs-3g; other FUSE filesystems, sshfs among them, are not).
    private static let localFilesystems: Set<String> = [
        "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "zfs", "bcachefs", "jfs", "reiserfs", "nilfs2",
        "tmpfs", "ramfs", "overlay", "vfat", "msdos", "exfat", "ntfs", "ntfs3", "hfsplus", "udf", "fuseblk",
    ]
}
