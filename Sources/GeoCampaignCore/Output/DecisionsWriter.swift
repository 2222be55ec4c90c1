import Foundation

/// Renders decisions as formats.md 3.1: JSON Lines (or CSV) in user, time, arbitration order.
public struct DecisionsWriter: Sendable {
    /// The output format.
    public var format: DecisionFormat
    /// Print every status, not only `delivered`.
    public var includeSuppressed: Bool

    /// Creates a writer.
    public init(format: DecisionFormat = .jsonl, includeSuppressed: Bool = false) {
        self.format = format
        self.includeSuppressed = includeSuppressed
    }

    /// The CSV header line.
    public static let csvHeader = "user,time,campaign,rule,offer,status,message,evidence\n"

    /// Appends the decisions of `outcome` to `out`. For many users, bind the writer to the
    /// campaign set once with `prepared(for:)`, which renders the per-rule text only once.
    /// - Complexity: O(rules) to prepare, plus O(d + e) for d decisions with e evidence visits.
    public func append(_ outcome: UserOutcome, campaigns: CampaignSet, to out: inout [UInt8]) {
        prepared(for: campaigns).append(outcome, to: &out)
    }

    /// Appends the CSV lines of the decisions of `outcome` to `out`.
    func appendCSV(_ outcome: UserOutcome, campaigns: CampaignSet, to out: inout [UInt8]) {
        for d in outcome.decisions where includeSuppressed || d.status == .delivered {
            let campaign = campaigns.campaigns[d.trigger.campaign]
            let rule = campaign.rules[d.trigger.rule]
            let message = campaign.offerIndex(rule.offer).flatMap { campaign.offers[$0].message }
            let visits = outcome.visits[d.trigger.campaign]
            let evidence = d.trigger.evidence.filter { visits.indices.contains($0) }.map { visits[$0] }
            let fields = [outcome.userId, Timestamp.string(d.trigger.time), campaign.id, rule.id, rule.offer,
                          d.status.rawValue, message ?? "",
                          evidence.map { campaign.regions[Int($0.region)].id }.joined(separator: ";")]
            out.append(contentsOf: fields.map(Self.csvField).joined(separator: ",").utf8)
            out.append(0x0A)
        }
    }

    /// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180). A field that a
    /// spreadsheet would run as a formula (a leading `=`, `+`, `-`, `@`, tab or carriage return,
    /// but not a plain negative number) is prefixed with `'` and quoted, as OWASP advises for CSV
    /// injection (docs/cli.md).
    static func csvField(_ s: String) -> String {
        if let first = s.utf8.first, [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(first), !isPlainNegativeNumber(s) {
            return "\"'" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        guard s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `-` followed by digits only (an integer user id such as `-17`): a number, not a formula.
    private static func isPlainNegativeNumber(_ s: String) -> Bool {
        let u = s.utf8
        return u.count > 1 && u.first == 0x2D && u.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
