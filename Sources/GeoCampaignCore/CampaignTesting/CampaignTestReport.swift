/// The text `geocampaign test` prints, like a test runner: per file, each case passed or
/// failed; a failure shows the expectation and what happened side by side, then the explain
/// lines of the rules involved; a summary line at the end.
///
///     campaigns/tests/lorrenzillos.yaml
///       ok    Dina dines twice in a week and gets the loyalty offer
///       FAIL  Leo gets a thank-you (line 30)
///             campaigns/tests/lorrenzillos.yaml:36:11: expectation not met
///             expected                               | actual
///             decision: thank-you delivered to leo   | 2026-11-17 19:37:10 PST lorrenzillos/thank-you held_out
///             why:
///               rule lorrenzillos/thanks -> thank-you: held once: ...
///
///     1 file, 2 cases: 1 passed, 1 failed
public enum CampaignTestReport {
    /// The lines of one file's result.
    public static func text(_ r: CampaignTestFileResult) -> String {
        var s = r.path + "\n"
        if r.isBroken {
            for d in r.diagnostics { s += indent(d.description, "  ") + "\n" }
            s += "  BROKEN  the cases were not run: fix the problems above\n"
            return s
        }
        for d in r.diagnostics { s += indent(d.description, "  ") + "\n" }
        for c in r.cases {
            if c.passed {
                s += "  ok    \(c.name)\n"
                continue
            }
            s += "  FAIL  \(c.name) (line \(c.line))\n"
            for f in c.failures {
                s += "        \(r.path):\(f.line):\(f.column): expectation not met\n"
                s += sideBySide(f.expected, f.actual).map { "        " + $0 + "\n" }.joined()
                if !f.explain.isEmpty {
                    s += "        why:\n" + f.explain.map { "          " + $0 + "\n" }.joined()
                }
            }
        }
        return s
    }

    /// `3 files, 12 cases: 11 passed, 1 failed` (and `, 1 broken file`).
    public static func summary(_ results: [CampaignTestFileResult]) -> String {
        let cases = results.flatMap(\.cases)
        let failed = cases.filter { !$0.passed }.count
        let broken = results.filter(\.isBroken).count
        func n(_ k: Int, _ word: String) -> String { "\(k) \(word)\(k == 1 ? "" : "s")" }
        var s = "\(n(results.count, "file")), \(n(cases.count, "case")): \(cases.count - failed) passed, \(failed) failed"
        if broken > 0 { s += ", \(n(broken, "broken file"))" }
        return s
    }

    /// Two columns headed `expected` and `actual`, the left padded to its widest line.
    static func sideBySide(_ left: [String], _ right: [String]) -> [String] {
        let l = ["expected"] + left, r = ["actual"] + right
        let width = l.map(\.count).max() ?? 0
        return (0..<max(l.count, r.count)).map { i in
            let a = i < l.count ? l[i] : "", b = i < r.count ? r[i] : ""
            return a.padding(toLength: width, withPad: " ", startingAt: 0) + " | " + b
        }
    }

    static func indent(_ text: String, _ by: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { by + $0 }.joined(separator: "\n")
    }
}
