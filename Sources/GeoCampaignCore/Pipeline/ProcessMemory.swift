#if canImport(Glibc)
import Glibc
#endif

/// How the command-line tool's process asks glibc's `malloc` for memory.
public enum ProcessMemory {
    /// The size from which `malloc` maps a block of its own (and unmaps it when freed).
    public static let mappedBlockBytes: Int32 = 4 << 20

    /// Fixes glibc's `M_MMAP_THRESHOLD` at `mappedBlockBytes`. By default the threshold rises
    /// to the size of each mapped block that is freed (up to 32 MiB): once a large import's parse
    /// tape was freed, the compile's large temporary arrays came from malloc's heaps, whose
    /// freed pages stay counted in the process's memory, and 100k polygons peaked about 13 MiB
    /// higher (docs/performance-log.md, "The merged build of the ninth session"). Called by the
    /// command-line tool's `main` only, before any work. Returns whether glibc took the setting
    /// (false elsewhere).
    @discardableResult
    public static func mapLargeBlocks() -> Bool {
        #if canImport(Glibc)
        // `mallopt` is not in the Glibc module (it is declared in <malloc.h>); it is looked up
        // in the C library.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        return mallopt(mmapThreshold, mappedBlockBytes) == 1
        #else
        return false
        #endif
    }
}
