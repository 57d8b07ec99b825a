// The one reader of the NOTES_* variables: an empty value is the default, except where it is a
// value (an ssh passphrase), and NOTES_DEPS falls back to set-up's folder.
import Testing
@testable import Notes

struct SettingsTests {
    @Test func emptyMeansUnsetAndTheDefaultsHold() {
        let settings = Settings(["NOTES_HOME": "", "NOTES_MODEL": "/m.gguf", "NOTES_SSH_PASSPHRASE": ""])
        #expect(settings[.home] == nil)
        #expect(settings[.model] == "/m.gguf")
        #expect(settings[.readerModel] == nil)
        #expect(settings.exactly(.sshPassphrase) == "", "an empty passphrase is one")
        #expect(settings.exactly(.sshKey) == nil)
        #expect(settings.deps == "/opt/notes-deps")
        #expect(Settings(["NOTES_DEPS": "/elsewhere"]).deps == "/elsewhere")
    }

    @Test func everyVariableIsNamedNotesSomething() {
        #expect(Settings.Variable.allCases.allSatisfy { $0.rawValue.hasPrefix("NOTES_") })
        #expect(Set(Settings.Variable.allCases.map(\.rawValue)).count == Settings.Variable.allCases.count)
    }

    @Test func theProcessEnvironmentIsRead() {
        #expect(ProcessEnvironment.current["PATH"] != nil)
    }
}
