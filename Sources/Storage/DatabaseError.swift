// SQLite failures as one pattern-matchable error carrying the result code, message and SQL.
import CSQLite

public struct DatabaseError: Error, CustomStringConvertible {
    /// The extended result code, e.g. SQLITE_CONSTRAINT_UNIQUE.
    public let extendedCode: Int32
    public let message: String
    /// The statement that failed. Bound values (note text) are never part of the error.
    public let sql: String?
    /// For SQLITE_BUSY: how long the connection waited for the lock before it gave up; nil when
    /// SQLite gave up at once, without waiting (see `BusyWait`), and for every other error.
    public let waited: Duration?

    public var code: Int32 { extendedCode & 0xFF }

    public init(extendedCode: Int32, message: String, sql: String? = nil, waited: Duration? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.waited = waited
    }

    public var description: String {
        let base = "SQLite error \(extendedCode): \(message)"
        return sql.map { "\(base) (while running: \($0))" } ?? base
    }

    public static let SQLITE_BUSY = ResultCode(rawValue: CSQLite.SQLITE_BUSY)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT)
    public static let SQLITE_NOTADB = ResultCode(rawValue: CSQLite.SQLITE_NOTADB)
    public static let SQLITE_READONLY = ResultCode(rawValue: CSQLite.SQLITE_READONLY)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN)
    public static let SQLITE_FULL = ResultCode(rawValue: CSQLite.SQLITE_FULL)
}

/// A primary or extended SQLite result code; lets callers write `catch DatabaseError.SQLITE_BUSY`.
public struct ResultCode: Hashable, Sendable {
    public let rawValue: Int32

    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.code == pattern.rawValue || error.extendedCode == pattern.rawValue
    }
}
