/// The `reason` object of a suppressed decision in `evaluate --include-suppressed` output
/// (docs/cli.md); instants RFC 3339 UTC as everywhere in machine output.
///
///     capped:         {"cap":"1 per 7d","by":[{"campaign":"c","rule":"r","offer":"o","time":"...","status":"delivered"}]}
///     held_out:       {"holdout":"10%","bucket":321}
///     lower_priority: {"by":[{"campaign":"c","rule":"r","offer":"o","time":"...","status":"delivered"}]}
///     limited:        {"limit":"3 per 24h","by":[...]}
enum DecisionReasonJSON {
    /// Appends `,"reason":{...}` for a suppressed decision; nothing for `.delivered`.
    static func append(_ reason: DecisionReason, campaigns: CampaignSet, to out: inout [UInt8]) {
        switch reason {
        case .delivered:
            return
        case .capped(let cap, let by):
            out.append(contentsOf: #","reason":{"cap":"#.utf8)
            JSONText.appendString(capText(cap), to: &out)
            appendBy(by, campaigns, &out)
        case .heldOut(let percent, let bucket):
            out.append(contentsOf: #","reason":{"holdout":"#.utf8)
            JSONText.appendString(Arbiter.percentText(percent) + "%", to: &out)
            out.append(contentsOf: #","bucket":\#(bucket)"#.utf8)
        case .lowerPriority(let by):
            out.append(contentsOf: #","reason":{"#.utf8)
            appendBy([by], campaigns, &out, first: true)
        case .limited(let limit, let by):
            out.append(contentsOf: #","reason":{"limit":"#.utf8)
            JSONText.appendString(capText(limit), to: &out)
            appendBy(by, campaigns, &out)
        }
        out.append(0x7D)
    }

    /// `1 per 7d`, `1` (lifetime): the cap as the campaign file writes it.
    static func capText(_ cap: Cap) -> String {
        "\(cap.count)" + (cap.perMs.map { " per " + ValueParser.format($0) } ?? "")
    }

    private static func appendBy(_ by: [PriorDecision], _ campaigns: CampaignSet, _ out: inout [UInt8], first: Bool = false) {
        out.append(contentsOf: (first ? #""by":["# : #","by":["#).utf8)
        for (k, p) in by.enumerated() {
            if k > 0 { out.append(0x2C) }
            let t = p.trigger
            let c = campaigns.campaigns.indices.contains(t.campaign) ? campaigns.campaigns[t.campaign] : nil
            let rule = c.flatMap { $0.rules.indices.contains(t.rule) ? $0.rules[t.rule] : nil }
            out.append(contentsOf: #"{"campaign":"#.utf8)
            JSONText.appendString(c?.id ?? "", to: &out)
            out.append(contentsOf: #","rule":"#.utf8)
            JSONText.appendString(rule?.id ?? "", to: &out)
            out.append(contentsOf: #","offer":"#.utf8)
            JSONText.appendString(rule?.offer ?? "", to: &out)
            out.append(contentsOf: #","time":""#.utf8)
            Timestamp.append(t.time, to: &out)
            out.append(contentsOf: #"","status":""#.utf8)
            out.append(contentsOf: p.status.rawValue.utf8)
            out.append(contentsOf: #""}"#.utf8)
        }
        out.append(0x5D)
    }
}
