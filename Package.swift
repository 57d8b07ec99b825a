// swift-tools-version:6.0
// The notes package: an offline notes assistant. See README.md and docs/ARCHITECTURE.md for the map.
import PackageDescription

let package = Package(
    name: "notes",
    products: [
        .executable(name: "notes", targets: ["notes-cli"]),
        // The fakes the tests use (a token model, an analyzer, an embedder, an in-memory notebook)
        // and their helpers, for a library or a benchmark built on the notebook.
        .library(name: "NotesTestSupport", targets: ["TestSupport", "AITestSupport", "NotebookTestSupport"]),
    ],
    targets: [
        // C shims. sqlite3 is linked normally: every command needs it. libgit2 and llama.cpp are
        // opened with dlopen on first use, so `notes add` and `notes search` do not pay for loading
        // them (and their OpenSSL, libssh2, ggml, OpenMP dependencies) at start-up.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CGit2", dependencies: ["CLoader"]),
        // libsodium (encrypted remotes) is opened the same way, by the first sync that needs it.
        .target(name: "CSodium", dependencies: ["CLoader"]),
        // libmicrohttpd (`notes serve`'s page) the same way, by the first `notes serve`.
        .target(name: "CMicroHTTPD", dependencies: ["CLoader"]),
        // Header-only over the pinned llama.cpp install, through the pkg-config file that
        // scripts/setup.sh writes (see Sources/CLlama/shim.h).
        .systemLibrary(name: "CLlama", pkgConfig: "notes-llama"),

        // The domain: pure values and rules, no I/O.
        .target(name: "Notes"),
        // The only code that speaks SQL. Migrations are embedded at build time from migrations/.
        .target(
            name: "Storage",
            dependencies: ["Notes", "CSQLite"],
            plugins: ["EmbedMigrations"]
        ),
        // Optimised even in debug builds: guided decoding walks a 49k-token trie per step, and
        // unoptimised it makes the model tests (and a debug `notes daemon`) twenty times slower.
        .target(name: "AI", dependencies: ["Notes", "CLlama", "CLoader"], swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // The analysis of a note on that runtime: the analyzer, the reader, their prompts, the
        // category scorer and the vote of the labelled notes. (Optimised in debug too: the
        // scorer's keyword tables and the vote run on every note of a test.)
        .target(name: "Analysis", dependencies: ["Notes", "AI"], swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "Sync", dependencies: ["Notes", "CGit2", "CSodium"]),
        // The notebook on this machine: the application's flow between the CLI and the libraries.
        // The Model Context Protocol itself (JSON-RPC framing, revisions, tool schemas), knowing
        // nothing of notes; the notebook's server on it is Notebook/MCP.
        .target(name: "MCP", dependencies: ["Notes"]),
        // The notebook on this machine: the application's flow between the CLI and the libraries.
        .target(name: "Notebook", dependencies: ["Notes", "Storage", "AI", "Analysis", "Sync", "MCP", "CMicroHTTPD"]),
        // The executable parses, calls one use case of Notebook and prints.
        .executableTarget(name: "notes-cli", dependencies: ["Notes", "Notebook"]),
        .executableTarget(name: "ai-bench", dependencies: ["AI", "Notes"], path: "bench/ai/Sources"),
        .executableTarget(name: "analysis-eval", dependencies: ["AI", "Analysis", "Notes"], path: "bench/analysis/Sources"),
        // `swift run -c release sync-bench`: the sync against the git command line (bench/sync).
        .executableTarget(name: "sync-bench", dependencies: ["Sync", "Notes", "TestSupport"], path: "bench/sync/Sources"),
        // `swift run -c release ask-bench`: the `notes ask` flow question by question (bench/ask).
        .executableTarget(name: "ask-bench", dependencies: ["AI", "Analysis", "Notebook", "Notes", "Storage"], path: "bench/ask/Sources"),

        // Build-time tool that turns migrations/*.sql into Swift source.
        .executableTarget(name: "embed-migrations", path: "Sources/embed-migrations"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["embed-migrations"]),

        .testTarget(name: "NotesTests", dependencies: ["Notes", "TestSupport"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Notes", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AITests", dependencies: ["AI", "Notes", "TestSupport", "AITestSupport"]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "AI", "Notes", "TestSupport"]),
        .testTarget(name: "NotebookTests", dependencies: ["Notebook", "Analysis", "Storage", "Notes", "Sync", "AI", "TestSupport", "NotebookTestSupport"]),
        .testTarget(name: "MCPTests", dependencies: ["MCP", "Notebook", "Storage", "Notes", "TestSupport"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "Notes", "TestSupport"]),
        // Swift 5 mode: these tests share pipes and threads the way Foundation's Process needs.
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "Notes"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // What the tests and benchmarks share: temporary directories, commands, an ssh server, an
        // in-memory notebook and deterministic notes.
        .target(name: "TestSupport", dependencies: ["Notes"], path: "Tests/TestSupport"),
        // The fakes of the model ports, each checked by the contract tests its real type passes:
        // a seeded token model (AITests/TokenModelContractTests) ...
        .target(name: "AITestSupport", dependencies: ["AI", "Notes"], path: "Tests/AITestSupport"),
        // ... and an analyzer and an embedder without a model (NotebookTests/*ContractTests).
        .target(name: "NotebookTestSupport", dependencies: ["Notebook", "Notes"], path: "Tests/NotebookTestSupport"),
    ]
)
