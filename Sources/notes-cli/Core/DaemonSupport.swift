// What the daemon's files (Daemon/) still take from the context: the notebook's store. They move
// to Notebook/Daemon; this file goes with them.
@_spi(Daemon) import Notebook
import Storage

extension Context {
    // Only the daemon's files still use this; they move to Notebook/Daemon.
    func store() throws -> NoteStore { try notebook().store }
}
