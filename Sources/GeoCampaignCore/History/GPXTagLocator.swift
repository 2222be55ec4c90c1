/// Finds the start tags of a well-formed XML document in document order, with the line and
/// column of each `<`, and cuts a bounded excerpt of the line it is on.
///
/// libxml2 records where a start tag *ends*; a point is reported where its start tag begins, so
/// this scanner walks the same bytes and counts start tags: the n-th element the XML reader
/// reports is the n-th start tag found here (entity references are never expanded, so no element
/// comes from elsewhere). It skips comments, processing instructions, CDATA sections, end tags,
/// the document type with its internal subset, and quoted attribute values. It expects a document
/// libxml2 accepted; on anything else it still ends, it just may find fewer tags.
///
/// It only moves forward: asking for tags in increasing order costs O(n) for the whole file.
struct GPXTagLocator {
    /// Where one start tag begins.
    struct Place: Equatable {
        /// Byte offset of the `<`.
        var offset: Int
        /// 1-based line (lines end at `\n`, as libxml2 counts them).
        var line: Int
        /// 1-based column, in characters.
        var column: Int
        /// Byte offset where that line begins.
        var lineStart: Int
    }

    /// Longest `text` of a reject, in bytes (docs/history-format.md).
    static let maxExcerpt = 1024

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var column = 1
    private var last: Place?
    /// Start tags found so far.
    private(set) var found = 0

    /// Creates a locator over the document's bytes, which must be UTF-8 or another encoding that
    /// writes ASCII as ASCII (`GPXReader` turns UTF-16 into UTF-8 first).
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The place of start tag number `ordinal` (0-based, document order), or nil if there is no
    /// such tag. `ordinal` must not be smaller than `found`.
    /// - Complexity: O(bytes skipped since the previous call).
    mutating func place(ofTag ordinal: Int) -> Place? {
        if ordinal == found - 1 { return last }
        while let p = nextStartTag() {
            last = p
            if found - 1 == ordinal { return p }
        }
        return nil
    }

    /// The text of a reject for a point at `place`: its whole line (without `\r\n`, and without a
    /// byte order mark on line 1) when that is at most `maxExcerpt` bytes, else the `maxExcerpt`
    /// bytes of the line that start at the point's `<`, cut back to a whole UTF-8 character.
    /// - Complexity: O(`maxExcerpt`).
    func excerpt(at place: Place) -> [UInt8] {
        var start = place.lineStart
        if start == 0 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        if let end = lineEnd(from: start, limit: Self.maxExcerpt) {
            return Array(bytes[start..<end])
        }
        let from = max(start, min(place.offset, bytes.count))
        var end = lineEnd(from: from, limit: Self.maxExcerpt) ?? min(bytes.count, from + Self.maxExcerpt)
        while end > from && end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(bytes[from..<end])
    }

    /// The end of the line that goes on at `from` (before `\r\n` or `\n`), if the rest of the line
    /// is at most `limit` bytes.
    private func lineEnd(from: Int, limit: Int) -> Int? {
        var e = from
        let stop = min(bytes.count, from + limit + 1)
        while e < stop && bytes[e] != 0x0A { e += 1 }
        if e < bytes.count && bytes[e] != 0x0A { return nil }
        let end = e > from && bytes[e - 1] == 0x0D ? e - 1 : e
        return end - from <= limit ? end : nil
    }

    private mutating func advance() {
        if bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
            column = 1
        } else if bytes[i] & 0xC0 != 0x80 {
            column += 1
        }
        i += 1
    }

    private func at(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return s.withUTF8Buffer { b in
            for k in 0..<n where bytes[i + k] != b[k] { return false }
            return true
        }
    }

    /// Skips to just after the next `terminator`.
    private mutating func skip(past terminator: StaticString) {
        while i < bytes.count && !at(terminator) { advance() }
        for _ in 0..<terminator.utf8CodeUnitCount where i < bytes.count { advance() }
    }

    /// Skips a quoted value whose opening quote is at `i`.
    private mutating func skipQuoted() {
        let q = bytes[i]
        advance()
        while i < bytes.count && bytes[i] != q { advance() }
        if i < bytes.count { advance() }
    }

    private mutating func skipDoctype() {
        while i < bytes.count && bytes[i] != UInt8(ascii: ">") {
            switch bytes[i] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                skipQuoted()
            case UInt8(ascii: "["):
                advance()
                while i < bytes.count && bytes[i] != UInt8(ascii: "]") {
                    if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                        skipQuoted()
                    } else if at("<!--") {
                        skip(past: "-->")
                    } else if at("<?") {
                        skip(past: "?>")
                    } else {
                        advance()
                    }
                }
                if i < bytes.count { advance() }
            default:
                advance()
            }
        }
        if i < bytes.count { advance() }
    }

    private mutating func nextStartTag() -> Place? {
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else { advance(); continue }
            if at("<!--") {
                skip(past: "-->")
            } else if at("<![CDATA[") {
                skip(past: "]]>")
            } else if at("<!") {
                skipDoctype()
            } else if at("<?") {
                skip(past: "?>")
            } else if at("</") {
                skip(past: ">")
            } else {
                let place = Place(offset: i, line: line, column: column, lineStart: lineStart)
                advance()
                while i < bytes.count && bytes[i] != UInt8(ascii: ">") {
                    if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") { skipQuoted() } else { advance() }
                }
                if i < bytes.count { advance() }
                found += 1
                return place
            }
        }
        return nil
    }
}
