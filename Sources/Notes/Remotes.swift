// A sync remote as the user sees it: its name and URL, whether it is encrypted, what `notes
// remote show` says of it, and the cost of an encrypted remote's key. (The sync itself is the
// Sync library's; these are the values it hands to the notebook and the commands.)

public struct RemoteInfo: Hashable, Sendable {
    public let name: String
    public let url: String
    /// Added with `--encrypt`: fetched into refs/notes-sealed/<name>/ and opened from there.
    public let encrypted: Bool

    public init(name: String, url: String, encrypted: Bool = false) {
        self.name = name
        self.url = url
        self.encrypted = encrypted
    }
}

/// What `notes remote show` says about a remote.
public struct RemoteDescription: Sendable {
    public let remote: RemoteInfo
    /// Files in the remote's branch at the last fetch (nil before the first): an encrypted
    /// remote shows their number and sizes, never their names or text.
    public let files: Int?
    /// When the remote's branch was last confirmed after a sync from here.
    public let lastSync: Timestamp?
    public let keyFile: String?
    public let keyCached: Bool
    /// Argon2id passes and memory (bytes) of an encrypted remote's key.
    public let cost: (operations: UInt64, memory: Int)?

    package init(remote: RemoteInfo, files: Int?, lastSync: Timestamp?, keyFile: String?, keyCached: Bool, cost: (operations: UInt64, memory: Int)?) {
        self.remote = remote
        self.files = files
        self.lastSync = lastSync
        self.keyFile = keyFile
        self.keyCached = keyCached
        self.cost = cost
    }
}

/// What Argon2id costs when a remote is first encrypted. Machines that join later use the
/// cost the remote names.
public enum KeyCost: String, CaseIterable, Sendable {
    /// libsodium's "moderate": 3 passes over 256 MiB, about a second on a laptop. The default.
    case moderate
    /// libsodium's "interactive": 2 passes over 64 MiB, for small machines.
    case interactive
    /// libsodium's "sensitive": 4 passes over 1 GiB.
    case sensitive
    /// The least Argon2id allows (1 pass over 8 KiB): only for tests, as it makes a weak
    /// passphrase easy to guess.
    case minimum

    public var operations: UInt64 {
        switch self { case .moderate: 3; case .interactive: 2; case .sensitive: 4; case .minimum: 1 }
    }

    public var memory: Int {
        switch self { case .moderate: 256 << 20; case .interactive: 64 << 20; case .sensitive: 1 << 30; case .minimum: 8192 }
    }
}
