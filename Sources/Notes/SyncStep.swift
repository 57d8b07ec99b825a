// The steps of a sync, in order: progress reports them, and tests interrupt the sync at each.
// `move-branch`, on a path remote only, moves the remote's branch to what `push` sent (over ssh
// the push does it); `verify` fetches again after the push to check that the remote kept it.

public enum SyncStep: String, CaseIterable, Sendable {
    case export, commit, fetch, merge, `import`, refUpdate = "ref-update", push, moveBranch = "move-branch", verify
}
