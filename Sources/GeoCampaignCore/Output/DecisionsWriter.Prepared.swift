/// A `DecisionsWriter` bound to one campaign set, with the JSON text that depends only on the
/// campaign and rule (ids, offer, message) rendered once: a decision line then costs the user
/// id, the timestamps and the evidence. JSON Lines as formats.md 3.1; CSV is written by the
/// writer itself.
public extension DecisionsWriter {
    struct Prepared: Sendable {
        let writer: DecisionsWriter
        let campaigns: CampaignSet
        /// Per campaign, per rule: `,"campaign":...,"rule":...,"offer":...,"status":"`.
        let ruleText: [[[UInt8]]]
        /// Per campaign, per rule: `,"message":...` or nothing.
        let messageText: [[[UInt8]]]
        /// With `includeSuppressed`: arbitration run again, with reasons, for a user with a
        /// suppressed decision (the replay decides without them; the result is the same).
        let arbiter: Arbiter?

        init(_ writer: DecisionsWriter, campaigns: CampaignSet) {
            self.writer = writer
            self.campaigns = campaigns
            arbiter = writer.includeSuppressed ? Arbiter(campaigns: campaigns) : nil
            var ruleText: [[[UInt8]]] = [], messageText: [[[UInt8]]] = []
            for campaign in campaigns.campaigns {
                var rules: [[UInt8]] = [], messages: [[UInt8]] = []
                for rule in campaign.rules {
                    var t: [UInt8] = []
                    t.append(contentsOf: #","campaign":"#.utf8)
                    JSONText.appendString(campaign.id, to: &t)
                    t.append(contentsOf: #","rule":"#.utf8)
                    JSONText.appendString(rule.id, to: &t)
                    t.append(contentsOf: #","offer":"#.utf8)
                    JSONText.appendString(rule.offer, to: &t)
                    t.append(contentsOf: #","status":""#.utf8)
                    rules.append(t)
                    var m: [UInt8] = []
                    if let message = campaign.offerIndex(rule.offer).flatMap({ campaign.offers[$0].message }) {
                        m.append(contentsOf: #","message":"#.utf8)
                        JSONText.appendString(message, to: &m)
                    }
                    messages.append(m)
                }
                ruleText.append(rules)
                messageText.append(messages)
            }
            self.ruleText = ruleText
            self.messageText = messageText
        }

        /// Appends the decisions of `outcome` to `out`.
        /// - Complexity: O(d + e) for d decisions with e evidence visits.
        public func append(_ outcome: UserOutcome, to out: inout [UInt8]) {
            guard writer.format == .jsonl else {
                writer.appendCSV(outcome, campaigns: campaigns, to: &out)
                return
            }
            var userText: [UInt8] = []
            var reasons: [DecisionReason]?
            if let arbiter, outcome.decisions.contains(where: { $0.status != .delivered }) {
                // A stateful run prints the decisions it settles: the first of all its triggers'.
                let explained = arbiter.reasons(userId: outcome.userId, triggers: outcome.triggers, prior: outcome.prior)
                    .prefix(outcome.decisions.count)
                if explained.map(\.decision) == outcome.decisions { reasons = explained.map(\.reason) }
            }
            for (k, d) in outcome.decisions.enumerated() where writer.includeSuppressed || d.status == .delivered {
                let c = d.trigger.campaign, r = d.trigger.rule
                if userText.isEmpty {
                    userText.append(contentsOf: #"{"user":"#.utf8)
                    JSONText.appendString(outcome.userId, to: &userText)
                    userText.append(contentsOf: #","time":""#.utf8)
                }
                out.append(contentsOf: userText)
                Timestamp.append(d.trigger.time, to: &out)
                out.append(0x22)
                out.append(contentsOf: ruleText[c][r])
                out.append(contentsOf: d.status.rawValue.utf8)
                out.append(0x22)
                out.append(contentsOf: messageText[c][r])
                out.append(contentsOf: Text.evidence)
                let visits = outcome.visits[c]
                var first = true
                for i in d.trigger.evidence where visits.indices.contains(i) {
                    let v = visits[i]
                    if !first { out.append(0x2C) }
                    first = false
                    out.append(contentsOf: Text.region)
                    JSONText.appendString(campaigns.campaigns[c].regions[Int(v.region)].id, to: &out)
                    out.append(contentsOf: Text.enter)
                    Timestamp.append(v.enter, to: &out)
                    if let exit = v.exit {
                        out.append(contentsOf: Text.exit)
                        Timestamp.append(exit, to: &out)
                        out.append(contentsOf: Text.closeVisit)
                    } else {
                        out.append(contentsOf: Text.openVisit)
                    }
                }
                out.append(0x5D)
                if let reasons { DecisionReasonJSON.append(reasons[k], campaigns: campaigns, to: &out) }
                out.append(contentsOf: Text.end)
            }
        }
    }

    /// Fixed pieces of a decision line, as bytes.
    private enum Text {
        static let evidence = Array(#","evidence":["#.utf8)
        static let region = Array(#"{"region":"#.utf8)
        static let enter = Array(#","enter":""#.utf8)
        static let exit = Array(#"","exit":""#.utf8)
        static let closeVisit = Array(#""}"#.utf8)
        static let openVisit = Array(#"","exit":null}"#.utf8)
        static let end = Array("}\n".utf8)
    }

    /// This writer bound to `campaigns` (see `Prepared`).
    func prepared(for campaigns: CampaignSet) -> Prepared { Prepared(self, campaigns: campaigns) }
}
