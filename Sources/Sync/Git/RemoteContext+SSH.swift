// ssh remotes: bounded credential attempts (agent or key file) and the host key checked
// against known_hosts by us, so an unknown or changed key stops with a message saying how to trust it.
import Notes
import CGit2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RemoteContext {
    /// libgit2 calls this again after each refusal: each call tries the next method (the key
    /// file, then ssh-agent when one is running), and stops after `maximumAttempts` or when
    /// none is left.
    func credential(out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>?, username: String?, allowed: UInt32) -> Int32 {
        credentialAttempts += 1
        let user = username ?? "git"
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue == 0, allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 {
            return api.git_credential_username_new(out, user)
        }
        var methods: [() -> Int32] = []
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            if let key = credentials?.privateKey {
                methods.append { self.api.git_credential_ssh_key_new(out, user, self.credentials?.publicKey, key, self.credentials?.passphrase) }
            }
            if let socket = getenv("SSH_AUTH_SOCK"), socket.pointee != 0 {
                methods.append { self.api.git_credential_ssh_key_from_agent(out, user) }
            }
        }
        let limit = min(credentials?.maximumAttempts ?? 3, methods.count)
        guard credentialAttempts <= limit else {
            failure = .authenticationFailed(attempts: credentialAttempts - 1)
            return GIT_EAUTH.rawValue
        }
        return methods[credentialAttempts - 1]()
    }

    func checkHostKey(_ certificate: UnsafeMutablePointer<git_cert>?, host: String) -> Int32 {
        guard let certificate, certificate.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 else {
            // Not ssh (a path or file:// remote has no certificate): libgit2 decides.
            return GIT_PASSTHROUGH.rawValue
        }
        let key = certificate.withMemoryRebound(to: git_cert_hostkey.self, capacity: 1) { $0.pointee }
        guard key.type.rawValue & GIT_CERT_SSH_RAW.rawValue != 0, let raw = key.hostkey else {
            failure = .hostKeyUnverifiable(host: host)
            return GIT_ECERTIFICATE.rawValue
        }
        let offered = Base64.encode(UnsafeRawBufferPointer(start: raw, count: key.hostkey_len))
        let names = [host] + (port.map { ["[\(host)]:\($0)"] } ?? [])
        let knownHosts = credentials?.knownHosts ?? ""
        let entries = KnownHosts.entries(in: (try? FileSystem.read(knownHosts)) ?? [], for: names)
        if entries.contains(offered) { return 0 }
        let fingerprint = "SHA256:" + Base64.encode(SHA256Hash(key.hash_sha256).bytes, padded: false)
        failure = entries.isEmpty
            ? .unknownHostKey(host: names.last!, fingerprint: fingerprint, knownHosts: knownHosts)
            : .hostKeyChanged(host: names.last!, fingerprint: fingerprint, knownHosts: knownHosts)
        return GIT_ECERTIFICATE.rawValue
    }

    /// The port of an `ssh://host:port/...` URL, when it names one.
    var port: Int? {
        guard url.hasPrefix("ssh://") else { return nil }
        let rest = url.dropFirst(6)
        let authority = rest.prefix { $0 != "/" }
        let hostPort = authority.split(separator: "@").last ?? authority
        guard let colon = hostPort.lastIndex(of: ":") else { return nil }
        return Int(hostPort[hostPort.index(after: colon)...])
    }
}

/// The 32 bytes of a SHA-256 fingerprint, out of libgit2's fixed C array.
private struct SHA256Hash {
    let bytes: [UInt8]
    init<T>(_ tuple: T) {
        var copy = tuple
        bytes = withUnsafeBytes(of: &copy) { Array($0) }
    }
}

/// known_hosts lines: `host[,host...] keytype base64 [comment]`; hashed names (`|1|salt|hash`)
/// are matched with HMAC-SHA1 as OpenSSH does. `@revoked` and `@cert-authority` lines are skipped.
enum KnownHosts {
    static func entries(in bytes: [UInt8], for names: [String]) -> [String] {
        var keys: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, !fields[0].hasPrefix("#"), !fields[0].hasPrefix("@") else { continue }
            let patterns = fields[0].split(separator: ",")
            if patterns.contains(where: { pattern in names.contains { matches(String(pattern), $0) } }) {
                keys.append(String(fields[2]))
            }
        }
        return keys
    }

    static func matches(_ pattern: String, _ name: String) -> Bool {
        guard pattern.hasPrefix("|1|") else { return pattern == name }
        let parts = pattern.dropFirst(3).split(separator: "|")
        guard parts.count == 2, let salt = Base64.decode(String(parts[0])), let hash = Base64.decode(String(parts[1])) else { return false }
        return SHA1.hmac(key: salt, message: Array(name.utf8)) == hash
    }
}
