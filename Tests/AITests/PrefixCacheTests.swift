// The prefix cache file: what it accepts, and that stale or damaged files are refused.
import Foundation
import Testing
@testable import AI

@Suite struct PrefixCacheTests {
    private func cache(_ directory: String, model: String, prefix: String = "prefix") -> PrefixCache {
        PrefixCache(directory: directory, modelPath: model, contextSize: 1024, libraryIdentity: "lib", prefix: prefix)!
    }

    @Test func roundTripsAndRefusesStaleOrCorruptFiles() throws {
        let directory = TestModel.temporaryDirectory()
        let model = directory + "/model.gguf"
        try Data("GGUF model bytes".utf8).write(to: URL(fileURLWithPath: model))
        let state = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let saved = cache(directory, model: model)
        #expect(saved.save(tokens: [1, 2, 3], state: state))
        guard case .hit(let tokens, let loaded) = cache(directory, model: model).load() else { Issue.record("no hit"); return }
        #expect(tokens == [1, 2, 3])
        #expect(Array(loaded) == state)

        // Another prefix: another file.
        guard case .missing = cache(directory, model: model, prefix: "other").load() else { Issue.record("shared a file"); return }

        // Flipped byte: corrupt.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: saved.path))
        bytes[bytes.count - 100] ^= 1
        try bytes.write(to: URL(fileURLWithPath: saved.path))
        guard case .invalid = saved.load() else { Issue.record("trusted a damaged file"); return }

        // Truncated: corrupt.
        #expect(saved.save(tokens: [1, 2, 3], state: state))
        try Data(try Data(contentsOf: URL(fileURLWithPath: saved.path)).prefix(300)).write(to: URL(fileURLWithPath: saved.path))
        guard case .invalid = saved.load() else { Issue.record("trusted a truncated file"); return }

        // The model file changed since: its key no longer matches (stale), so the file is not found.
        #expect(saved.save(tokens: [1, 2, 3], state: state))
        try Data("GGUF another model, longer".utf8).write(to: URL(fileURLWithPath: model))
        guard case .missing = cache(directory, model: model).load() else { Issue.record("trusted a stale file"); return }
    }

    @Test func onlyTheFilesUsedLastAreKept() throws {
        let directory = TestModel.temporaryDirectory()
        let model = directory + "/model.gguf"
        try Data("GGUF model bytes".utf8).write(to: URL(fileURLWithPath: model))
        let first = cache(directory, model: model, prefix: "first")
        #expect(first.save(tokens: [1], state: [1, 2, 3]))
        for index in 0..<PrefixCache.maximumFiles + 2 {
            // Files older than the first one, whatever the clock's resolution.
            let other = cache(directory, model: model, prefix: "other \(index)")
            #expect(other.save(tokens: [1], state: [1, 2, 3]))
            var times = [timespec(tv_sec: 1_000_000 + index, tv_nsec: 0), timespec(tv_sec: 1_000_000 + index, tv_nsec: 0)]
            _ = utimensat(AT_FDCWD, other.path, &times, 0)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".kv") }
        #expect(kept.count == PrefixCache.maximumFiles)
        guard case .hit = first.load() else { Issue.record("the newest file was pruned"); return }
        let last = cache(directory, model: model, prefix: "other \(PrefixCache.maximumFiles + 1)")
        guard case .hit = last.load() else { Issue.record("the file just saved was pruned"); return }
        guard case .missing = cache(directory, model: model, prefix: "other 0").load() else { Issue.record("the oldest file was kept"); return }
    }
}
