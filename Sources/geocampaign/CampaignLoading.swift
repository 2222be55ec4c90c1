import GeoCampaignCore

/// Loads campaigns for a command, printing every diagnostic on stderr.
enum CampaignLoading {
    /// The campaign paths of `validate` and `regions`: `--campaigns` values, then PATH
    /// arguments; `campaigns` when there are none.
    static func paths(_ a: ParsedArguments) -> [String] {
        let given = a.all("campaigns") + a.positionals
        return given.isEmpty ? ["campaigns"] : given
    }

    /// Loads `paths`; throws exit 66 when a named path cannot be read, 65 when any file has errors.
    static func load(_ paths: [String]) throws -> LoadResult {
        let result = CampaignLoader().load(paths: paths)
        for d in result.diagnostics { Console.err(d.description + "\n") }
        try check(result)
        if result.hasErrors {
            let n = result.errorCount
            throw CLIError.data("the campaigns have \(n) error\(n == 1 ? "" : "s"); fix them first ('geocampaign validate' lists them)")
        }
        return result
    }

    /// Throws exit 66 when a campaign path cannot be opened (its diagnostic names it).
    static func check(_ result: LoadResult) throws {
        if !result.unreadablePaths.isEmpty { throw CLIError.silent(.noInput) }
    }
}
