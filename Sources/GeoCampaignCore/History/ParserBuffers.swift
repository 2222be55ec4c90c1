/// The scratch memory of a history line parser (`JSONLineParser`, `CSVRowParser`): a buffer an
/// escaped user id is decoded into, a buffer for other decoded or rewritten text (a key, a
/// timestamp, a number with a decimal comma), both grown on demand and kept between lines, and
/// `JSONNumber.pow10` as a plain buffer. Freed with its parser.
///
/// A pointer a buffer gives stays valid until that buffer grows.
struct ParserBuffers: ~Copyable {
    /// Where a user id is decoded to: at least the room last asked of `user(atLeast:)`.
    private(set) var user: UnsafeMutablePointer<UInt8>
    private var userCapacity: Int
    private var tmp: UnsafeMutablePointer<UInt8>
    private var tmpCapacity: Int
    /// `JSONNumber.pow10`, for the exact division of the common numbers.
    let powersOfTen: UnsafeMutablePointer<Double>

    /// Buffers of `capacity` bytes each to start with.
    init(capacity: Int = 256) {
        userCapacity = capacity
        user = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        tmpCapacity = capacity
        tmp = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        powersOfTen = UnsafeMutablePointer<Double>.allocate(capacity: JSONNumber.pow10.count)
        powersOfTen.initialize(from: JSONNumber.pow10, count: JSONNumber.pow10.count)
    }

    deinit {
        user.deallocate()
        tmp.deallocate()
        powersOfTen.deallocate()
    }

    /// The user id buffer, with room for at least `n` bytes (its contents are not kept when it grows).
    @inline(__always)
    mutating func user(atLeast n: Int) -> UnsafeMutablePointer<UInt8> {
        if n > userCapacity { ParserBuffers.grow(&user, &userCapacity, to: n) }
        return user
    }

    /// The other buffer, with room for at least `n` bytes (its contents are not kept when it grows).
    @inline(__always)
    mutating func tmp(atLeast n: Int) -> UnsafeMutablePointer<UInt8> {
        if n > tmpCapacity { ParserBuffers.grow(&tmp, &tmpCapacity, to: n) }
        return tmp
    }

    /// Replaces `buffer` by one of at least `n` bytes (and at least twice its capacity).
    @inline(never)
    private static func grow(_ buffer: inout UnsafeMutablePointer<UInt8>, _ capacity: inout Int, to n: Int) {
        buffer.deallocate()
        capacity = max(n, capacity * 2)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }
}
