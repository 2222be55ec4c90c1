import Foundation

/// A strict RFC 8259 parser that builds a `JSONDocument` tape; every value's line and column
/// (1-based, in characters) can be had from it. Nesting is bounded, so hostile files cannot
/// exhaust the stack.
struct JSONParser {
    /// Deepest nesting accepted.
    static let maxDepth = 64

    private let bytes: FileBytes

    init(bytes: [UInt8]) {
        self.bytes = FileBytes(bytes)
    }

    /// A parser over bytes that the document it builds shares (no copy).
    init(bytes: FileBytes) {
        self.bytes = bytes
    }

    /// Parses the whole text as one JSON value and returns the root.
    mutating func parse() throws(YAMLProblem) -> JSONNode {
        JSONNode(document: try document(), index: 0)
    }

    /// Texts of at least this many bytes are parsed in parts on all cores.
    static let parallelFrom = 4 << 20

    /// Which array a parse streams, and where its items go (see `JSONItemSink`).
    struct ItemStream {
        /// The root object's member whose value is streamed when it is an array: the first member
        /// of that name, as `JSONTape.member` compares names.
        let member: String
        /// Takes the items the calling thread parses, and then those of the parts parsed ahead.
        /// When the document's `streamed` is nil (no array was streamed: the member is missing
        /// or not an array, or is an array of two numbers, which is a position), what it took is
        /// to be dropped.
        let sink: any JSONItemSink
        /// A sink for each part parsed ahead (called on the calling thread before the parse).
        let makeSink: () -> any JSONItemSink
    }

    /// Parses the whole text as one JSON value; large texts in `parts` parts on as many threads
    /// (by default one per core), with the same nodes, marks and errors as one pass. With a
    /// `stream`, the items of its array are handed to its sinks as they are parsed and leave no
    /// nodes: that array's node then has no items (the document's `streamed` tells it and how
    /// many items it had); everything else is as without a stream. On an error the sinks may
    /// have taken items already (their outcomes are to be dropped).
    /// - Complexity: O(bytes), one tape node per value (none kept for a streamed array's items).
    func document(parts: Int? = nil, stream: ItemStream? = nil) throws(YAMLProblem) -> JSONDocument {
        var tape = try Tape(b: bytes.buffer, stream: stream)
        let count = parts ?? (bytes.count < Self.parallelFrom ? 1 : min(8, ProcessInfo.processInfo.activeProcessorCount))
        do throws(YAMLProblem) {
            try tape.run(parts: count)
            return JSONDocument(bytes: bytes, nodes: tape.takeNodes(), capacity: tape.capacity, lineStarts: tape.lineStarts,
                                streamed: tape.streamed)
        } catch {
            NodeMemory.free(tape.takeNodes().baseAddress.unsafelyUnwrapped, capacity: tape.capacity)
            throw error
        }
    }

    /// A part of the text parsed on another thread from a guessed start of an array item, into
    /// the main pass's node memory at a guessed place: the main pass takes it over (moving its
    /// nodes down) when it reaches that byte at an item start, else drops it. Written by its
    /// thread, read after `wait()`.
    private final class Ahead: @unchecked Sendable {
        let start: Int
        /// The next part's start, where this part stops if it meets it at an item start.
        let stopAt: Int?
        /// Its nodes start here, and are never written at or past `nodeLimit`.
        let firstNode: Int
        let nodeLimit: Int
        private let done = DispatchSemaphore(value: 0)
        private var waited = false
        /// Results: parsed without an error; nodes `firstNode ..< nodeEnd`; items; the byte where
        /// it stopped; whether that is an item start; the line starts it met (after a first
        /// entry that is `start`); the deepest container (relative to the items' depth 0).
        private(set) var ok = false
        private(set) var nodeEnd = 0
        var items = 0
        private(set) var end = 0
        private(set) var atItem = false
        private(set) var lineStarts: [Int32] = []
        private(set) var deepest = -1
        /// When the parse streams an array: what this part's items went to (each item's nodes
        /// written over by the next). Such a part can only be taken over by the streamed array.
        let sink: (any JSONItemSink)?

        init(start: Int, stopAt: Int?, firstNode: Int, nodeLimit: Int, sink: (any JSONItemSink)?) {
            self.start = start
            self.stopAt = stopAt
            self.firstNode = firstNode
            self.nodeLimit = nodeLimit
            self.sink = sink
        }

        /// Records the outcome (`atItem`, nil after an error) and wakes the waiter.
        func finish(_ atItem: Bool?, _ tape: Tape) {
            ok = atItem != nil
            self.atItem = atItem ?? false
            nodeEnd = tape.count
            end = tape.i
            lineStarts = tape.lineStarts
            deepest = tape.deepestContainer
            done.signal()
        }

        /// Waits until the thread is done (once).
        func wait() {
            if waited { return }
            done.wait()
            waited = true
        }
    }

    /// The text and the node memory, as the threads parsing ahead share them (each writes only
    /// its own room of the memory).
    private struct Shared: @unchecked Sendable {
        let b: UnsafeBufferPointer<UInt8>
        let base: UnsafeMutablePointer<JSONTape.Node>
        let capacity: Int
    }

    /// The one-pass builder over the bytes.
    private struct Tape {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0
        /// The nodes so far, in memory the tape owns, handed to the document without a copy.
        private var base: UnsafeMutablePointer<JSONTape.Node>
        private(set) var capacity: Int
        private(set) var count = 0
        var lineStarts: [Int32] = [0]
        /// Nodes are not written at or past this index: the end of the memory, the room of the
        /// next part parsed ahead, or for a part parsed ahead the end of its room.
        private var limit: Int
        /// The deepest container opened (its `depth`), -1 before any.
        private var deepest = -1
        var deepestContainer: Int { deepest }
        /// The main pass: the parts parsed ahead on other threads, by start; the next one not
        /// taken or dropped; and its start (`Int.max` when none is left).
        private var aheads: [Ahead] = []
        private var nextAhead = 0
        private var joinAt = Int.max
        /// A part parsed ahead: what it parses.
        private let ahead: Ahead?
        /// The main pass of a streaming parse: the stream; whether the root object's member it
        /// names was met; the streamed array's node and item count once it is closed.
        private let stream: ItemStream?
        private var memberMet = false
        private(set) var streamed: JSONDocument.Streamed?

        init(b: UnsafeBufferPointer<UInt8>, stream: ItemStream? = nil) throws(YAMLProblem) {
            self.b = b
            capacity = b.count / 8 + 16
            guard let memory = NodeMemory.allocate(capacity) else {
                throw YAMLProblem(mark: SourceMark(line: 1, column: 1), message: NodeMemory.failureMessage(capacity))
            }
            base = memory
            limit = capacity
            ahead = nil
            self.stream = stream
        }

        /// The tape of the part parsed ahead `a`, writing into the main pass's memory.
        private init(b: UnsafeBufferPointer<UInt8>, base: UnsafeMutablePointer<JSONTape.Node>, capacity: Int, ahead a: Ahead) {
            self.b = b
            self.base = base
            self.capacity = capacity
            ahead = a
            stream = nil
            count = a.firstNode
            limit = a.nodeLimit
            i = a.start
            lineStarts = [Int32(a.start)]
        }

        /// The nodes built, owned by the caller from now on.
        func takeNodes() -> UnsafeMutableBufferPointer<JSONTape.Node> {
            UnsafeMutableBufferPointer(start: base, count: count)
        }

        /// Doubles the node memory; the error is at the value being read.
        private mutating func grow() throws(YAMLProblem) {
            let bigger = capacity * 2
            guard let fresh = NodeMemory.allocate(bigger) else { throw problem(NodeMemory.failureMessage(bigger)) }
            fresh.moveInitialize(from: base, count: count)
            NodeMemory.free(base, capacity: capacity)
            base = fresh
            capacity = bigger
        }

        mutating func run(parts: Int) throws(YAMLProblem) {
            if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
                i = 3
                lineStarts[0] = 3
            }
            startAheads(parts)
            // Whatever happens, no part parsed ahead is still writing when this returns.
            defer { dropAheads(from: nextAhead) }
            skipSpace()
            try value(depth: 0)
            skipSpace()
            if i < b.count { throw problem("unexpected text after the end of the JSON value") }
        }

        /// Starts `parts - 1` threads that parse ahead from guessed starts of array items: a
        /// `{` after `},` (between two features of a GeoJSON file), the first after each
        /// `1/parts` of the text, each writing its nodes at the same fraction of the node memory.
        /// - Complexity: O(parts) guesses of O(bytes to the first `},{`) each.
        private mutating func startAheads(_ parts: Int) {
            guard parts > 1 else { return }
            var starts: [Int] = []
            for k in 1..<parts {
                var j = max(b.count * k / parts, (starts.last ?? 0) + 1)
                var found: Int?
                while j < b.count, found == nil {
                    if b[j] == 0x7D {
                        var m = j + 1
                        while m < b.count, b[m] == 0x20 || b[m] == 0x09 || b[m] == 0x0A || b[m] == 0x0D { m += 1 }
                        if m < b.count, b[m] == 0x2C {
                            m += 1
                            while m < b.count, b[m] == 0x20 || b[m] == 0x09 || b[m] == 0x0A || b[m] == 0x0D { m += 1 }
                            if m < b.count, b[m] == 0x7B { found = m }
                        }
                    }
                    j += 1
                }
                if let f = found { starts.append(f) }
            }
            for (k, start) in starts.enumerated() {
                let firstNode = Int(Double(start) / Double(b.count) * Double(capacity))
                let nodeLimit = k + 1 < starts.count ? Int(Double(starts[k + 1]) / Double(b.count) * Double(capacity)) : capacity
                aheads.append(Ahead(start: start, stopAt: k + 1 < starts.count ? starts[k + 1] : nil, firstNode: firstNode, nodeLimit: nodeLimit,
                                    sink: stream?.makeSink()))
            }
            guard let first = aheads.first else { return }
            limit = first.firstNode
            joinAt = first.start
            let shared = Shared(b: b, base: base, capacity: capacity)
            for a in aheads {
                let thread = Thread {
                    var tape = Tape(b: shared.b, base: shared.base, capacity: shared.capacity, ahead: a)
                    a.finish(try? tape.parseAhead(), tape)
                }
                thread.stackSize = 1 << 22
                thread.start()
            }
        }

        /// A part parsed ahead: items of an array from `start`, until the next part's start at an
        /// item start (true) or this array's `]` (false, not read). When the parse streams an
        /// array, each item goes to the part's sink and its nodes are written over by the next.
        private mutating func parseAhead() throws(YAMLProblem) -> Bool {
            guard let a = ahead else { return false }
            while true {
                let item = count
                if i < b.count, b[i] == 0x2D || (b[i] >= 0x30 && b[i] <= 0x39) {
                    try number()
                } else {
                    try value(depth: 0)
                }
                if let sink = a.sink {
                    sink.take(JSONTape.Value(view, item), a.items)
                    count = item
                }
                a.items += 1
                skipSpace()
                guard i < b.count else { throw problem("") }
                if b[i] == 0x2C {
                    i += 1
                    skipSpace()
                    if i == a.stopAt { return true }
                    continue
                }
                if b[i] == 0x5D { return false }
                throw problem("")
            }
        }

        /// Waits for the parts parsed ahead from number `k` on and drops them; nodes may then be
        /// written anywhere.
        private mutating func dropAheads(from k: Int) {
            for a in aheads[min(k, aheads.count)...] { a.wait() }
            nextAhead = aheads.count
            joinAt = Int.max
        }

        /// At byte `i`, the start of an item of an array whose items are at `depth`: takes over
        /// the part parsed ahead from here if there is one and it parsed as this pass would have
        /// (no error, nesting within bounds; a part that streamed its items only by the streamed
        /// array, whose `sink` then takes them, and any other part only by another array).
        /// Returns whether it stopped at the next part's start (true) or before the array's `]`
        /// (false); nil when nothing was taken (parts that started before `i` were guessed wrong
        /// and are dropped).
        private mutating func takeAhead(depth: Int, items: inout Int, sink: (any JSONItemSink)? = nil) -> Bool? {
            while nextAhead < aheads.count, aheads[nextAhead].start < i {
                aheads[nextAhead].wait()
                nextAhead += 1
            }
            guard nextAhead < aheads.count else {
                joinAt = Int.max
                limit = capacity
                return nil
            }
            let a = aheads[nextAhead]
            joinAt = a.start
            guard a.start == i else {
                // Nodes may grow up to this part's room.
                limit = a.firstNode
                return nil
            }
            a.wait()
            nextAhead += 1
            joinAt = nextAhead < aheads.count ? aheads[nextAhead].start : Int.max
            limit = nextAhead < aheads.count ? aheads[nextAhead].firstNode : capacity
            guard a.ok, depth + a.deepest < JSONParser.maxDepth, count <= a.firstNode, (a.sink == nil) == (sink == nil) else { return nil }
            if let streamedItems = a.sink, let sink {
                sink.append(streamedItems, first: items)
            } else {
                moveDown(a)
            }
            lineStarts += a.lineStarts.dropFirst()
            i = a.end
            items += a.items
            return a.atItem
        }

        /// Moves the nodes of part `a` down to `count` (their `next` indices with them), a block
        /// at a time, giving back the pages of the blocks moved past the new end. When the nodes
        /// do not overlap their new place (the usual case: the room of a part is guessed from
        /// its bytes, generously), the blocks are moved on all cores, in any order.
        private mutating func moveDown(_ a: Ahead) {
            let n = a.nodeEnd - a.firstNode, delta = a.firstNode - count
            let block = 1 << 16
            let base = self.base, to = count, from = a.firstNode
            func move(_ k: Int) {
                let m = min(block, n - k)
                let dst = base + to + k
                dst.moveInitialize(from: base + from + k, count: m)
                for j in 0..<m where dst[j].kind != .position { dst[j].shiftNext(by: -delta) }
                let freed = max(from + k, to + n)
                if freed < from + k + m { NodeMemory.release(base, freed..<(from + k + m)) }
            }
            let blocks = (n + block - 1) / block
            if delta >= n && blocks >= 4 {
                DispatchQueue.concurrentPerform(iterations: blocks) { move($0 * block) }
            } else if delta > 0 {
                for q in 0..<blocks { move(q * block) }
            }
            count += n
        }

        /// The nodes written so far, as a tape (for a sink to read an item's nodes in place).
        private var view: JSONTape {
            JSONTape(bytes: b, nodes: UnsafeBufferPointer(start: base, count: count))
        }

        /// The value of the root object's member that the stream names, at byte `i`: an array is
        /// read as `value(depth:)` reads it, but each item goes to `sink` as soon as it is read
        /// and its nodes are then written over by the next item's; the array's node keeps no
        /// items. Anything else (a position among them) is read by `value(depth:)`.
        private mutating func streamedValue(depth: Int, sink: any JSONItemSink) throws(YAMLProblem) {
            guard i < b.count, b[i] == 0x5B else { return try value(depth: depth) }
            let start = i
            guard depth < JSONParser.maxDepth else { throw problem("the JSON is nested more than \(JSONParser.maxDepth) levels deep") }
            if depth > deepest { deepest = depth }
            if position() { return }
            let me = count
            try add(.array, start)
            i += 1
            skipSpace()
            if i < b.count, b[i] == 0x5D {
                i += 1
                streamed = JSONDocument.Streamed(node: me, items: 0)
                return
            }
            var items = 0
            // The first two items' numbers, when they are numbers this pass read (an array of
            // two numbers is a position, as `closePosition` makes it).
            var numbers: [Double] = []
            while true {
                skipSpace()
                if i >= joinAt, let atItem = takeAhead(depth: depth + 1, items: &items, sink: sink) {
                    // The items parsed ahead from here went to that part's sink, now appended.
                    numbers = [.nan, .nan, .nan]
                    if atItem { continue }
                } else {
                    let item = count
                    try value(depth: depth + 1)
                    if numbers.count == items && items < 2 && count == item + 1 && base[item].kind == .number { numbers.append(base[item].number) }
                    sink.take(JSONTape.Value(view, item), items)
                    count = item
                    items += 1
                }
                skipSpace()
                guard i < b.count else { throw problem("the JSON text ends inside an array: add the closing ']'") }
                if b[i] == 0x2C {
                    i += 1
                    continue
                }
                if b[i] == 0x5D {
                    i += 1
                    if items == 2 && numbers.count == 2 {
                        // Two numbers: the position node a parse without a stream makes, and
                        // nothing streamed (what the sink took is to be dropped).
                        base[me] = JSONTape.Node(offset: base[me].offset, longitude: numbers[0], latitude: numbers[1])
                        return
                    }
                    close(me, children: 0)
                    streamed = JSONDocument.Streamed(node: me, items: items)
                    return
                }
                throw problem("expected ',' or ']' in an array")
            }
        }

        /// A problem at byte `i`; every line break before it has been recorded.
        func problem(_ message: String) -> YAMLProblem {
            let start = Int(lineStarts[lineStarts.count - 1])
            var column = 1
            var k = start
            while k < i && k < b.count {
                if b[k] & 0xC0 != 0x80 { column += 1 }
                k += 1
            }
            return YAMLProblem(mark: SourceMark(line: lineStarts.count, column: column), message: message)
        }

        @inline(__always)
        mutating func skipSpace() {
            while i < b.count {
                switch b[i] {
                case 0x20, 0x09, 0x0D: i += 1
                case 0x0A:
                    i += 1
                    lineStarts.append(Int32(i))
                default: return
                }
            }
        }

        @inline(__always)
        mutating func add(_ kind: JSONTape.Kind, _ offset: Int, size: Int = 0, number: Double = 0) throws(YAMLProblem) {
            if count == limit { try reachedLimit() }
            (base + count).initialize(to: JSONTape.Node(kind: kind, offset: offset, size: size, next: count + 1, number: number))
            count += 1
        }

        /// The nodes reach `limit`: a part parsed ahead stops (its room is full); the main pass
        /// drops the parts parsed ahead (it needs their room) and grows when the memory is full.
        private mutating func reachedLimit() throws(YAMLProblem) {
            if ahead != nil { throw YAMLProblem(mark: SourceMark(line: 0, column: 0), message: "no room") }
            dropAheads(from: nextAhead)
            if count == capacity { try grow() }
            limit = capacity
        }

        /// Sets the child count and end of container node `k` once its last child is read.
        mutating func close(_ k: Int, children: Int) {
            base[k].close(size: children, next: count)
        }

        /// Array node `k` just closed: when it is two numbers, it becomes one position node and
        /// its two number nodes are dropped.
        mutating func closePosition(_ k: Int) {
            guard count == k + 3, base[k + 1].kind == .number, base[k + 2].kind == .number else { return }
            base[k] = JSONTape.Node(offset: base[k].offset, longitude: base[k + 1].number, latitude: base[k + 2].number)
            count = k + 1
        }

        mutating func value(depth: Int) throws(YAMLProblem) {
            guard i < b.count else { throw problem("the JSON text ends where a value was expected") }
            let start = i
            switch b[i] {
            case 0x7B:
                guard depth < JSONParser.maxDepth else { throw problem("the JSON is nested more than \(JSONParser.maxDepth) levels deep") }
                if depth > deepest { deepest = depth }
                let me = count
                try add(.object, start)
                i += 1
                skipSpace()
                if i < b.count, b[i] == 0x7D {
                    i += 1
                    return
                }
                var items = 0
                while true {
                    skipSpace()
                    guard i < b.count, b[i] == 0x22 else { throw problem("expected a quoted member name") }
                    try string()
                    skipSpace()
                    guard i < b.count, b[i] == 0x3A else { throw problem("expected ':' after the member name") }
                    i += 1
                    skipSpace()
                    if depth == 0, ahead == nil, let stream, !memberMet, view.isName(count - 1, stream.member) {
                        memberMet = true
                        try streamedValue(depth: depth + 1, sink: stream.sink)
                    } else {
                        try value(depth: depth + 1)
                    }
                    items += 1
                    skipSpace()
                    guard i < b.count else { throw problem("the JSON text ends inside an object: add the closing '}'") }
                    if b[i] == 0x2C {
                        i += 1
                        continue
                    }
                    if b[i] == 0x7D {
                        i += 1
                        close(me, children: items)
                        return
                    }
                    throw problem("expected ',' or '}' in an object")
                }
            case 0x5B:
                guard depth < JSONParser.maxDepth else { throw problem("the JSON is nested more than \(JSONParser.maxDepth) levels deep") }
                if depth > deepest { deepest = depth }
                if position() { return }
                let me = count
                try add(.array, start)
                i += 1
                skipSpace()
                if i < b.count, b[i] == 0x5D {
                    i += 1
                    return
                }
                var items = 0
                while true {
                    skipSpace()
                    if i >= joinAt, let atItem = takeAhead(depth: depth + 1, items: &items) {
                        // The items parsed ahead from here are taken over; they end at the next
                        // part's start (an item start) or before this array's ']'.
                        if atItem { continue }
                    } else if i < b.count, b[i] == 0x2D || (b[i] >= 0x30 && b[i] <= 0x39) {
                        // Numbers (most items of GeoJSON arrays) skip the general dispatch.
                        try number()
                        items += 1
                    } else if i < b.count, b[i] == 0x5B, depth + 1 < JSONParser.maxDepth, position() {
                        // So do positions (most items of a ring), when the fast path reads them,
                        // and the positions that follow them directly (`,[`), before any part
                        // parsed ahead.
                        if depth + 1 > deepest { deepest = depth + 1 }
                        items += 1
                        var resumed = false
                        while i &+ 1 < b.count, i < joinAt, b[i] == 0x2C, b[i &+ 1] == 0x5B {
                            i &+= 1
                            guard position() else {
                                resumed = true
                                break
                            }
                            items += 1
                        }
                        // The comma is read; the general path reads the item at `i`.
                        if resumed { continue }
                    } else {
                        try value(depth: depth + 1)
                        items += 1
                    }
                    skipSpace()
                    guard i < b.count else { throw problem("the JSON text ends inside an array: add the closing ']'") }
                    if b[i] == 0x2C {
                        i += 1
                        continue
                    }
                    if b[i] == 0x5D {
                        i += 1
                        close(me, children: items)
                        if items == 2 { closePosition(me) }
                        return
                    }
                    throw problem("expected ',' or ']' in an array")
                }
            case 0x22:
                try string()
            case 0x74:
                try literal(0x74, 0x72, 0x75, 0x65)
                try add(.true, start)
            case 0x66:
                try literal(0x66, 0x61, 0x6C, 0x73, 0x65)
                try add(.false, start)
            case 0x6E:
                try literal(0x6E, 0x75, 0x6C, 0x6C)
                try add(.null, start)
            default:
                try number()
            }
        }

        mutating func literal(_ word: UInt8...) throws(YAMLProblem) {
            guard i + word.count <= b.count, word.indices.allSatisfy({ b[i + $0] == word[$0] }) else {
                throw problem("unexpected text: a JSON value is an object, array, string, number, true, false or null")
            }
            i += word.count
        }

        /// At the `[` at byte `i`: when the bytes are a GeoJSON position as most files write one,
        /// `[`, a number, `,`, a number, `]` (spaces allowed between them, no other white space)
        /// with both numbers read by `fastNumber`, adds its position node (the same node that
        /// the general path builds and `closePosition` collapses) and moves past the `]`.
        /// Otherwise returns false with nothing read or written: the general path then reads
        /// the same bytes (and gives any error at its place).
        @inline(__always)
        mutating func position() -> Bool {
            guard count < limit, let p = b.baseAddress else { return false }
            let n = b.count
            // Most positions: `[`, a number, `,`, a number, `]` with no spaces, both numbers
            // read by `shortNumber`, far enough from the end of the text for its loads; the
            // same node as below, which reads the others (the same bytes, the same doubles).
            if i &+ 48 <= n {
                var j = i &+ 1
                if let lon = JSONParser.shortNumber(p, &j), p[j] == 0x2C {
                    j &+= 1
                    if let lat = JSONParser.shortNumber(p, &j), p[j] == 0x5D {
                        (base + count).initialize(to: JSONTape.Node(offset: Int32(truncatingIfNeeded: i), longitude: lon, latitude: lat))
                        count &+= 1
                        i = j &+ 1
                        return true
                    }
                }
            }
            var j = i &+ 1
            var values = (0.0, 0.0)
            // One loop for both numbers, so that `fastNumber` is inlined once.
            for part in 0..<2 {
                while j < n, p[j] == 0x20 { j &+= 1 }
                guard let v = JSONParser.fastNumber(p, n, &j) else { return false }
                while j < n, p[j] == 0x20 { j &+= 1 }
                guard j < n, p[j] == (part == 0 ? 0x2C : 0x5D) else { return false }
                j &+= 1
                if part == 0 { values.0 = v } else { values.1 = v }
            }
            (base + count).initialize(to: JSONTape.Node(offset: Int32(truncatingIfNeeded: i), longitude: values.0, latitude: values.1))
            count &+= 1
            i = j
            return true
        }

        /// Reads a number: through `fastNumber` when it can, else by a scan that checks the
        /// syntax (and gives the errors) and then `Double(text)`.
        mutating func number() throws(YAMLProblem) {
            let start = i
            let n = b.count
            var j = i
            if let p = b.baseAddress, let v = JSONParser.fastNumber(p, n, &j) {
                i = j
                try add(.number, start, size: j - start, number: v)
                return
            }
            if j < n, b[j] == 0x2D { j += 1 }
            guard j < n, b[j] &- 0x30 <= 9 else {
                i = j
                throw problem("unexpected text: a JSON value is an object, array, string, number, true, false or null")
            }
            if b[j] == 0x30 {
                j += 1
            } else {
                while j < n, b[j] &- 0x30 <= 9 { j += 1 }
            }
            if j < n, b[j] == 0x2E {
                j += 1
                let fractionStart = j
                while j < n, b[j] &- 0x30 <= 9 { j += 1 }
                guard j > fractionStart else {
                    i = j
                    throw problem("a number needs digits after the decimal point")
                }
            }
            if j < n, b[j] == 0x65 || b[j] == 0x45 {
                j += 1
                if j < n, b[j] == 0x2B || b[j] == 0x2D { j += 1 }
                let exponentStart = j
                while j < n, b[j] &- 0x30 <= 9 { j += 1 }
                guard j > exponentStart else {
                    i = j
                    throw problem("a number needs digits in its exponent")
                }
            }
            i = j
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { throw problem("a number is too large (beyond 1.8e308)") }
            try add(.number, start, size: j - start, number: d)
        }

        mutating func hex4() throws(YAMLProblem) -> UInt32 {
            guard i + 4 <= b.count else { throw problem("a \\u escape needs 4 hex digits") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = b[i]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw problem("a \\u escape needs 4 hex digits")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        /// Checks a string starting at its quote and adds its node; the text is decoded only
        /// when asked for.
        mutating func string() throws(YAMLProblem) {
            let quote = i
            i += 1
            let from = i
            // Fast path: plain bytes up to the closing quote.
            var high: UInt8 = 0
            while i < b.count {
                let c = b[i]
                if c == 0x22 {
                    try add(high < 0x80 ? .asciiString : .string, quote, size: i - from)
                    i += 1
                    return
                }
                if c == 0x5C || c < 0x20 { break }
                high |= c
                i += 1
            }
            var escaped = false
            while true {
                guard i < b.count else { throw problem("a string is never closed: add the closing '\"'") }
                let c = b[i]
                if c == 0x22 { break }
                if c < 0x20 { throw problem("a control character (such as a line break) inside a string: write it as an escape like \\n") }
                i += 1
                if c != 0x5C { continue }
                escaped = true
                guard i < b.count else { throw problem("a string is never closed: add the closing '\"'") }
                let e = b[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: break
                case 0x75:
                    let u = try hex4()
                    if (0xD800...0xDBFF).contains(u), i + 1 < b.count, b[i] == 0x5C, b[i + 1] == 0x75 {
                        i += 2
                        _ = try hex4()
                    }
                default:
                    throw problem("unknown escape in a string: use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX")
                }
            }
            try add(escaped ? .escapedString : .string, quote, size: i - from)
            i += 1
        }
    }

    /// 10^0 ... 10^8.
    static let pow10Int: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// Exact powers of ten representable as doubles.
    static let pow10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
