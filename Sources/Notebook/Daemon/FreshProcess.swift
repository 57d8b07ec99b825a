// The daemon sleeps as a fresh process. An unloaded model leaves its many small blocks (the
// vocabulary's strings, llama.cpp's metadata) scattered through glibc's heaps, and in about half
// the sleeps 100 to 150 MB of them could not be handed back, by malloc_trim or one arena
// (bench/daemon/RESULTS.md, Dec 2). A new process image holds none of it; the pid stays, so
// systemd and `notes daemon status` see the same daemon, and the notebook, the queue and the
// prefix cache are on disk, so nothing is lost with the old image.
#if canImport(Glibc)
import Glibc
#endif
import Notes

public enum FreshProcess {
    public enum Outcome {
        /// A stop signal had arrived: the process should stop instead.
        case signalled
        /// The exec failed, for this reason: the process carries on as it is.
        case failed(String)
    }

    /// Replaces this process by a new run of its own executable with `arguments` (argv[0]
    /// first), keeping the pid, the environment and the standard streams; every other
    /// descriptor must be close-on-exec, or each sleep would leak it. Returns only when it did
    /// not happen.
    ///
    /// `signals` stay blocked over the exec: one that arrives meanwhile waits, pending, for the
    /// new image's handlers instead of killing the process with the default action.
    /// `signalled` is asked once they are blocked, for one that another thread already caught.
    /// Other threads keep them unblocked: one caught there in the microseconds between that
    /// question and the exec is lost with the old image (the daemon then sleeps on, and a second
    /// SIGTERM stops it).
    public static func replace(arguments: [String], holding signals: [Int32], unless signalled: () -> Bool) -> Outcome {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for number in signals { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        if signalled() { return .signalled }
        let vector = arguments.map { strdup($0) } + [nil]
        defer { vector.forEach { free($0) } }
        execv("/proc/self/exe", vector)
        return .failed(FileSystem.message(errno: errno))
    }
}
