import Foundation

/// A parsed JSON text: the owner of its `JSONTape` (bytes and nodes, built in one pass without an
/// allocation per value), and the positions (line, column) of values, computed only when asked
/// for from the bytes.
final class JSONDocument: @unchecked Sendable {
    /// The bytes (shared, kept alive by `storage`) and nodes (owned, freed with the document).
    let tape: JSONTape
    private let storage: FileBytes
    private var bytes: UnsafeBufferPointer<UInt8> { tape.bytes }
    /// Byte offset of the first column of each line (lines end at LF; line 1 starts after a BOM).
    private let lineStarts: [Int32]
    /// Characters (UTF-8 lead bytes) before each 1 KiB block, built on the first mark that needs
    /// it (a long line); guarded by `lock`.
    private var blockChars: [Int32]?
    private let lock = NSLock()

    private static let blockShift = 10

    /// Room for this many nodes in the nodes' memory (`NodeMemory`).
    private let capacity: Int

    /// An array whose items were streamed (`JSONParser.ItemStream`): its node, which keeps no
    /// items, and how many items it had.
    struct Streamed: Equatable {
        var node: Int
        var items: Int
    }

    /// The array the parse streamed, if any.
    let streamed: Streamed?

    /// A document over `bytes` (shared, not copied), owning `nodes` (allocated by the parser
    /// from `NodeMemory` with room for `capacity`).
    init(bytes: FileBytes, nodes: UnsafeMutableBufferPointer<JSONTape.Node>, capacity: Int, lineStarts: [Int32],
         streamed: Streamed? = nil) {
        storage = bytes
        self.capacity = capacity
        tape = JSONTape(bytes: bytes.buffer, nodes: UnsafeBufferPointer(nodes))
        self.lineStarts = lineStarts
        self.streamed = streamed
    }

    deinit {
        NodeMemory.free(UnsafeMutablePointer(mutating: tape.nodes.baseAddress.unsafelyUnwrapped), capacity: capacity)
    }

    /// The same text parsed again without a stream, with all its nodes (a streamed array's
    /// items among them).
    func reparsed() -> JSONDocument? {
        try? JSONParser(bytes: storage).document()
    }

    /// The line and column (1-based, the column in characters) of byte `offset`.
    /// - Complexity: O(log lines + min(line length, 2 KiB)); the first mark on a line longer than
    ///   that builds a table over the file once.
    func mark(atOffset offset: Int) -> SourceMark {
        var lo = 0, hi = lineStarts.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if Int(lineStarts[mid]) <= offset { lo = mid } else { hi = mid }
        }
        let start = Int(lineStarts[lo])
        return SourceMark(line: lo + 1, column: characters(from: start, to: offset) + 1)
    }

    /// UTF-8 lead bytes in `bytes[from..<to]`.
    private func characters(from: Int, to: Int) -> Int {
        let end = min(to, bytes.count)
        guard end > from else { return 0 }
        if end - from <= 2 << Self.blockShift { return Self.leadBytes(bytes, from, end) }
        return prefixCharacters(end) - prefixCharacters(from)
    }

    /// UTF-8 lead bytes before byte `x`, through the block table.
    private func prefixCharacters(_ x: Int) -> Int {
        let table = blockTable()
        let block = x >> Self.blockShift
        return Int(table[block]) + Self.leadBytes(bytes, block << Self.blockShift, x)
    }

    private func blockTable() -> [Int32] {
        lock.lock()
        defer { lock.unlock() }
        if let t = blockChars { return t }
        let blockSize = 1 << Self.blockShift
        var t: [Int32] = [0]
        t.reserveCapacity(bytes.count / blockSize + 2)
        var total = 0
        var from = 0
        while from < bytes.count {
            let to = min(bytes.count, from + blockSize)
            total += Self.leadBytes(bytes, from, to)
            t.append(Int32(total))
            from = to
        }
        blockChars = t
        return t
    }

    /// Bytes in `b[from..<to]` that start a UTF-8 sequence (are not continuation bytes).
    static func leadBytes(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var n = 0
        var k = from
        while k < to {
            n &+= p[k] & 0xC0 != 0x80 ? 1 : 0
            k += 1
        }
        return n
    }

}
