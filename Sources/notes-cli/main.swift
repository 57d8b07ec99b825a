// The `notes` executable: reads the environment and hands the arguments to NotesCLI.
#if canImport(Glibc)
import Glibc
#endif
import Notes

// Writing to a closed pipe must end quietly, not kill us with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let environment = ProcessEnvironment.current
let terminal = Terminal(environment: environment)
let status = NotesCLI.run(Array(CommandLine.arguments.dropFirst()), terminal: terminal, environment: environment)
terminal.flush()
exit(status)
