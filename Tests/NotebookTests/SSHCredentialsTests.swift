// The remote credential policy: which key and known_hosts file a sync offers.
import Notebook
import Sync
import Testing

struct SSHCredentialsTests {
    @Test func theFirstKeyThatExistsUnlessOneIsNamed() {
        let files: Set = ["/h/.ssh/id_rsa", "/h/.ssh/id_rsa.pub", "/h/.ssh/id_ecdsa"]
        let found = SSHCredentials.from(environment: ["HOME": "/h"], exists: files.contains)
        #expect(found.privateKey == "/h/.ssh/id_rsa" && found.publicKey == "/h/.ssh/id_rsa.pub")
        #expect(found.knownHosts == "/h/.ssh/known_hosts" && found.passphrase == nil)
        let named = SSHCredentials.from(environment: ["HOME": "/h", "NOTES_SSH_KEY": "/k/key", "NOTES_SSH_PASSPHRASE": "p",
                                                      "NOTES_SSH_KNOWN_HOSTS": "/k/hosts"], exists: files.contains)
        #expect(named.privateKey == "/k/key" && named.publicKey == nil && named.passphrase == "p" && named.knownHosts == "/k/hosts")
    }

    @Test func noKeyFileMeansTheAgentAlone() {
        let credentials = SSHCredentials.from(environment: ["HOME": "/h", "NOTES_SSH_KEY": ""], exists: { _ in false })
        #expect(credentials.privateKey == nil && credentials.publicKey == nil)
    }
}
