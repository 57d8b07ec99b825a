// The key of an encrypted remote: Argon2id from the passphrase, with the salt and cost kept in
// the remote (`notes-encrypted`, the one plain file there) and a key check beside them, so a
// wrong passphrase is told apart from a damaged object.
import Notes
/// The public half of a remote's encryption: all a machine needs, besides the passphrase, to
/// derive the key, and a check that the key is the right one.
struct KeyParameters: Equatable {
    /// Why a notes-encrypted file cannot be used.
    struct Problem: Error { let reason: String }

    static let fileName = "notes-encrypted"
    static let version = 1
    /// A remote asking for more than this is refused rather than obeyed (a hostile server could
    /// ask every machine for terabytes).
    static let maximumOperations: UInt64 = 10
    static let maximumMemory = 1 << 30

    var salt: [UInt8]
    var operations: UInt64
    var memory: Int
    /// A keyed hash of a fixed text under the key: equal only for the same passphrase and salt.
    var check: [UInt8]

    var file: [UInt8] {
        Array("""
            notes-encrypted: \(Self.version)
            cipher: xchacha20poly1305-ietf
            kdf: argon2id13
            operations: \(operations)
            memory: \(memory)
            salt: \(Base64.encode(salt))
            check: \(Base64.encode(check))

            """.utf8)
    }

    /// Parses the file; the reason it is not one otherwise.
    static func parse(_ bytes: [UInt8]) -> Result<KeyParameters, Problem> {
        var fields: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingWhitespace()] = line[line.index(after: colon)...].trimmingWhitespace()
        }
        guard let version = fields["notes-encrypted"].flatMap({ Int($0) }) else { return .failure(Problem(reason: "it is not a notes encryption file")) }
        guard version <= Self.version else { return .failure(Problem(reason: "it was written by a newer notes (version \(version)); update notes")) }
        guard fields["cipher"] == "xchacha20poly1305-ietf", fields["kdf"] == "argon2id13" else {
            return .failure(Problem(reason: "it names a cipher or key function this version does not know"))
        }
        guard let operations = fields["operations"].flatMap({ UInt64($0) }), let memory = fields["memory"].flatMap({ Int($0) }),
              let salt = fields["salt"].flatMap(Base64.decode), salt.count == 16,
              let check = fields["check"].flatMap(Base64.decode), check.count == 32 else {
            return .failure(Problem(reason: "a field is missing or malformed"))
        }
        guard (1...maximumOperations).contains(operations), (8192...maximumMemory).contains(memory) else {
            return .failure(Problem(reason: "it asks for an Argon2id cost out of bounds (\(operations) passes over \(memory >> 10) KiB; at most \(maximumOperations) over \(maximumMemory >> 20) MiB)"))
        }
        return .success(KeyParameters(salt: salt, operations: operations, memory: memory, check: check))
    }
}

/// The keys of one encrypted remote, all derived from the passphrase's.
struct RemoteKey {
    let parameters: KeyParameters
    /// The Argon2id output; every other key is a keyed hash of it, so it alone is cached.
    let master: [UInt8]
    let encryption: [UInt8]
    let nonce: [UInt8]

    init(master: [UInt8], salt: [UInt8], operations: UInt64, memory: Int) throws {
        self.master = master
        encryption = try Sodium.keyedHash([Array("notes encryption key".utf8)], key: master, length: 32)
        nonce = try Sodium.keyedHash([Array("notes nonce key".utf8)], key: master, length: 32)
        let check = try Sodium.keyedHash([Array("notes key check".utf8)], key: master, length: 32)
        parameters = KeyParameters(salt: salt, operations: operations, memory: memory, check: check)
    }

    /// Derives the key for `parameters` (a remote's) or, with a fresh salt, for a new remote.
    static func derive(passphrase: [UInt8], salt: [UInt8], operations: UInt64, memory: Int) throws -> RemoteKey {
        let master = try Sodium.deriveKey(passphrase: passphrase, salt: salt, operations: operations, memory: memory)
        return try RemoteKey(master: master, salt: salt, operations: operations, memory: memory)
    }

    static func new(passphrase: [UInt8], cost: KeyCost) throws -> RemoteKey {
        try derive(passphrase: passphrase, salt: try Sodium.random(16), operations: cost.operations, memory: cost.memory)
    }

    func matches(_ remote: KeyParameters) -> Bool { parameters == remote }

    /// Deterministic encryption: the nonce is a keyed hash of the context and the plaintext,
    /// so the same file at the same place seals to the same bytes (and the same git object),
    /// while anything that differs gets its own nonce.
    func seal(_ plaintext: [UInt8], context: [UInt8]) throws -> [UInt8] {
        let nonce = try Sodium.keyedHash([context, plaintext], key: self.nonce, length: Sodium.nonceBytes)
        return try Sodium.encrypt(plaintext, context: context, nonce: nonce, key: encryption)
    }

    func open(_ sealed: [UInt8], context: [UInt8]) throws -> [UInt8]? {
        try Sodium.decrypt(sealed, context: context, key: encryption)
    }

    // MARK: The cache on this machine

    /// `notes-keys/<remote>` in the sync repository (inside $NOTES_HOME), 0600 in a 0700
    /// folder: the daemon syncs without asking for the passphrase.
    static func cachePath(repository: String, remote: String) -> String { repository + "/notes-keys/" + remote }

    var cacheFile: [UInt8] { parameters.file + Array("key: \(Base64.encode(master))\n".utf8) }

    static func cached(repository: String, remote: String) throws -> RemoteKey? {
        guard let bytes = try? FileSystem.read(cachePath(repository: repository, remote: remote)) else { return nil }
        let keyLine = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("key:") }
        guard case let .success(parameters) = KeyParameters.parse(bytes),
              let master = keyLine.flatMap({ Base64.decode($0.dropFirst(4).trimmingWhitespace()) }), master.count == 32 else {
            return nil
        }
        let key = try RemoteKey(master: master, salt: parameters.salt, operations: parameters.operations, memory: parameters.memory)
        // A cache file that does not check out is as good as none: the passphrase is asked again.
        return key.parameters.check == parameters.check ? key : nil
    }

    func save(repository: String, remote: String) throws {
        let folder = repository + "/notes-keys"
        do {
            try FileSystem.makePrivate(folder)
            try FileSystem.writeAtomically(cacheFile, to: Self.cachePath(repository: repository, remote: remote), durable: true)
        } catch {
            throw SyncError.keyNotCached(path: Self.cachePath(repository: repository, remote: remote))
        }
    }
}
