// The `notes` executable: reads the environment and hands the arguments to NotesCLI.
import Notebook
import Notes

ProcessControl.ignoreBrokenPipes()
let environment = ProcessEnvironment.current
let terminal = Terminal(environment: environment)
let status = NotesCLI.run(Array(CommandLine.arguments.dropFirst()), terminal: terminal, environment: environment)
terminal.flush()
ProcessControl.exit(status)
