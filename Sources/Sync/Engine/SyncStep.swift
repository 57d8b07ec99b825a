// The steps of a sync, in order: progress reports them, and tests interrupt the sync at each.
// `verify` fetches again after the push to check that the remote kept our commit.

public enum SyncStep: String, CaseIterable, Sendable {
    case export, commit, fetch, merge, `import`, refUpdate = "ref-update", push, verify
}
