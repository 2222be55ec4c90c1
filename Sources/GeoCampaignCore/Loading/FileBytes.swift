/// A file's bytes in memory of their own, read through a plain pointer: the JSON document of an
/// import and the source file quoting its lines share one copy (a 95 MB GeoJSON file was held
/// twice while it was decoded).
final class FileBytes: @unchecked Sendable {
    /// The bytes; valid for the lifetime of `self`, never written after `init`.
    let buffer: UnsafeBufferPointer<UInt8>

    /// A copy of `bytes`.
    init(_ bytes: [UInt8]) {
        let b = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = b.initialize(from: bytes)
        buffer = UnsafeBufferPointer(rebasing: b[0..<bytes.count])
    }

    /// Takes over the first `count` bytes of `memory`, which must be allocated (by
    /// `UnsafeMutableBufferPointer.allocate`) and initialized; they are freed with `self`.
    init(adopting memory: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        buffer = UnsafeBufferPointer(rebasing: memory[0..<count])
    }

    /// Number of bytes.
    var count: Int { buffer.count }

    deinit {
        UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
    }
}
