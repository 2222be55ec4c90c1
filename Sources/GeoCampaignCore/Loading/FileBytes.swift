import Foundation

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
        mapping = nil
    }

    /// Takes over the first `count` bytes of `memory`, which must be allocated (by
    /// `UnsafeMutableBufferPointer.allocate`) and initialized; they are freed with `self`.
    init(adopting memory: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        buffer = UnsafeBufferPointer(rebasing: memory[0..<count])
        mapping = nil
    }

    /// The file the bytes are mapped from, if they are (`MappedFile`); nil for bytes of memory
    /// of their own.
    let mapping: MappedFile?

    /// The bytes of `mapping`, mapped for as long as `self` lives.
    init(mapping: MappedFile) {
        self.mapping = mapping
        buffer = mapping.bytes
    }

    /// Number of bytes.
    var count: Int { buffer.count }

    /// Whether the file changed since it was mapped (`MappedFile.changed`); false for bytes read.
    var fileChanged: Bool { mapping?.changed ?? false }

    deinit {
        if mapping == nil { UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate() }
    }
}

/// Advice to the kernel that large memory written once from start to end (an import's bytes,
/// the nodes parsed from them) be backed by 2 MiB pages where it can (`MADV_HUGEPAGE`): one
/// page fault per 2 MiB instead of one per 4 KiB (a 95 MB import and its nodes took some 60,000
/// faults). The bytes are the same either way; the kernel may ignore the advice.
enum HugePages {
    /// Memory below this many bytes is left as it is.
    static let from = 4 << 20

    /// Arrays of at least this many bytes are advised (`advise(storageOf:)`, `array(count:_:)`):
    /// they hold at least one whole 2 MiB page.
    static let arraysFrom = 3 << 20

    /// Advises huge pages for the storage of `array`, its whole capacity (written later by
    /// appends): large arrays filled once, such as a campaign's regions as they are merged
    /// (10 MB for 100k regions, 2,500 page faults of 4 KiB on one thread). Arrays below
    /// `ProcessMemory.mappedBlockBytes` lie in malloc's heap: the advice covers the whole 2 MiB pages inside
    /// the array, fresh memory at the heap's end when the array was just allocated.
    static func advise<Element>(storageOf array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard bytes >= arraysFrom else { return }
        array.withUnsafeMutableBufferPointer { b in
            if let p = b.baseAddress { advise(UnsafeMutableRawPointer(p), bytes: bytes, from: arraysFrom) }
        }
    }

    /// An array of `count` elements, each written in place by `body` (which must initialize
    /// them all), its storage advised huge pages when large (see `advise(storageOf:)`): the
    /// compile's arrays of 100k regions (heads, bounds, classifiers) took some 9,000 page
    /// faults of 4 KiB, most on one thread.
    static func array<Element>(count: Int, _ body: (UnsafeMutableBufferPointer<Element>) -> Void) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, written in
            if let p = buffer.baseAddress { advise(UnsafeMutableRawPointer(p), bytes: count * MemoryLayout<Element>.stride, from: arraysFrom) }
            body(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
            written = count
        }
    }

    /// Advises huge pages for the whole 2 MiB pages within `bytes` bytes at `p`, when `bytes`
    /// is at least `from`.
    static func advise(_ p: UnsafeMutableRawPointer, bytes: Int, from: Int = HugePages.from) {
        #if os(Linux)
        guard bytes >= from else { return }
        let huge = 2 << 20
        let base = Int(bitPattern: p)
        let start = (base + huge - 1) / huge * huge, end = (base + bytes) / huge * huge
        guard end > start, let s = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(s, end - start, Int32(MADV_HUGEPAGE))
        #endif
    }
}
