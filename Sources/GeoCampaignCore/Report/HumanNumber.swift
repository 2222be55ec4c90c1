import Foundation

/// Numbers formatted for people: `1,234`, `12.5%`, `+3.2 pts`, `p = 0.036`. Negative numbers
/// take a true minus sign (U+2212).
///
///     HumanNumber.count(1234)        // "1,234"
///     HumanNumber.percent(0.125)     // "12.5%"
///     HumanNumber.points(-0.0556)    // "−5.6 pts"
public enum HumanNumber {
    /// The minus sign used in front of negative numbers.
    public static let minus = "\u{2212}"

    /// A whole number with thousands separators.
    public static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (n < 0 ? minus : "") + out
    }

    /// A number with `digits` decimals and thousands separators, signed when `signed`.
    public static func decimal(_ x: Double, digits: Int = 1, signed: Bool = false) -> String {
        guard x.isFinite else { return "n/a" }
        let text = String(format: "%.\(digits)f", abs(x))
        let rounded = Double(text) ?? 0
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = count(Int(parts.first.map(String.init) ?? "0") ?? 0)
        if parts.count > 1 { whole += "." + parts[1] }
        if x < 0 && rounded != 0 { return minus + whole }
        return (signed && rounded != 0 ? "+" : "") + whole
    }

    /// A share as a percentage: 0.125 -> "12.5%".
    public static func percent(_ x: Double, digits: Int = 1, signed: Bool = false) -> String {
        decimal(x * 100, digits: digits, signed: signed) + "%"
    }

    /// A difference of two shares in percentage points: 0.032 -> "+3.2 pts".
    public static func points(_ x: Double) -> String { decimal(x * 100, digits: 1, signed: true) + " pts" }

    /// A p-value: three decimals, "< 0.001" below that.
    public static func pValue(_ p: Double) -> String {
        p < 0.001 ? "< 0.001" : String(format: "%.3f", p)
    }
}
