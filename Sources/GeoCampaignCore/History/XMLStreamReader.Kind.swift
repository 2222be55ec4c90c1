extension XMLStreamReader {
    /// What the reader is on after `next()`.
    enum Kind: Equatable {
        /// A start tag (or an empty element); `isEmpty` is true for `<a/>`, whose end is not reported.
        case start(isEmpty: Bool)
        /// An end tag.
        case end
        /// Character data: text, CDATA or white space.
        case text
        /// An entity reference that was not expanded, as `&name;`.
        case entityReference
        /// Anything else: comments, processing instructions, the document type.
        case other
    }
}
