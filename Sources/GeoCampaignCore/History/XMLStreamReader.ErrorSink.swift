extension XMLStreamReader {
    /// Collects the first fatal error libxml2 reports (its error callback's context).
    final class ErrorSink {
        /// The first fatal error, if any.
        var first: XMLSyntaxError?
    }
}
