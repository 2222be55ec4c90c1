/// The small chart of a campaign's decisions per day, stacked by status, as an SVG element.
public enum DayChart {
    /// Statuses from the bottom of a bar up.
    static let stack: [DecisionStatus] = [.delivered, .heldOut, .capped, .lowerPriority, .limited]

    /// Decisions per local day (`ReportTime.day`) from quarter-hour counts, every day from the
    /// first to the last one present (days without decisions are zero).
    public static func days(_ quarterHours: [Int64: [DecisionStatus: Int]]) -> [(day: Int64, counts: [DecisionStatus: Int])] {
        var byDay: [Int64: [DecisionStatus: Int]] = [:]
        for (q, counts) in quarterHours {
            let day = ReportTime.day(q * CampaignTally.bucketMs)
            for (s, n) in counts where n > 0 { byDay[day, default: [:]][s, default: 0] += n }
        }
        guard let first = byDay.keys.min(), let last = byDay.keys.max() else { return [] }
        return (first...last).map { ($0, byDay[$0] ?? [:]) }
    }

    /// The chart, or a sentence when there is no decision.
    /// - Complexity: O(days + quarter hours).
    public static func svg(_ quarterHours: [Int64: [DecisionStatus: Int]]) -> String {
        let days = days(quarterHours)
        guard !days.isEmpty else { return "<p class=\"empty\">No decisions.</p>" }
        let totals = days.map { d in stack.reduce(0) { $0 + (d.counts[$1] ?? 0) } }
        let top = max(1, totals.max() ?? 1)
        let width = 640.0, height = 180.0, left = 36.0, bottom = 24.0, plotH = height - bottom - 8
        let slot = (width - left - 4) / Double(days.count), bar = min(max(1, slot * 0.8), 40)
        var s = "<svg class=\"day-chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Decisions per day\">\n"
        s += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width - 4)\" y2=\"\(height - bottom)\"/>\n"
        s += "<text class=\"tick\" x=\"\(left - 4)\" y=\"14\" text-anchor=\"end\">\(HumanNumber.count(top))</text>\n"
        s += "<text class=\"tick\" x=\"\(left - 4)\" y=\"\(height - bottom)\" text-anchor=\"end\">0</text>\n"
        let labelEvery = max(1, Int((Double(days.count) / 8).rounded(.up)))
        for (i, d) in days.enumerated() {
            let x = left + Double(i) * slot + (slot - bar) / 2
            var y = height - bottom
            var parts: [String] = []
            s += "<g class=\"day\" data-day=\"\(ReportTime.date(d.day))\" data-total=\"\(totals[i])\">"
            for st in stack {
                let n = d.counts[st] ?? 0
                guard n > 0 else { continue }
                parts.append("\(HumanNumber.count(n)) \(st.rawValue.replacingOccurrences(of: "_", with: " "))")
                let h = plotH * Double(n) / Double(top)
                y -= h
                s += "<rect class=\"status-\(st.rawValue)\" x=\"\(MapFrame.fmt(x))\" y=\"\(MapFrame.fmt(y))\" width=\"\(MapFrame.fmt(bar))\" height=\"\(MapFrame.fmt(h))\"/>"
            }
            let what = parts.isEmpty ? "no decisions" : parts.joined(separator: ", ")
            s += "<title>\(HTMLText.escape(ReportTime.dayLabel(d.day))): \(what)</title></g>\n"
            if i % labelEvery == 0 {
                s += "<text class=\"tick\" x=\"\(MapFrame.fmt(x + bar / 2))\" y=\"\(height - 6)\" text-anchor=\"middle\">\(ReportTime.shortDay(d.day))</text>\n"
            }
        }
        return s + "</svg>"
    }
}
