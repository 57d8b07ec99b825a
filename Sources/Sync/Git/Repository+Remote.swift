// Remotes: the configured list, fetch, and push with each ref's status read back.
import Notes
import CGit2
/// What libgit2 needs to reach an ssh remote; unused for path and file:// remotes.
public struct RemoteCredentials: Sendable {
    /// A private key file; nil tries ssh-agent only.
    public var privateKey: String?
    public var publicKey: String?
    public var passphrase: String?
    /// The known_hosts file that the server's host key must be in.
    public var knownHosts: String
    /// Credential attempts before giving up (libgit2 asks again after every refusal).
    var maximumAttempts: Int

    public init(privateKey: String? = nil, publicKey: String? = nil, passphrase: String? = nil,
                knownHosts: String, maximumAttempts: Int = 3) {
        self.privateKey = privateKey
        self.publicKey = publicKey
        self.passphrase = passphrase
        self.knownHosts = knownHosts
        self.maximumAttempts = maximumAttempts
    }
}

extension RemoteCredentials {
    /// What `ssh` itself would use: `~/.ssh/known_hosts`, the agent, and the first of the
    /// usual key files that exists.
    public static func standard(home: String) -> RemoteCredentials {
        let keys = ["id_ed25519", "id_ecdsa", "id_rsa"].map { home + "/.ssh/" + $0 }
        let key = keys.first { (try? FileSystem.read($0)) != nil }
        return RemoteCredentials(privateKey: key, publicKey: key.map { $0 + ".pub" }, knownHosts: home + "/.ssh/known_hosts")
    }
}

extension Repository {
    package func remotes() throws -> [RemoteInfo] {
        var names = git_strarray()
        try check(api, "git_remote_list", api.git_remote_list(&names, handle))
        defer { api.git_strarray_dispose(&names) }
        var result: [RemoteInfo] = []
        for index in 0..<names.count {
            guard let cName = names.strings[index] else { continue }
            let name = String(cString: cName)
            var remote: OpaquePointer?
            try check(api, "git_remote_lookup", api.git_remote_lookup(&remote, handle, name))
            defer { api.git_remote_free(remote) }
            var specs = git_strarray()
            try check(api, "git_remote_get_fetch_refspecs", api.git_remote_get_fetch_refspecs(&specs, remote))
            let encrypted = (0..<specs.count).contains { specs.strings[$0].map { String(cString: $0) }?.contains(":refs/notes-sealed/") ?? false }
            api.git_strarray_dispose(&specs)
            result.append(RemoteInfo(name: name, url: api.git_remote_url(remote).map { String(cString: $0) } ?? "", encrypted: encrypted))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// `fetchRefspec` nil: git's usual `+refs/heads/*:refs/remotes/<name>/*`.
    package func addRemote(name: String, url: String, fetchRefspec: String? = nil) throws {
        var remote: OpaquePointer?
        if let fetchRefspec {
            try check(api, "git_remote_create_with_fetchspec", api.git_remote_create_with_fetchspec(&remote, handle, name, url, fetchRefspec))
        } else {
            try check(api, "git_remote_create", api.git_remote_create(&remote, handle, name, url))
        }
        api.git_remote_free(remote)
    }

    package func removeRemote(name: String) throws {
        try check(api, "git_remote_delete", api.git_remote_delete(handle, name))
    }

    /// Fetches the remote's branches into refs/remotes/<name>/*.
    func fetch(remote name: String, credentials: RemoteCredentials?) throws {
        var remote: OpaquePointer?
        try check(api, "git_remote_lookup", api.git_remote_lookup(&remote, handle, name))
        defer { api.git_remote_free(remote) }
        var options = git_fetch_options()
        try check(api, "git_fetch_options_init", api.git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION)))
        options.prune = GIT_FETCH_PRUNE
        let context = RemoteContext(api: api, url: api.git_remote_url(remote).map { String(cString: $0) } ?? "", credentials: credentials)
        context.install(on: &options.callbacks)
        let rc = withExtendedLifetime(context) { api.git_remote_fetch(remote, nil, &options, "notes sync: fetch") }
        if rc < 0 { throw context.failure ?? SyncError.git(GitError.last(api, "git_remote_fetch", rc)) }
    }

    /// Pushes `refspec` and returns each ref's status from the server (nil: accepted). "a push
    /// rejected by the server may still return 0": the status is what counts.
    func push(remote name: String, refspec: String, credentials: RemoteCredentials?) throws -> [String: String?] {
        var remote: OpaquePointer?
        try check(api, "git_remote_lookup", api.git_remote_lookup(&remote, handle, name))
        defer { api.git_remote_free(remote) }
        var options = git_push_options()
        try check(api, "git_push_options_init", api.git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION)))
        let context = RemoteContext(api: api, url: api.git_remote_url(remote).map { String(cString: $0) } ?? "", credentials: credentials)
        context.install(on: &options.callbacks)
        options.callbacks.push_update_reference = { refname, status, payload in
            let context = Unmanaged<RemoteContext>.fromOpaque(payload!).takeUnretainedValue()
            context.pushStatus[refname.map { String(cString: $0) } ?? ""] = status.map { String(cString: $0) }
            return 0
        }
        let rc = refspec.withCString { spec -> Int32 in
            var pointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: spec)
            return withUnsafeMutablePointer(to: &pointer) { strings in
                var array = git_strarray(strings: strings, count: 1)
                return withExtendedLifetime(context) { api.git_remote_push(remote, &array, &options) }
            }
        }
        if rc < 0 { throw context.failure ?? SyncError.git(GitError.last(api, "git_remote_push", rc)) }
        return context.pushStatus
    }
}

/// State shared with libgit2's C callbacks through their payload pointer.
final class RemoteContext {
    let api: notes_git_api
    let credentials: RemoteCredentials?
    let url: String
    var pushStatus: [String: String?] = [:]
    var credentialAttempts = 0
    /// Set by a callback that stopped the operation for a reason of ours.
    var failure: SyncError?

    init(api: notes_git_api, url: String, credentials: RemoteCredentials?) {
        self.api = api
        self.url = url
        self.credentials = credentials
    }

    func install(on callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, username, allowed, payload in
            let context = Unmanaged<RemoteContext>.fromOpaque(payload!).takeUnretainedValue()
            return context.credential(out: out, username: username.map { String(cString: $0) }, allowed: allowed)
        }
        callbacks.certificate_check = { certificate, valid, host, payload in
            let context = Unmanaged<RemoteContext>.fromOpaque(payload!).takeUnretainedValue()
            return context.checkHostKey(certificate, host: host.map { String(cString: $0) } ?? "")
        }
    }
}
