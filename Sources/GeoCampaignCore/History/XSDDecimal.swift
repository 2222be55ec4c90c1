/// Reads an `xsd:decimal`, the type of GPX's `lat` and `lon`: an optional sign, digits with an
/// optional point (`47`, `-8.5`, `+.5`, `3.`), surrounded by any XML white space. Exponents, hex
/// floats, `nan` and `infinity` are not decimals.
enum XSDDecimal {
    /// The value of `text`, or nil when it is not an `xsd:decimal`.
    ///
    ///     XSDDecimal.parse(" 45.9 ")  // 45.9
    ///     XSDDecimal.parse("1e3")     // nil
    ///     XSDDecimal.parse("0x1p3")   // nil
    ///
    /// - Complexity: O(n); at most 800 fraction digits are handed to the conversion, more than
    ///   correct rounding of a Double ever needs.
    static func parse(_ text: String) -> Double? {
        var u = Substring(text).utf8[...]
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while let b = u.first, isSpace(b) { u = u.dropFirst() }
        while let b = u.last, isSpace(b) { u = u.dropLast() }
        var out: [UInt8] = []
        var rest = u[...]
        if let b = rest.first, b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
            out.append(b)
            rest = rest.dropFirst()
        }
        // Leading zeros say nothing; an integer part of more than 400 digits is far out of any range.
        while rest.count > 1, rest.first == UInt8(ascii: "0"), let second = rest.dropFirst().first,
              second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9") {
            rest = rest.dropFirst()
        }
        var intDigits = 0
        var fracDigits = 0
        var point = false
        for b in rest {
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                if point {
                    fracDigits += 1
                    if fracDigits > 800 { continue }
                } else {
                    intDigits += 1
                    if intDigits > 400 { continue }
                }
                out.append(b)
            } else if b == UInt8(ascii: ".") && !point {
                point = true
                out.append(b)
            } else {
                return nil
            }
        }
        guard intDigits + fracDigits > 0 else { return nil }
        if intDigits > 400 { return out.first == UInt8(ascii: "-") ? -.infinity : .infinity }
        return Double(String(decoding: out, as: UTF8.self))
    }
}
