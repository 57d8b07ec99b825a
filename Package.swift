// swift-tools-version:6.0
// The notes package: an offline notes assistant. See README.md and DESIGN.md for the map.
import PackageDescription

let package = Package(
    name: "notes",
    products: [
        .executable(name: "notes", targets: ["notes-cli"]),
    ],
    targets: [
        // C shims. sqlite3 is linked normally: every command needs it. libgit2 and llama.cpp are
        // opened with dlopen on first use, so `notes add` and `notes search` do not pay for loading
        // them (and their OpenSSL, libssh2, ggml, OpenMP dependencies) at start-up.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CGit2", dependencies: ["CLoader"]),
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
        .target(name: "AI", dependencies: ["Notes", "CLlama", "CLoader"]),
        .target(name: "Sync", dependencies: ["Notes", "CGit2"]),
        .executableTarget(name: "notes-cli", dependencies: ["Notes", "Storage", "AI", "Sync"]),

        // Build-time tool that turns migrations/*.sql into Swift source.
        .executableTarget(name: "embed-migrations", path: "Sources/embed-migrations"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["embed-migrations"]),

        .testTarget(name: "NotesTests", dependencies: ["Notes"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Notes"], resources: [.copy("Fixtures")]),
        .testTarget(name: "AITests", dependencies: ["AI", "Notes"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "Notes"]),
        .testTarget(name: "CLITests", dependencies: ["Notes"]),
    ]
)
