import GeoCampaignCore

/// The campaign paths of `validate` and `regions`: `--campaigns` values, then PATH arguments;
/// `campaigns` when there are none.
enum CampaignPaths {
    static func of(_ a: ParsedArguments) -> [String] {
        let given = a.all("campaigns") + a.positionals
        return given.isEmpty ? ["campaigns"] : given
    }
}
