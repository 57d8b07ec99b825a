// The `notes` executable: reads the environment and hands the arguments to NotesCLI.
#if canImport(Glibc)
import Glibc
#endif
import Notes
import Storage

// Writing to a closed pipe must end quietly, not kill us with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
var environment: [String: String] = [:]
var pointer = environ
while let entry = pointer.pointee {
    let text = String(cString: entry)
    if let equals = text.firstIndex(of: "=") {
        environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    pointer += 1
}
let terminal = Terminal(environment: environment)
let status = NotesCLI.run(Array(CommandLine.arguments.dropFirst()), terminal: terminal, environment: environment)
terminal.flush()
exit(status)
