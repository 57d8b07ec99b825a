// A prepared statement: owns its sqlite3_stmt and finalizes it in deinit.
import CSQLite

/// A value SQLite stores: the few types notes needs.
public enum DatabaseValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case text(String)
    /// Bytes, such as a note's vector (see `FloatVector`).
    case blob([UInt8])
}

public protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
}

extension Int64: DatabaseValueConvertible { public var databaseValue: DatabaseValue { .integer(self) } }
extension Int: DatabaseValueConvertible { public var databaseValue: DatabaseValue { .integer(Int64(self)) } }
extension Bool: DatabaseValueConvertible { public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) } }
extension String: DatabaseValueConvertible { public var databaseValue: DatabaseValue { .text(self) } }
extension [UInt8]: DatabaseValueConvertible { public var databaseValue: DatabaseValue { .blob(self) } }
extension DatabaseValue: DatabaseValueConvertible { public var databaseValue: DatabaseValue { self } }
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}

/// Not Sendable: it belongs to the `Database` that prepared it.
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    public let sql: String

    init(database: Database, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, 0, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw database.error(rc, sql: sql)
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    public func bind(_ values: [any DatabaseValueConvertible]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value.databaseValue {
            case .null: rc = sqlite3_bind_null(handle, index)
            case let .integer(number): rc = sqlite3_bind_int64(handle, index, number)
            case let .text(text):
                // SQLITE_TRANSIENT (-1): SQLite copies the bytes, since Swift's buffer is temporary.
                // An explicit byte count, so text holding a NUL is bound whole, not cut at it.
                // (An empty buffer may have no address, which SQLite would bind as NULL.)
                var copy = text
                rc = copy.isEmpty ? sqlite3_bind_text(handle, index, "", 0, unsafeBitCast(-1, to: sqlite3_destructor_type.self)) : copy.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        sqlite3_bind_text(handle, index, $0.baseAddress, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    }
                }
            case let .blob(bytes):
                // A zero-length blob, not NULL, for an empty array.
                rc = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count),
                                                                 unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
            }
            guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
        }
    }

    /// Steps once; true while a row is available.
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs to completion, ignoring rows.
    func execute(_ values: [any DatabaseValueConvertible] = []) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Calls `body` for each row.
    func forEachRow(_ values: [any DatabaseValueConvertible] = [], _ body: (Row) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() { try body(Row(statement: self)) }
    }

    public func rows<T>(_ values: [any DatabaseValueConvertible] = [], _ transform: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEachRow(values) { result.append(try transform($0)) }
        return result
    }

    func firstRow<T>(_ values: [any DatabaseValueConvertible] = [], _ transform: (Row) throws -> T) throws -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        return try step() ? transform(Row(statement: self)) : nil
    }
}

/// The current row of a statement; valid only inside the closure it is handed to.
public struct Row {
    let statement: Statement

    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement.handle, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement.handle, column) == SQLITE_NULL }

    public func string(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement.handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(statement.handle, column) }

    /// The column's bytes, without copying them: valid only inside `body`.
    func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        // "The pointers returned are valid until a type conversion occurs ... or until
        // sqlite3_step() or sqlite3_reset() or sqlite3_finalize() is called." (sqlite3_column_blob)
        let bytes = sqlite3_column_blob(statement.handle, column)
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }
}
