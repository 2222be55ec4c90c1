/// Loads campaigns for a command, printing every diagnostic on stderr.
public enum CampaignLoading {
    /// Loads `paths`; throws exit 66 when a named path cannot be read, 65 when any file has errors.
    public static func load(_ paths: [String]) throws -> LoadResult {
        let result = CampaignLoader().load(paths: paths)
        for d in result.diagnostics { Console.err(d.description + "\n") }
        try check(result)
        if result.hasErrors {
            let n = result.errorCount
            throw RunError.data("the campaigns have \(n) error\(n == 1 ? "" : "s"); fix them first ('geocampaign validate' lists them)")
        }
        return result
    }

    /// Throws exit 66 when a campaign path cannot be opened (its diagnostic names it).
    public static func check(_ result: LoadResult) throws {
        if !result.unreadablePaths.isEmpty { throw RunError.reported(status: 66) }
    }
}
