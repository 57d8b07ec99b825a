// Bad input: every case gets a clear message and loses nothing.
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct BadInputTests {
    @Test func emptyNotesAreRefused() throws {
        let notebook = Notebook()
        for stdin in ["", "  \n\t\n"] {
            let result = try notebook.run(["add"], stdin: Data(stdin.utf8))
            #expect(result.status == 1)
            #expect(result.stderr.contains("the note is empty"))
        }
        #expect(try notebook.run(["add", "   "]).status == 1)
    }

    @Test func aTenMegabyteNoteIsStoredWhole() throws {
        let notebook = Notebook()
        var text = "Huge note\n"
        while text.utf8.count < 10 * 1024 * 1024 { text += "line \(text.utf8.count) with ünïcödé ✓ and words to index\n" }
        let result = try notebook.run(["add"], stdin: Data(text.utf8))
        #expect(result.status == 0)
        let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stored = try notebook.noteJSON(id)["body"] as? String
        #expect(stored == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try notebook.run(["search", "ünïcödé", "--json"]).status == 0)
    }

    @Test func nulBytesAndInvalidUTF8AreRefusedWithNothingSaved() throws {
        let notebook = Notebook()
        let nul = try notebook.run(["add"], stdin: Data([0x61, 0x00, 0x62]))
        #expect(nul.status == 1)
        #expect(nul.stderr.contains("NUL byte at offset 1"))
        let invalid = try notebook.run(["add"], stdin: Data([0x61, 0x62, 0xC3, 0x28]))
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("not valid UTF-8"))
        #expect(try notebook.run(["list", "--json"]).stdout == "[]\n")
    }

    @Test func unknownAndAmbiguousIds() throws {
        let notebook = Notebook()
        let first = try notebook.add("first")
        let second = try notebook.add("second")
        let unknown = try notebook.run(["show", "ffffffff"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no note matches 'ffffffff'"))
        let common = String(zip(first, second).prefix { $0 == $1 }.map(\.0))
        if common.count >= 4 {
            let ambiguous = try notebook.run(["show", common])
            #expect(ambiguous.status == 1)
            // The candidates by the handles `list` shows, which the user can type.
            #expect(ambiguous.stderr.contains("  \(try notebook.handle(of: first))  first"))
            #expect(ambiguous.stderr.contains("  \(try notebook.handle(of: second))  second"))
        }
        #expect(try notebook.run(["show", "not-hex!"]).status == 1)
    }

    /// `notes list` shows each note's handle (its id's last digits), and every command that
    /// reads an id takes it, or any unique start or end of the id.
    @Test func handlesFromTheListAreWhatCommandsRead() throws {
        let notebook = Notebook()
        let ids = try (0..<5).map { try notebook.add("note \($0) #t") }
        let lines = try notebook.run(["list"]).stdout.split(separator: "\n")
        #expect(lines.count == 5)
        for id in ids {
            let handle = try notebook.handle(of: id)
            #expect(handle.count >= 6 && id.hasSuffix(handle))
            #expect(lines.contains { $0.hasPrefix(handle + "  ") }, "\(lines)")
            #expect(try notebook.noteJSON(handle)["id"] as? String == id)
            #expect(try notebook.noteJSON(String(id.suffix(9)))["id"] as? String == id)
            #expect(try notebook.noteJSON(String(id.prefix(36)))["id"] as? String == id)
        }
        // Made within a second, they share the start of their ids (all five but once in 4.6
        // hours of the clock): ambiguous, with the candidates.
        let start = String(ids[4].prefix(6))
        let sharing = ids.filter { $0.hasPrefix(start) }
        let ambiguous = try notebook.run(["show", start])
        if sharing.count > 1 {
            #expect(ambiguous.status == 1)
            #expect(ambiguous.stderr.contains("matches \(sharing.count) notes"), "\(ambiguous.stderr)")
            for id in sharing { #expect(ambiguous.stderr.contains("  \(try notebook.handle(of: id))  ")) }
        }
        let first = try notebook.handle(of: ids[0])
        let removed = try notebook.run(["rm", "-f", first])
        #expect(removed.status == 0 && removed.stderr.contains("Deleted \(first)  note 0"), "\(removed.stderr)")
    }

    @Test func aCorruptDatabaseIsReportedAndNeverOverwritten() throws {
        let notebook = Notebook()
        try FileManager.default.createDirectory(atPath: notebook.home, withIntermediateDirectories: true)
        let garbage = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try garbage.write(to: URL(fileURLWithPath: notebook.databasePath))
        for arguments in [["list"], ["add", "new note"], ["search", "x"], ["status"]] {
            let result = try notebook.run(arguments)
            #expect(result.status == 1)
            #expect(result.stderr.contains("is not a notes database or is damaged"))
            #expect(result.stderr.contains("left untouched"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: notebook.databasePath)) == garbage)
    }

    @Test func aReadOnlyDatabaseIsReported() throws {
        let notebook = Notebook()
        _ = try notebook.add("kept")
        // Root ignores file modes, so make the file read-only for everyone with SQLite's own view:
        // a database opened through a read-only directory and file.
        chmod(notebook.databasePath, 0o400)
        chmod(notebook.home, 0o500)
        defer {
            chmod(notebook.home, 0o700)
            chmod(notebook.databasePath, 0o600)
        }
        guard getuid() != 0 else {
            // As root, only an immutable file is truly read-only.
            let immutable = Process()
            immutable.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            immutable.arguments = ["+i", notebook.databasePath]
            immutable.standardError = FileHandle.nullDevice
            try? immutable.run()
            immutable.waitUntilExit()
            defer {
                let undo = Process()
                undo.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
                undo.arguments = ["-i", notebook.databasePath]
                try? undo.run()
                undo.waitUntilExit()
            }
            guard immutable.terminationStatus == 0 else { return } // chattr unsupported here: nothing to check as root.
            let result = try notebook.run(["add", "new"])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("Error: "))
            return
        }
        let result = try notebook.run(["add", "new"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("read-only") || result.stderr.contains("cannot open"))
    }

    @Test func concurrentWritersAndAReaderLoseNothing() throws {
        let notebook = Notebook()
        _ = try notebook.add("warm up")
        let perWriter = 25
        let failures = Shared([String]())
        let finished = DispatchGroup()
        let threads = (0..<3).map { worker in
            Thread {
                defer { finished.leave() }
                for index in 0..<perWriter {
                    let result = worker < 2 ? try? notebook.run(["add", "writer \(worker) note \(index)"])
                                            : try? notebook.run(["list", "--json"])
                    if result?.status != 0 || result?.stderr.isEmpty == false {
                        failures.mutate { $0.append(result?.stderr ?? "did not run") }
                    }
                }
            }
        }
        for thread in threads {
            finished.enter()
            thread.start()
        }
        finished.wait()
        #expect(failures.value.isEmpty, "\(failures.value.prefix(3))")
        let notes = try #require(try notebook.run(["list", "--json"]).json as? [Any])
        #expect(notes.count == 1 + 2 * perWriter)
    }
}
