import GeoCampaignCore

/// Loads campaigns for a command, printing every diagnostic on stderr.
enum CampaignLoading {
    /// Loads `paths`; throws exit 65 when any file has errors (66 when a path cannot be read).
    static func load(_ paths: [String]) throws -> LoadResult {
        let result = CampaignLoader().load(paths: paths)
        for d in result.diagnostics { Console.err(d.description + "\n") }
        if result.hasErrors {
            let errors = result.diagnostics.filter { $0.isError }.count
            throw CLIError.data("campaigns have \(errors) error\(errors == 1 ? "" : "s"); run 'geocampaign validate' for details")
        }
        return result
    }
}
