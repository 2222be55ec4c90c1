import Foundation
import GeoCampaignCore

/// `geocampaign simulate`: play one GPX track and print what happens.
struct SimulateCommand: Command {
    static let name = "simulate"
    static let abstract = "Play one GPX track as one user and print its events and decisions in time order."
    static let usage = "geocampaign simulate --gpx FILE [--campaigns PATH] [options]"
    static let options: [OptionSpec] = [
        .value("gpx", "FILE", "The GPX track (trkpt, rtept and wpt points, in document order)."),
        .value("campaigns", "PATH", "A campaign folder or file (default: ./campaigns).", repeatable: true),
        .value("user", "NAME", "The user id (default: the file name without extension)."),
        .value("start", "INSTANT", "For a file without times: the time of the first point; points are 1 s apart (default 2000-01-01T00:00:00Z)."),
        .value("until", "INSTANT", "Ignore points after this instant."),
        .flag("include-suppressed", "Also print suppressed decisions (held_out, capped, lower_priority, limited)."),
        .flag("quiet", "No summary on stderr."),
    ]
    static let example = "geocampaign simulate --campaigns campaigns --gpx examples/lorrenzillos-dinner.gpx"

    init(_ a: ParsedArguments) throws {
        throw CLIError(message: "simulate is not available yet", code: .failure)
    }

    func run() throws -> ExitCode { .failure }
}
