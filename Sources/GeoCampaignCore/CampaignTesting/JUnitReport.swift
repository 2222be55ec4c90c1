import Foundation

/// JUnit XML for CI systems (`geocampaign test --junit FILE`): one `testsuite` per test file,
/// one `testcase` per case; a failed case carries a `failure` with the side-by-side text; a
/// broken file is one `testcase` with an `error` holding its problems. Written through
/// `AtomicFile`, so a run that fails leaves no half file.
public enum JUnitReport {
    /// The XML document.
    public static func xml(_ results: [CampaignTestFileResult]) -> String {
        let cases = results.reduce(0) { $0 + max($1.cases.count, $1.isBroken ? 1 : 0) }
        let failures = results.reduce(0) { $0 + $1.failedCount }
        let errors = results.filter(\.isBroken).count
        let time = results.reduce(0.0) { $0 + $1.cases.reduce(0.0) { $0 + $1.seconds } }
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<testsuites name=\"geocampaign test\" tests=\"\(cases)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(time))\">\n"
        for r in results {
            let t = r.cases.reduce(0.0) { $0 + $1.seconds }
            s += "  <testsuite name=\"\(escape(r.path))\" tests=\"\(max(r.cases.count, r.isBroken ? 1 : 0))\" failures=\"\(r.failedCount)\" errors=\"\(r.isBroken ? 1 : 0)\" time=\"\(seconds(t))\">\n"
            if r.isBroken {
                let text = r.diagnostics.map(\.description).joined(separator: "\n")
                let first = r.diagnostics.first { $0.severity == .error }?.message ?? "broken test file"
                s += "    <testcase classname=\"\(escape(r.path))\" name=\"(test file)\">\n"
                s += "      <error message=\"\(escape(first))\">\(escape(text))</error>\n    </testcase>\n"
            }
            for c in r.cases {
                s += "    <testcase classname=\"\(escape(r.path))\" name=\"\(escape(c.name))\" time=\"\(seconds(c.seconds))\""
                if c.passed { s += "/>\n"; continue }
                s += ">\n"
                let detail = c.failures.map { f in
                    "\(r.path):\(f.line):\(f.column): expectation not met\n"
                        + CampaignTestReport.sideBySide(f.expected, f.actual).joined(separator: "\n")
                        + (f.explain.isEmpty ? "" : "\nwhy:\n" + f.explain.map { "  " + $0 }.joined(separator: "\n"))
                }.joined(separator: "\n\n")
                let message = c.failures.first?.expected.first ?? "expectation not met"
                s += "      <failure message=\"\(escape(message))\">\(escape(detail))</failure>\n    </testcase>\n"
            }
            s += "  </testsuite>\n"
        }
        s += "</testsuites>\n"
        return s
    }

    /// Writes the XML to `path` through `AtomicFile`: a file beside it renamed into place (a
    /// symbolic link is followed and stays; a device such as `/dev/stdout` is written in place,
    /// never replaced).
    /// - Throws: `RunError.failure` naming `path` when it cannot be written.
    public static func write(_ results: [CampaignTestFileResult], to path: String) throws {
        let file = try AtomicFile(path: path)
        try file.write(Array(xml(results).utf8))
        try file.commit()
    }

    static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

    /// XML text and attribute escaping; control characters other than tab and line breaks are dropped.
    static func escape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
