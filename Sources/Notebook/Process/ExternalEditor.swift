// Opening $VISUAL / $EDITOR on a temporary file, for `add -e`, `edit -e` and a conflict resolved by hand.
#if canImport(Glibc)
import Glibc
#endif
import Notes

/// Why the editor gave nothing back, in the user's words (where their text is kept, if it is).
public struct EditorFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

public enum ExternalEditor {
    /// Lets the user edit `text` and returns the result as bytes. The temporary file is private
    /// (0600) and removed afterwards; a failed editor keeps it and says where it is.
    /// `beforeStart` runs just before the editor takes the terminal (flush what is buffered).
    public static func edit(_ text: String, environment: [String: String], beforeStart: () -> Void) throws -> [UInt8] {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/notes-XXXXXX.md").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
        guard descriptor >= 0 else { throw EditorFailure("cannot create a temporary file in \(directory): \(FileSystem.message(errno: errno))") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        beforeStart()

        // The editor command may carry arguments ("code -w"), so the shell splits it.
        let arguments = ["/bin/sh", "-c", editor + " \"$1\"", "sh", path]
        var pid: pid_t = 0
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &cArguments, environ)
        guard spawned == 0 else {
            throw EditorFailure("cannot start the editor '\(editor)': \(FileSystem.message(errno: spawned)); your text is in \(path)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            throw EditorFailure("the editor '\(editor)' failed (status \(code)); nothing was saved. Your text is in \(path)")
        }
        let descriptorIn = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptorIn >= 0 else { throw EditorFailure("cannot read back \(path)") }
        let result = FileSystem.readAll(descriptor: descriptorIn)
        close(descriptorIn)
        unlink(path)
        return result
    }
}
