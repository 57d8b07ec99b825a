// The architecture's rule, checked on the sources: the executable imports Notebook and Notes
// only (its logic lives in Notebook), and the MCP target is the protocol, knowing no notebook.
import Foundation
import Testing

struct ExecutableImportsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every module a target's Swift files import, with the files that import it.
    static func imports(of target: String) throws -> [String: [String]] {
        let root = sources.appendingPathComponent(target)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [:] }
        var found: [String: [String]] = [:]
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                      index + 1 < words.count else { continue }
                found[String(words[index + 1]), default: []].append(path)
            }
        }
        return found
    }

    @Test func theExecutableImportsNotebookAndNotesOnly() throws {
        let found = try Self.imports(of: "notes-cli")
        #expect(found["Notebook"] != nil)
        #expect(found.filter { !["Notebook", "Notes"].contains($0.key) } == [:])
    }

    @Test func theProtocolTargetKnowsNoNotebook() throws {
        let found = try Self.imports(of: "MCP")
        #expect(!found.isEmpty)
        #expect(found.filter { !["Notes", "Glibc"].contains($0.key) } == [:])
    }
}
