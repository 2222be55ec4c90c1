extension ReportJSON {
    /// Appends indented JSON to a byte buffer.
    struct Writer {
        var out: [UInt8] = []
        var depth = 0

        mutating func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        mutating func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }
        mutating func open(_ bracket: String) {
            raw(bracket)
            depth += 1
            newline()
        }
        mutating func close(_ bracket: String) {
            depth -= 1
            newline()
            raw(bracket)
        }
        mutating func comma() {
            raw(",")
            newline()
        }
        mutating func key(_ k: String) {
            JSONText.appendString(k, to: &out)
            raw(": ")
        }
        mutating func string(_ s: String) { JSONText.appendString(s, to: &out) }
        mutating func int(_ v: Int) { JSONText.appendInt(Int64(v), to: &out) }
        mutating func time(_ ms: Int64) {
            out.append(0x22)
            Timestamp.append(ms, to: &out)
            out.append(0x22)
        }
        /// A finite number in its shortest round-trip form; null when absent or not finite.
        mutating func number(_ v: Double?) {
            guard let v, v.isFinite else { return raw("null") }
            raw("\(v)")
        }
        mutating func interval(_ i: ConfidenceInterval?) {
            guard let i, i.low.isFinite, i.high.isFinite else { return raw("null") }
            raw("[")
            number(i.low)
            raw(", ")
            number(i.high)
            raw("]")
        }
        mutating func inlineStrings(_ items: [String]) {
            raw("[")
            for (i, s) in items.enumerated() {
                if i > 0 { raw(", ") }
                string(s)
            }
            raw("]")
        }
        mutating func list<T>(_ items: [T], _ item: (inout Writer, T) -> Void) {
            if items.isEmpty { return raw("[]") }
            open("[")
            for (i, x) in items.enumerated() {
                if i > 0 { comma() }
                item(&self, x)
            }
            close("]")
        }
    }
}
