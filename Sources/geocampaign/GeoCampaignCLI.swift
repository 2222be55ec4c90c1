import Foundation
import GeoCampaignCore

/// The entry point: picks the command, parses, validates, runs, and maps any error to a message and exit status.
enum GeoCampaignCLI {
    static let version = "0.1.0"
    static let commands: [any Command.Type] = [
        ValidateCommand.self, EvaluateCommand.self, EventsCommand.self, ExplainCommand.self,
        SimulateCommand.self, RegionsCommand.self, TestCommand.self, ReportCommand.self, StreamCommand.self,
    ]
    static let usage = "geocampaign COMMAND [options]   (geocampaign --help lists the commands)"

    static var help: String {
        var s = "geocampaign: a rules-driven geo-targeting campaign engine.\n\nUSAGE: geocampaign COMMAND [options]\n\nCOMMANDS:\n"
        for c in commands { s += "  " + c.name.padding(toLength: 10, withPad: " ", startingAt: 0) + c.abstract + "\n" }
        s += "\nOPTIONS:\n  --help      Show this help, or a command's with 'geocampaign COMMAND --help'.\n  --version   Print the version.\n"
        s += "\nEXAMPLE:\n  geocampaign evaluate --campaigns campaigns --history examples/visits.jsonl\n"
        return s
    }

    static func main(_ args: [String]) -> ExitCode {
        do {
            guard let first = args.first else { throw CLIError.usage("missing command", usage) }
            if first == "--help" || first == "-h" || first == "help" {
                if args.count > 1, let c = commands.first(where: { $0.name == args[1] }) { print(c.help, terminator: "") } else { print(help, terminator: "") }
                try flushStandardOutput()
                return .success
            }
            if first == "--version" {
                print("geocampaign \(version)")
                try flushStandardOutput()
                return .success
            }
            guard let type = commands.first(where: { $0.name == first }) else {
                let near = ParsedArguments.nearest(first, commands.map { $0.name }).map { " (did you mean '\($0)'?)" } ?? ""
                throw CLIError.usage("unknown command '\(first)'\(near)", usage)
            }
            let rest = Array(args.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                print(type.help, terminator: "")
                try flushStandardOutput()
                return .success
            }
            return try run(type, rest)
        } catch let e as CLIError {
            fflush(stdout)
            if !e.message.isEmpty { Console.err(errorLine(e.message) + "\n") }
            if let u = e.usage { Console.err("usage: \(u)\n") }
            return e.code
        } catch let e as RunError {
            // The core's errors: the message as it is, the status of formats.md 3.4.
            fflush(stdout)
            if !e.message.isEmpty { Console.err(errorLine(e.message) + "\n") }
            return ExitCode(rawValue: e.status) ?? .failure
        } catch {
            fflush(stdout)
            Console.err(errorLine("\(error)") + "\n")
            return .failure
        }
    }

    /// `message` as an error line: `error: message`, unless it already says `error:` (the
    /// `path: error: ...` of a history or GPX error), which is then printed once, as it is.
    static func errorLine(_ message: String) -> String {
        if message.hasPrefix("error: ") { return message }
        if let r = message.range(of: ": error: "), !message[..<r.lowerBound].contains("\n") { return message }
        return "error: " + message
    }

    /// Writes out what help or version printed; a write that failed (a full disk, `/dev/full`)
    /// is an error, not a silent exit 0.
    static func flushStandardOutput() throws {
        if fflush(stdout) != 0 || ferror(stdout) != 0 {
            let reason = String(cString: strerror(errno))
            throw CLIError(message: "cannot write to standard output: \(reason)", code: .failure)
        }
    }

    static func run<C: Command>(_ type: C.Type, _ args: [String]) throws -> ExitCode {
        let parsed = try ParsedArguments(args, specs: type.options, usage: type.usage, allowsPositionals: type.allowsPositionals)
        let command = try type.init(parsed)
        try command.validate()
        return try command.run()
    }
}
