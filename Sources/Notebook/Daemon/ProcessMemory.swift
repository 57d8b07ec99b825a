// What the daemon asks of glibc's allocator so that a model's memory goes back to the system
// when the model is unloaded (bench/daemon/RESULTS.md).
#if canImport(Glibc)
import Glibc
#endif

public enum ProcessMemory {
    /// Freed model memory stays in the process's heap unless it is handed back (`malloc_trim`).
    public static func giveMemoryBack() {
        typealias Trim = @convention(c) (Int) -> Int32
        _ = glibc("malloc_trim", as: Trim.self)?(0)
    }

    /// Blocks of 1 MB and more (a model's buffers) get pages of their own, which go back to the
    /// system when freed: glibc otherwise raises that limit after the first free to 32 MB, and
    /// buffers under it land in a heap that a sleep cannot always hand back.
    public static func keepLargeBlocksReturnable() {
        typealias SetOption = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3 // M_MMAP_THRESHOLD
        _ = glibc("mallopt", as: SetOption.self)?(mmapThreshold, 1 << 20)
    }

    /// A glibc function no Swift module exports, looked up at run time (other C libraries lack it).
    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
        return dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        #else
        return nil
        #endif
    }
}
