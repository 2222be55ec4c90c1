/// A well-formedness error found by `XMLStreamReader`: where (1-based, as libxml2 counts) and what.
struct XMLSyntaxError: Error, Sendable, Equatable {
    /// 1-based line.
    var line: Int
    /// 1-based column.
    var column: Int
    /// libxml2's error number (`xmlParserErrors`), or -1.
    var code: Int
    /// libxml2's own message, without its line end.
    var libxmlMessage: String

    /// A readable message: a plain sentence for the common errors, else libxml2's text.
    var message: String {
        switch code {
        case 4: return "the document is empty"
        case 5: return "unexpected end of the document, or content after the root element"
        case 9: return "invalid character (\(libxmlMessage))"
        case 26: return "undeclared entity (\(libxmlMessage))"
        case 73: return "'>' expected"
        case 76: return "closing tag does not match the open element (\(libxmlMessage))"
        case 77: return "element not closed at the end of the document"
        default: return libxmlMessage.isEmpty ? "not well-formed XML" : libxmlMessage
        }
    }
}
