// Build-tool plugin: embeds migrations/*.sql (at the package root) into the Storage module, so
// the binary never looks for schema files at run time.
import PackagePlugin
import Foundation

@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "migrations")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations",
                executable: try context.tool(named: "embed-migrations").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: [directory] + files,
                outputFiles: [output]
            ),
        ]
    }
}
