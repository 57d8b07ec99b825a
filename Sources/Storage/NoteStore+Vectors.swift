// Notes' sentence vectors: which notes lack current ones, storing them, and the nearest notes to
// a vector by a scan of every stored one's 8-bit sketch (10,000 notes' sketches are 4 MB of an
// index, read in a few milliseconds), the closest scored again from their float vectors;
// bench/search/RESULTS.md measures the scan against the sqlite-vec extension.
import Notes

/// A note's score against a query vector: the cosine of its closest chunk (vectors are unit
/// length, so the dot product).
public struct VectorMatch: Equatable, Sendable {
    public var id: NoteID
    public var similarity: Float
}

extension NoteStore {
    /// Live notes without current vectors from `model`, most recent change first (a note just
    /// added or edited before the backlog).
    public func notesLackingVectors(model: String, limit: Int? = nil) throws -> [Note] {
        try database.statement("""
            SELECT \(Self.noteColumns) FROM notes n
            WHERE n.deleted IS NULL AND NOT \(Self.hasCurrentVector)
            ORDER BY n.updated DESC LIMIT \(limit ?? -1)
            """).rows([model]) { try note(from: $0) }
    }

    /// Of the `newest` notes changed last, those without current vectors: a few index lookups,
    /// however large the notebook (unlike `notesLackingVectors`, which looks at every note).
    public func newestLackingVectors(model: String, newest: Int) throws -> [Note] {
        try database.statement("""
            SELECT \(Self.noteColumns) FROM (SELECT * FROM notes WHERE deleted IS NULL ORDER BY updated DESC LIMIT \(newest)) n
            WHERE NOT \(Self.hasCurrentVector)
            ORDER BY n.updated DESC
            """).rows([model]) { try note(from: $0) }
    }

    /// Every stored vector is of a live note's current text (the triggers drop the others), so
    /// this is the live notes less those with a first chunk: two counts over indexes.
    public func lackingVectorCount(model: String) throws -> Int {
        Int(try database.scalarInt("""
            SELECT (SELECT count(*) FROM notes WHERE deleted IS NULL) - (SELECT count(*) FROM note_vectors WHERE model = ? AND chunk = 0)
            """, [model]) ?? 0)
    }

    private static let hasCurrentVector = """
        EXISTS (SELECT 1 FROM note_vectors v WHERE v.note_seq = n.seq AND v.chunk = 0 AND v.content_hash = n.content_hash AND v.model = ?)
        """

    /// Stores a note's chunk vectors if the note still has `contentHash`; false (nothing stored)
    /// when it changed or was deleted meanwhile. Replaces whatever vectors it had.
    @discardableResult
    public func saveVectors(_ chunks: [[Float]], for id: NoteID, contentHash: String, model: String) throws -> Bool {
        try database.transaction {
            try storeVectors(chunks, for: id, contentHash: contentHash, model: model)
        }
    }

    /// Several notes' vectors in one transaction; returns the ids stored.
    public func saveVectors(_ batch: [(id: NoteID, contentHash: String, chunks: [[Float]])], model: String) throws -> [NoteID] {
        try database.transaction {
            try batch.filter { try storeVectors($0.chunks, for: $0.id, contentHash: $0.contentHash, model: model) }.map(\.id)
        }
    }

    private func storeVectors(_ chunks: [[Float]], for id: NoteID, contentHash: String, model: String) throws -> Bool {
        guard !chunks.isEmpty, let seq = try database.statement("SELECT seq FROM notes WHERE id = ? AND deleted IS NULL AND content_hash = ?")
            .firstRow([id.rawValue, contentHash], { $0.int(0) }) else { return false }
        try database.execute("DELETE FROM note_vectors WHERE note_seq = ?", [seq])
        let insert = try database.statement("INSERT INTO note_vectors(note_seq, chunk, content_hash, model, vector, sketch) VALUES (?, ?, ?, ?, ?, ?)")
        for (chunk, vector) in chunks.enumerated() {
            try insert.execute([seq, chunk, contentHash, model, FloatVector.bytes(vector), VectorSketch.bytes(vector)])
        }
        return true
    }

    /// Gives every stored vector without a sketch its sketch: migration 8's part in code, run in
    /// its transaction (SQL cannot read the floats), a few thousand rows at a time.
    static func sketchStoredVectors(_ database: Database) throws {
        let select = try database.statement("SELECT rowid, vector FROM note_vectors WHERE sketch IS NULL AND rowid > ? ORDER BY rowid LIMIT 4096")
        let update = try database.statement("UPDATE note_vectors SET sketch = ? WHERE rowid = ?")
        var last: Int64 = -1
        while true {
            let rows = try select.rows([last]) { row in (row.int(0), row.withBlob(1) { FloatVector.floats($0) }) }
            guard let end = rows.last?.0 else { return }
            for (rowid, vector) in rows { try update.execute([VectorSketch.bytes(vector), rowid]) }
            last = end
        }
    }

    /// The note's current chunk vectors from `model`, or nil when it has none.
    public func vectors(for id: NoteID, model: String) throws -> [[Float]]? {
        let rows = try database.statement("""
            SELECT v.vector FROM note_vectors v JOIN notes n ON n.seq = v.note_seq
            WHERE n.id = ? AND n.deleted IS NULL AND v.content_hash = n.content_hash AND v.model = ? ORDER BY v.chunk
            """).rows([id.rawValue, model]) { row in row.withBlob(0) { FloatVector.floats($0) } }
        return rows.isEmpty ? nil : rows
    }

    /// The notes closest in meaning to any of `queries`, best first: each note scores the best
    /// cosine between a query vector and one of its chunks. `conditions` (SQL on `n`, from
    /// `filterConditions`) and `excluding` narrow the notes scanned; at most `limit` come back.
    public func nearest(to queries: [[Float]], model: String, conditions filters: (sql: [String], values: [any DatabaseValueConvertible]) = ([], []),
                        excluding: NoteID? = nil, limit: Int) throws -> [VectorMatch] {
        guard let dimensions = queries.first?.count, dimensions > 0, limit > 0 else { return [] }
        // Every stored vector is of a live note's current text (stored only then, and dropped by
        // triggers when the note is edited or deleted), so without filters the notes table is not
        // read: at 10,000 notes that join was most of the scan's time.
        var conditions = ["v.model = ?"], values: [any DatabaseValueConvertible] = [model]
        var source = "note_vectors v"
        if !filters.sql.isEmpty {
            source += " JOIN notes n ON n.seq = v.note_seq"
            conditions += ["n.deleted IS NULL", "v.content_hash = n.content_hash"] + filters.sql
            values += filters.values
        }
        if let excluding {
            conditions.append("v.note_seq IS NOT (SELECT seq FROM notes WHERE id = ?)")
            values.append(excluding.rawValue)
        }
        // Each note's best chunk by the sketches alone (an index that holds all the scan reads),
        // then the notes that came closest scored again from their full vectors: the sketches'
        // rounding never decides the order, only which notes are looked at again.
        // One pass over the index; a vector with no sketch (none is stored so since migration 8)
        // has its note scored from the vectors with the closest.
        var sketched: [Int64: Float] = [:]
        var unsketched: Set<Int64> = []
        try database.statement("SELECT v.note_seq, v.sketch FROM \(source) WHERE \(conditions.joined(separator: " AND "))").forEachRow(values) { row in
            let seq = row.int(0)
            guard !row.isNull(1) else { unsketched.insert(seq); return }
            let score = row.withBlob(1) { bytes in queries.reduce(-Float.infinity) { max($0, VectorSketch.dot($1, bytes)) } }
            if score > sketched[seq, default: -.infinity] { sketched[seq] = score }
        }
        let candidates = unsketched.union(Self.best(sketched, count: limit * 2 + Self.sketchMargin).map(\.key))
        var exact: [Int64: Float] = [:]
        if !candidates.isEmpty {
            try database.statement("SELECT note_seq, vector FROM note_vectors WHERE model = ? AND note_seq IN (\(candidates.map(String.init).joined(separator: ",")))")
                .forEachRow([model]) { row in
                    let seq = row.int(0)
                    let score = row.withBlob(1) { bytes in queries.reduce(-Float.infinity) { max($0, FloatVector.dot($1, bytes)) } }
                    if score > exact[seq, default: -.infinity] { exact[seq] = score }
                }
        }
        let top = Self.best(exact, count: limit)
        guard !top.isEmpty else { return [] }
        let ids = try database.statement("SELECT seq, id FROM notes WHERE seq IN (\(top.map { String($0.key) }.joined(separator: ",")))")
            .rows { ($0.int(0), $0.string(1)) }
        let byID = Dictionary(uniqueKeysWithValues: ids)
        return top.compactMap { entry in byID[entry.key].flatMap(NoteID.init).map { VectorMatch(id: $0, similarity: entry.value) } }
    }

    /// Notes looked at again beyond twice the limit: the sketches' rounding (a few thousandths of
    /// a cosine) may put a note that belongs among the best just below them.
    static let sketchMargin = 16

    /// The `count` best scores, best first (ties by the lower seq), by insertion into a short
    /// sorted list: sorting all 10,000 scores was a third of the scan's time.
    static func best(_ scores: [Int64: Float], count: Int) -> [(key: Int64, value: Float)] {
        func isBetter(_ a: (key: Int64, value: Float), _ b: (key: Int64, value: Float)) -> Bool {
            a.value != b.value ? a.value > b.value : a.key < b.key
        }
        var top: [(key: Int64, value: Float)] = []
        top.reserveCapacity(count + 1)
        for entry in scores where top.count < count || isBetter(entry, top[top.count - 1]) {
            var low = 0, high = top.count
            while low < high {
                let middle = (low + high) / 2
                if isBetter(top[middle], entry) { low = middle + 1 } else { high = middle }
            }
            top.insert(entry, at: low)
            if top.count > count { top.removeLast() }
        }
        return top
    }
}

/// A stored vector's sketch: its scale (float32, little-endian: the largest magnitude over 127),
/// then each value over the scale rounded to an 8-bit integer. A quarter of the vector's bytes,
/// enough to tell which notes to score again from the vector itself.
public enum VectorSketch {
    public static func bytes(_ vector: [Float]) -> [UInt8] {
        let largest = vector.reduce(Float(0)) { max($0, abs($1)) }
        let scale = largest > 0 && largest.isFinite ? largest / 127 : 1
        var bytes = withUnsafeBytes(of: scale.bitPattern.littleEndian) { Array($0) }
        bytes += vector.map { UInt8(bitPattern: Int8(max(-127, min(127, ($0 / scale).rounded())))) }
        return bytes
    }

    /// About the dot product of `query` with the vector sketched in `bytes` (0 when the lengths
    /// differ, as for `FloatVector.dot`).
    /// The same loop as `FloatVector.dot`'s, with other loads: one loop shared through closures
    /// for the loads scored 10,000 sketches in 1.55 ms against 1.10 ms (swiftc -O, this machine).
    static func dot(_ query: [Float], _ bytes: UnsafeRawBufferPointer) -> Float {
        guard bytes.count == query.count + 4, let base = bytes.baseAddress else { return 0 }
        let scale = Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
        return query.withUnsafeBufferPointer { q in
            let lanes = q.count / 16 * 16
            var sums = SIMD16<Float>()
            let queryBase = UnsafeRawPointer(q.baseAddress!)
            var index = 0
            while index < lanes {
                let values = SIMD16<Float>(base.loadUnaligned(fromByteOffset: 4 + index, as: SIMD16<Int8>.self))
                sums += queryBase.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self) * values
                index += 16
            }
            var sum = sums.sum()
            while index < q.count {
                sum += q[index] * Float(base.load(fromByteOffset: 4 + index, as: Int8.self))
                index += 1
            }
            return sum * scale
        }
    }
}

/// A vector as stored: float32, little-endian (the byte order of every machine notes runs on).
public enum FloatVector {
    public static func bytes(_ vector: [Float]) -> [UInt8] {
        vector.withUnsafeBytes { Array($0) }
    }

    public static func floats(_ bytes: UnsafeRawBufferPointer) -> [Float] {
        Array(unsafeUninitializedCapacity: bytes.count / 4) { buffer, count in
            count = bytes.count / 4
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(count * 4)))
        }
    }

    /// The dot product of `query` with the stored vector in `bytes` (0 when the lengths differ:
    /// a vector from another model is never close). Sixteen lanes at a time: SQLite's blob need
    /// not be aligned, so each lane group is loaded unaligned.
    static func dot(_ query: [Float], _ bytes: UnsafeRawBufferPointer) -> Float {
        guard bytes.count == query.count * 4, let base = bytes.baseAddress else { return 0 }
        return query.withUnsafeBufferPointer { q in
            let lanes = q.count / 16 * 16
            var sums = SIMD16<Float>()
            let queryBase = UnsafeRawPointer(q.baseAddress!)
            var index = 0
            while index < lanes {
                sums += queryBase.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self)
                    * base.loadUnaligned(fromByteOffset: index * 4, as: SIMD16<Float>.self)
                index += 16
            }
            var sum = sums.sum()
            while index < q.count {
                sum += q[index] * base.loadUnaligned(fromByteOffset: index * 4, as: Float.self)
                index += 1
            }
            return sum
        }
    }
}
