// Which ssh key and known_hosts file a sync offers the server: the remote credential policy.
#if canImport(Glibc)
import Glibc
#endif
import Notes
import Sync

public enum SSHCredentials {
    /// `NOTES_SSH_KEY`, else `~/.ssh/id_ed25519`, `id_rsa` or `id_ecdsa`, the first that exists,
    /// else ssh-agent alone (with its `.pub` beside it when there is one; `NOTES_SSH_PASSPHRASE`
    /// unlocks it); the host key is checked against `NOTES_SSH_KNOWN_HOSTS`, else
    /// `~/.ssh/known_hosts`. `exists` is asked about files (tests give their own).
    public static func from(environment: [String: String], exists: (String) -> Bool = { access($0, F_OK) == 0 }) -> RemoteCredentials {
        let settings = Settings(environment)
        let ssh = (environment["HOME"] ?? "") + "/.ssh"
        let key = settings[.sshKey]
            ?? ["id_ed25519", "id_rsa", "id_ecdsa"].map { ssh + "/" + $0 }.first(where: exists)
        let publicKey = key.map { $0 + ".pub" }.flatMap { exists($0) ? $0 : nil }
        return RemoteCredentials(privateKey: key, publicKey: publicKey, passphrase: settings.exactly(.sshPassphrase),
                                 knownHosts: settings.exactly(.sshKnownHosts) ?? ssh + "/known_hosts")
    }
}
