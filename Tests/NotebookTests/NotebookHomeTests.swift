// Where the notebook lives: NOTES_HOME, then XDG_DATA_HOME, then ~/.local/share; the paths in it.
@testable import Notebook
import Testing

struct NotebookHomeTests {
    @Test func followsNotesHomeThenXDGThenHome() {
        #expect(NotebookHome(environment: ["NOTES_HOME": "/n", "XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/n")
        #expect(NotebookHome(environment: ["NOTES_HOME": "", "XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/x/notes")
        #expect(NotebookHome(environment: ["HOME": "/h"]).path == "/h/.local/share/notes")
    }

    @Test func keepsEveryFileInside() {
        let home = NotebookHome(path: "/n")
        #expect(home.database == "/n/notes.sqlite")
        #expect(home.syncRepository == "/n/repo")
        #expect(home.daemonLock == "/n/daemon.lock")
    }
}
