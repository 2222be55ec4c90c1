import Foundation
import CLibXML2

/// Walks an XML document node by node with libxml2's xmlReader API, without building a tree.
///
/// Owns the reader and a copy of the bytes (freed in `deinit`). The reader is set up so that no
/// document can reach outside itself: no network (`XML_PARSE_NONET`), no external DTD and no
/// entity substitution (neither `XML_PARSE_DTDLOAD` nor `XML_PARSE_NOENT`), and an external
/// entity loader that refuses every request. Entity references other than the five predefined
/// ones and character references are reported as `.entityReference`, never expanded in content.
/// libxml2's own limits (no `XML_PARSE_HUGE`) bound names, text nodes and nesting depth.
///
/// Only fatal errors (well-formedness) stop the walk; namespace problems (`xmlns="GPX-1.1"`, an
/// undeclared prefix) and warnings are not errors here, since names are matched by local name.
final class XMLStreamReader {
    private let reader: xmlTextReaderPtr?
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let sink = ErrorSink()

    /// Makes libxml2 ready for use from several threads and closes its door to outside files,
    /// once per process.
    private static let setUp: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()

    /// Creates a reader over `bytes` (any encoding libxml2 detects or the XML declaration names).
    init(bytes: [UInt8]) {
        _ = Self.setUp
        input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        input.initialize(repeating: 0)
        _ = input.initialize(from: bytes)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue
            | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        if let address = input.baseAddress, bytes.count <= Int(Int32.max) {
            let base = UnsafeRawPointer(address).assumingMemoryBound(to: CChar.self)
            reader = xmlReaderForMemory(base, Int32(bytes.count), nil, nil, options)
        } else {
            reader = nil
        }
        if let reader {
            xmlTextReaderSetStructuredErrorHandler(reader, { arg, error in
                guard let arg, let error else { return }
                let sink = Unmanaged<ErrorSink>.fromOpaque(arg).takeUnretainedValue()
                let e = error.pointee
                guard e.level == XML_ERR_FATAL, sink.first == nil else { return }
                sink.first = XMLSyntaxError(line: Int(e.line), column: Int(e.int2), code: Int(e.code),
                                            libxmlMessage: XMLStreamReader.text(e.message))
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
    }

    deinit {
        if let reader { xmlFreeTextReader(reader) }
        input.deallocate()
    }

    /// Moves to the next node.
    /// - Returns: its kind, or nil at the end of a well-formed document.
    /// - Throws: the first fatal error, with libxml2's line and column (1-based).
    func next() throws(XMLSyntaxError) -> Kind? {
        guard let reader else {
            throw XMLSyntaxError(line: 1, column: 1, code: -1, libxmlMessage: "cannot start the XML reader")
        }
        let r = xmlTextReaderRead(reader)
        if let first = sink.first { throw first }
        if r == 0 { return nil }
        if r < 0 {
            throw XMLSyntaxError(line: Int(xmlTextReaderGetParserLineNumber(reader)),
                                 column: Int(xmlTextReaderGetParserColumnNumber(reader)), code: -1,
                                 libxmlMessage: "not well-formed XML")
        }
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            return .start(isEmpty: xmlTextReaderIsEmptyElement(reader) == 1)
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            return .end
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
             Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            return .text
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
            return .entityReference
        default:
            return .other
        }
    }

    /// Nesting depth of the current node (the root element is 0).
    var depth: Int {
        guard let reader else { return 0 }
        return Int(xmlTextReaderDepth(reader))
    }

    /// Whether the current node's local name (without prefix) is `name`. A prefix that no
    /// `xmlns:` declares stays in libxml2's local name; it is dropped here all the same.
    func localNameIs(_ name: String) -> Bool {
        guard let reader, let local = xmlTextReaderConstLocalName(reader) else { return false }
        var start = local
        var p = local
        while p.pointee != 0 {
            if p.pointee == UInt8(ascii: ":") { start = p + 1 }
            p += 1
        }
        return xmlStrEqual(start, name) == 1
    }

    /// The current node's qualified name, for messages.
    var name: String {
        guard let reader else { return "" }
        return Self.text(xmlTextReaderConstName(reader))
    }

    /// The current node's text (for `.text`), as UTF-8 bytes.
    var value: [UInt8] {
        guard let reader, let v = xmlTextReaderConstValue(reader) else { return [] }
        return Array(UnsafeBufferPointer(start: v, count: Int(xmlStrlen(v))))
    }

    /// The value of the current element's attribute with qualified name `name`, or nil.
    func attribute(_ name: String) -> String? {
        guard let reader, xmlTextReaderMoveToAttribute(reader, name) == 1 else { return nil }
        defer { _ = xmlTextReaderMoveToElement(reader) }
        guard let v = xmlTextReaderConstValue(reader) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: v, count: Int(xmlStrlen(v))), as: UTF8.self)
    }

    /// The line libxml2 recorded for the current element (where its start tag ends).
    var nodeLine: Int {
        guard let reader, let node = xmlTextReaderCurrentNode(reader) else { return 0 }
        return Int(xmlGetLineNo(node))
    }

    private static func text(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(xmlStrlen(p))), as: UTF8.self)
    }

    private static func text(_ p: UnsafeMutablePointer<CChar>?) -> String {
        guard let p else { return "" }
        return oneLine(String(cString: p))
    }

    /// libxml2's message on one line: its line ends become "; ", the last one dropped.
    static func oneLine(_ message: String) -> String {
        let parts = message.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return parts.joined(separator: "; ")
    }
}
