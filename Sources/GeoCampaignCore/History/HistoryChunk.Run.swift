extension HistoryChunk {
    /// A stretch of consecutive kept fixes of one user (a chunk-local user number): the fixes'
    /// owners, run-length encoded. Input grouped by user has one run per user and part (L: about
    /// 100,000 runs for 10M fixes, where a user number per fix took 40 MB of fresh pages).
    struct Run {
        var user: Int32
        var count: Int32
    }
}
