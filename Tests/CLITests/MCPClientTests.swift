// `notes mcp` driven by the official MCP Python SDK's stdio client (mcp_client_check.py beside
// this file): both protocol eras, every tool, the resources, change notifications from another
// process, every bad input, and writes refused without --allow-write.
import Foundation
import Testing

/// The SDK, in the project's virtual environment (scripts/setup.sh installs mcp 2.3.0 there).
let mcpPython = deps + "/venv/bin/python"
let mcpSDKInstalled = venvPythonRuns("import importlib.metadata as m, mcp; assert m.version('mcp') == '2.3.0'")

/// The project's Python on `arguments`, with a bare environment and `environment`: its exit
/// status and its output (standard output and error together).
func runVenvPython(_ arguments: [String], home: String, environment: [String: String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: mcpPython)
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"].merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// Whether the project's Python runs `code` without an error (a package the tests need is there).
func venvPythonRuns(_ code: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: mcpPython)
    process.arguments = ["-c", code]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}
let embeddingModel = deps + "/embedding-model.gguf"

@Suite(.serialized) struct MCPClientTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("mcp_client_check.py").path
    static let skipped: Comment = "the MCP Python SDK (mcp 2.3.0) is not installed in $NOTES_DEPS/venv: scripts/setup.sh installs it"

    /// Three notes, one linking to another and one with a checklist, analysed (the quick stage:
    /// tasks from the checklist) and, when the embedding model is installed, with vectors.
    func notebook(analysed: Bool = true) throws -> (Notebook, [String: String]) {
        let notebook = Notebook()
        try notebook.add("Call the dentist tomorrow")
        try notebook.add("Errands #home\n- [ ] buy milk\n- [ ] post the letter\nSee [[Call the dentist tomorrow]]")
        try notebook.add("Piano lesson moved to Thursday")
        let embedding = FileManager.default.fileExists(atPath: embeddingModel) ? embeddingModel : "none"
        if analysed {
            let result = try notebook.run(["analyze", "--quick"], environment: ["NOTES_EMBEDDING_MODEL": embedding])
            #expect(result.status == 0, "\(result.stderr)")
        }
        return (notebook, ["NOTES_EMBEDDING_MODEL": embedding])
    }

    func check(_ notebook: Notebook, environment: [String: String], extra: [String] = []) throws -> (status: Int32, output: String) {
        try runVenvPython([Self.script, Notebook.binary, notebook.home] + extra, home: notebook.root, environment: environment)
    }

    @Test(.enabled(if: mcpSDKInstalled, skipped))
    func theSDKsClientPassesEveryCase() throws {
        let (notebook, environment) = try notebook()
        let (status, output) = try check(notebook, environment: environment)
        #expect(status == 0, "\(output)")
        for line in ["handshake: initialize negotiates 2025-11-25", "stateless: server/discover negotiates 2026-07-28",
                     "handshake: another process's add and edit are notified", "stateless: a listen stream carries another process's changes",
                     "a huge request is an error to its id", "malformed JSON is a parse error", "SIGTERM and SIGINT end the server cleanly",
                     "--allow-write: add, append and done change the notebook"] {
            #expect(output.contains("ok " + line), "\(output)")
        }
    }

    @Test(.enabled(if: mcpSDKInstalled, skipped), .enabled(if: smallReaderInstalled, "the small reading model is not installed (scripts/setup.sh installs it)"))
    func askAnswersWithTheReadingModel() throws {
        let (notebook, environment) = try notebook(analysed: false)
        let (status, output) = try check(notebook, environment: environment, extra: ["--reader", deps + "/small-reader-model.gguf"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("ok ask answers with the reading model"), "\(output)")
    }
}
