/// The drawing of a lift: the 95% interval of the absolute lift as a bar on an axis in
/// percentage points, the estimate as a dot, and the zero line (no effect).
public enum LiftChart {
    /// The chart of `l`, or nil when the interval is absent (an arm has no measurable user).
    /// - Complexity: O(1).
    public static func svg(_ l: Lift) -> String? {
        guard let ci = l.absoluteCI95, let est = l.absoluteLift, ci.low.isFinite, ci.high.isFinite else { return nil }
        var lo = min(ci.low, 0, est), hi = max(ci.high, 0, est)
        if hi - lo < 1e-9 { lo -= 0.01; hi += 0.01 }
        let pad = (hi - lo) * 0.08
        lo -= pad
        hi += pad
        let width = 600.0, left = 20.0, right = 580.0
        func pos(_ v: Double) -> Double { left + (v - lo) / (hi - lo) * (right - left) }
        func x(_ v: Double) -> String { MapFrame.fmt(pos(v)) }
        var s = "<svg class=\"lift-interval\" viewBox=\"0 0 \(Int(width)) 84\" role=\"img\" data-low=\"\(ci.low)\" data-high=\"\(ci.high)\""
        s += " aria-label=\"Absolute lift \(HumanNumber.points(est)), 95% interval \(HumanNumber.points(ci.low)) to \(HumanNumber.points(ci.high))\">\n"
        s += "<line class=\"axis\" x1=\"\(Int(left))\" y1=\"50\" x2=\"\(Int(right))\" y2=\"50\"/>\n"
        s += "<line class=\"zero\" x1=\"\(x(0))\" y1=\"14\" x2=\"\(x(0))\" y2=\"58\"/>\n"
        s += "<text class=\"tick\" x=\"\(x(0))\" y=\"76\" text-anchor=\"middle\">0 (no effect)</text>\n"
        s += "<rect class=\"ci\" x=\"\(x(ci.low))\" y=\"26\" width=\"\(MapFrame.fmt(max(1, pos(ci.high) - pos(ci.low))))\" height=\"12\" rx=\"3\"/>\n"
        s += "<circle class=\"estimate\" cx=\"\(x(est))\" cy=\"32\" r=\"6\"/>\n"
        if pos(ci.high) - pos(ci.low) < 60 {
            s += "<text class=\"tick\" x=\"\(x((ci.low + ci.high) / 2))\" y=\"18\" text-anchor=\"middle\">\(HumanNumber.points(ci.low)) to \(HumanNumber.points(ci.high))</text>\n"
        } else {
            s += "<text class=\"tick\" x=\"\(x(ci.low))\" y=\"18\" text-anchor=\"middle\">\(HumanNumber.points(ci.low))</text>\n"
            s += "<text class=\"tick\" x=\"\(x(ci.high))\" y=\"18\" text-anchor=\"middle\">\(HumanNumber.points(ci.high))</text>\n"
        }
        return s + "</svg>"
    }
}
