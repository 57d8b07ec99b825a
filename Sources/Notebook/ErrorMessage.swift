// What a user reads for a failure: the database's and the migrations' said in the notebook's
// words (which file, what to do), any other failure by its own description.
import Notes
import Storage

public enum ErrorMessage {
    /// A message a user can act on, for a failure met while working on the notebook in `home`.
    public static func describe(_ error: any Error, home: NotebookHome) -> String {
        switch error {
        case DatabaseError.SQLITE_NOTADB, DatabaseError.SQLITE_CORRUPT:
            return "\(home.database) is not a notes database or is damaged. It was left untouched; "
                + "move it aside to start a new notebook, or restore it from a backup or `notes export`."
        case DatabaseError.SQLITE_READONLY:
            return "the notebook \(home.database) is read-only; nothing was changed."
        case DatabaseError.SQLITE_CANTOPEN:
            return "cannot open the notebook \(home.database) (check that \(home.path) exists and is writable)."
        case let error as DatabaseError where error.code == DatabaseError.SQLITE_BUSY.rawValue:
            // Said as it happened: a wait that ran out, or a lock SQLite would not wait for.
            guard let waited = error.waited else {
                return "the notebook was busy: another process was changing it at that moment, in a way SQLite cannot wait for; "
                    + "nothing was changed, try again."
            }
            let milliseconds = waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000
            let span = milliseconds < 1000 ? "\(milliseconds) ms" : "\((milliseconds + 500) / 1000) s"
            return "the notebook stayed busy: another process kept it locked for writing through the \(span) this command waited; "
                + "nothing was changed, try again."
        case DatabaseError.SQLITE_FULL:
            return "the disk is full; nothing was changed."
        case let error as MigrationError:
            return "cannot open the notebook \(home.database): \(error)"
        case let error as CustomStringConvertible:
            return error.description
        default:
            return String(describing: error)
        }
    }
}
