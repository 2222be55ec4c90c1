import Foundation
import GeoCampaignCore

/// `geocampaign explain`: a readable timeline of one user.
struct ExplainCommand: Command {
    static let name = "explain"
    static let abstract = "Tell, for one user, which visits, rules and decisions happened and why (or why not)."
    static let usage = "geocampaign explain --history FILE --user ID [--campaigns PATH] [options]"
    static let options = HistoryOptions.specs + [.value("user", "ID", "The user to explain (required).")]
    static let example = "geocampaign explain --campaigns campaigns --history examples/visits.jsonl --user car-shopper"

    var history: HistoryOptions
    var user: String

    init(_ a: ParsedArguments) throws {
        history = try HistoryOptions(a, usage: Self.usage)
        guard let u = a.value("user") else { throw CLIError.usage("missing --user ID", Self.usage) }
        user = u
    }

    func run() throws -> ExitCode {
        throw CLIError(message: "explain is not available yet", code: .failure)
    }
}
