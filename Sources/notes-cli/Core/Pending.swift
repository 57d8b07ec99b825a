// What an empty answer leaves out: notes not analysed yet, or without their vectors. Said where
// the answer depends on them (tasks, categories, search, related notes), so that "No notes
// match" is never read as "there are none" while `status` counts notes still pending.
import Notebook
import Notes

extension Context {
    /// "3 notes are not analysed yet ...", or nil when every note is (or the count cannot be read).
    func pendingAnalysisNotice() -> String? {
        guard let notebook = try? notebook(),
              let pending = try? notebook.pendingAnalysisCount(analyzerVersion: Analyzers.make(environment: environment).analyzerVersion),
              pending > 0 else { return nil }
        return "\(pending) note\(pending == 1 ? " is" : "s are") not analysed yet (their tasks and categories are not known): "
            + "run 'notes analyze', or start 'notes daemon' to keep every note analysed."
    }

    /// "5 notes wait for their vectors ...", or nil when none do.
    func pendingVectorsNotice(embedderVersion: String?) -> String? {
        guard let version = embedderVersion, let notebook = try? notebook(),
              let waiting = try? notebook.lackingVectorCount(model: version), waiting > 0 else { return nil }
        return "\(waiting) note\(waiting == 1 ? " waits" : "s wait") for \(waiting == 1 ? "its vector" : "their vectors"): "
            + "run 'notes analyze --vectors', or start 'notes daemon'."
    }

    /// Prints `message` on standard error, and after it the notice, if any.
    func printEmpty(_ message: String, notice: String?) {
        terminal.printError(message)
        if let notice { terminal.printError(notice) }
    }
}
