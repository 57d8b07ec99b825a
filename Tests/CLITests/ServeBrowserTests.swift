// `notes serve` in a real browser: Debian's chromium, headless, driven by Playwright for Python
// (serve_browser_check.py beside this file): list, search as you type, a note, ticking a task,
// editing, an edit over a change made elsewhere, adding, asking, the tasks page, and every refusal.
// Screenshots of each page go to $NOTES_TEST_OUTPUT/serve (default: .build/test-output/serve).
import Foundation
import Testing

let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
let playwrightInstalled = FileManager.default.isExecutableFile(atPath: chromium) && venvPythonRuns("import playwright.sync_api")
    && FileManager.default.fileExists(atPath: deps + "/small-reader-model.gguf")

@Suite struct ServeBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("serve_browser_check.py").path
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test(.enabled(if: playwrightInstalled, "Playwright (in $NOTES_DEPS/venv), chromium or the small reading model is not installed: scripts/setup.sh installs them"))
    func aBrowserUsesThePageAndIsRefusedWithoutItsToken() throws {
        let notebook = Notebook()
        _ = try notebook.add("Call the dentist tomorrow")
        _ = try notebook.add("Errands #home\n- [ ] buy milk\n- [ ] post the letter\nSee [[Call the dentist tomorrow]]")
        _ = try notebook.add("Piano lesson moved to Thursday")
        _ = try notebook.add("Odd note\n<script>alert('from the note')</script>")
        let analysed = try notebook.run(["analyze", "--quick"], environment: ["NOTES_EMBEDDING_MODEL": "none", "NOTES_READER_MODEL": "none"])
        #expect(analysed.status == 0, "\(analysed.stderr)")
        // Kept after the run (the notebook's folder is not), for a person to look at.
        let shots = (ProcessInfo.processInfo.environment["NOTES_TEST_OUTPUT"] ?? Self.packageRoot + "/.build/test-output") + "/serve"
        // The server asks with the smallest reading model that answers (the tests' own).
        let (status, text) = try runVenvPython([Self.script, Notebook.binary, notebook.home, shots], home: notebook.root,
                                               environment: ["CHROMIUM": chromium, "NOTES_EMBEDDING_MODEL": "none",
                                                             "NOTES_READER_MODEL": deps + "/small-reader-model.gguf"])
        #expect(status == 0, "\(text)")
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == 13, "\(text)")
        // What the ask page showed as it grew (the model's words vary by machine, so printed only).
        print(text.split(separator: "\n").filter { $0.hasPrefix("answer:") || $0.hasPrefix("ask page:") }.joined(separator: "\n"))
        for name in ["list", "search", "note", "note-with-script", "conflict", "ask", "tasks"] {
            #expect(FileManager.default.fileExists(atPath: "\(shots)/\(name).png"), "screenshot \(name)")
        }
    }
}
