// The steps of a sync, in order: progress reports them, and tests interrupt the sync at each.

public enum SyncStep: String, CaseIterable, Sendable {
    case export, commit, fetch, merge, `import`, refUpdate = "ref-update", push
}
