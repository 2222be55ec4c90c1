/// Takes the items of the array a parse streams (`JSONParser.ItemStream`), one at a time while
/// the text is parsed: an item's nodes are valid only during `take` and are then written over
/// by the next item's, so the array's items never fill the tape (a large GeoJSON import's
/// features took 80 MB or more of nodes, written once and read once).
///
/// Each thread that parses a part of the text has a sink of its own; the parts' sinks are joined
/// in text order by `append`.
protocol JSONItemSink: AnyObject {
    /// The next item of the array, the `k`-th this sink takes (0-based): node `item.index` of
    /// `item.tape`, whose places are byte offsets of the whole text.
    func take(_ item: JSONTape.Value, _ k: Int)

    /// Appends what `later` (a sink of the same type, of a part parsed ahead) took: items that
    /// follow this sink's, the first of them item `first` of the array.
    func append(_ later: any JSONItemSink, first: Int)
}
