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

    /// Appends the decisions of `outcome` to `out`.
    /// - Complexity: O(d + e) for d decisions with e evidence visits.
    public func append(_ outcome: UserOutcome, campaigns: CampaignSet, to out: inout [UInt8]) {
        for d in outcome.decisions where includeSuppressed || d.status == .delivered {
            let campaign = campaigns.campaigns[d.trigger.campaign]
            let rule = campaign.rules[d.trigger.rule]
            let message = campaign.offerIndex(rule.offer).flatMap { campaign.offers[$0].message }
            let visits = outcome.visits[d.trigger.campaign]
            let evidence = d.trigger.evidence.filter { visits.indices.contains($0) }.map { visits[$0] }
            switch format {
            case .jsonl:
                out.append(contentsOf: #"{"user":"#.utf8)
                JSONText.appendString(outcome.userId, to: &out)
                out.append(contentsOf: #","time":""#.utf8)
                Timestamp.append(d.trigger.time, to: &out)
                out.append(contentsOf: #"","campaign":"#.utf8)
                JSONText.appendString(campaign.id, to: &out)
                out.append(contentsOf: #","rule":"#.utf8)
                JSONText.appendString(rule.id, to: &out)
                out.append(contentsOf: #","offer":"#.utf8)
                JSONText.appendString(rule.offer, to: &out)
                out.append(contentsOf: #","status":""#.utf8)
                out.append(contentsOf: d.status.rawValue.utf8)
                out.append(0x22)
                if let message {
                    out.append(contentsOf: #","message":"#.utf8)
                    JSONText.appendString(message, to: &out)
                }
                out.append(contentsOf: #","evidence":["#.utf8)
                for (i, v) in evidence.enumerated() {
                    if i > 0 { out.append(0x2C) }
                    out.append(contentsOf: #"{"region":"#.utf8)
                    JSONText.appendString(campaign.regions[Int(v.region)].id, to: &out)
                    out.append(contentsOf: #","enter":""#.utf8)
                    Timestamp.append(v.enter, to: &out)
                    if let exit = v.exit {
                        out.append(contentsOf: #"","exit":""#.utf8)
                        Timestamp.append(exit, to: &out)
                        out.append(contentsOf: #""}"#.utf8)
                    } else {
                        out.append(contentsOf: #"","exit":null}"#.utf8)
                    }
                }
                out.append(contentsOf: "]}\n".utf8)
            case .csv:
                let fields = [outcome.userId, Timestamp.string(d.trigger.time), campaign.id, rule.id, rule.offer,
                              d.status.rawValue, message ?? "",
                              evidence.map { campaign.regions[Int($0.region)].id }.joined(separator: ";")]
                out.append(contentsOf: fields.map(Self.csvField).joined(separator: ",").utf8)
                out.append(0x0A)
            }
        }
    }

    /// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180).
    static func csvField(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
