import Foundation

/// A large import's bytes mapped from the file (`mmap`, read-only) instead of read into fresh
/// memory: the page cache's pages are used as they are, so the file is neither copied nor are
/// fresh pages zeroed for it (reading a 95 MB import took both cores for the first tenth of its
/// load; mapped, the load takes about 0.13 s less CPU and 10% less time: docs/performance-log.md,
/// "Region loading, tenth pass").
///
/// A mapping sees the file as it is now, not as it was when the load began. Two things can
/// happen to a file while a run reads it, and neither may crash the run or be taken for the file:
/// - **It is cut short** (another program writes it again): reading a mapped page past the new end
///   raises SIGBUS. `MappedFile`'s handler (installed once, for the pages of live mappings only)
///   puts zero pages from the faulting page to the mapping's end and marks the mapping damaged;
///   the read goes on over zeros, and the load then reports the file as changed while read.
///   A SIGBUS at any other address goes to the handler that was there before (the Swift
///   runtime's crash report), as if this one were not installed.
/// - **It is written in place**: the mapped bytes change under the parse. The parse never relies
///   on a byte being the same when read twice (what the tape's nodes hold is copied out when
///   parsed: numbers, positions; strings are decoded from the bytes again, and their decoding
///   takes any bytes), and `changed` (the file's size and modification time, and the damage
///   mark, against those at the mapping) tells the load to give an error, not regions.
final class MappedFile: @unchecked Sendable {
    /// The mapped bytes (PROT_READ).
    let bytes: UnsafeBufferPointer<UInt8>
    private let fd: Int32
    private let slot: Int
    private let mapped: Int
    private let status: stat

    /// Maps the bytes of the open regular file `fd` (`status.st_size` of them, its `fstat`), which
    /// `self` then owns (closed with it); nil when the file cannot be mapped (the caller reads it
    /// instead, and still owns `fd`) or every slot of the registry is in use.
    init?(fd: Int32, status: stat) {
        let count = Int(status.st_size)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (count + page - 1) / page * page
        guard count > 0, let slot = MappedFile.registry.claim() else { return nil }
        guard let p = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), p != MAP_FAILED else {
            MappedFile.registry.release(slot)
            return nil
        }
        MappedFile.registry.set(slot, start: UInt(bitPattern: p), end: UInt(bitPattern: p) + UInt(length))
        self.fd = fd
        self.slot = slot
        self.mapped = length
        self.status = status
        bytes = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Whether the file's content is not as it was when mapped: cut short under the mapping (a
    /// page past its end was read), or its size or modification time differ now. Not its change
    /// time: a file replaced by a rename (the usual way to write one safely), deleted, or given
    /// other permissions keeps its content, and the mapping still shows it.
    var changed: Bool {
        if MappedFile.registry.damaged(slot) { return true }
        var now = stat()
        guard fstat(fd, &now) == 0 else { return true }
        return now.st_size != status.st_size
            || now.st_mtim.tv_sec != status.st_mtim.tv_sec || now.st_mtim.tv_nsec != status.st_mtim.tv_nsec
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), mapped)
        MappedFile.registry.release(slot)
        close(fd)
    }

    /// The live mappings, as the SIGBUS handler reads them: per slot its start, its end and its
    /// damage mark, words of memory that is never freed. A slot is claimed and released under a
    /// lock; the handler takes none (it reads the words of the faulting thread's own mapping,
    /// set before any thread was given its bytes).
    static let registry = Registry()

    final class Registry: @unchecked Sendable {
        static let slots = 64
        private let lock = NSLock()
        private var inUse = [Bool](repeating: false, count: Registry.slots)
        private var installed = false

        func claim() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard let k = inUse.firstIndex(of: false) else { return nil }
            if !installed {
                guard MappedFile.installHandler() else { return nil }
                installed = true
            }
            inUse[k] = true
            return k
        }

        func set(_ k: Int, start: UInt, end: UInt) {
            lock.lock()
            defer { lock.unlock() }
            mappedFileWords[3 * k + 2] = 0
            mappedFileWords[3 * k + 1] = end
            mappedFileWords[3 * k] = start
        }

        func damaged(_ k: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return mappedFileWords[3 * k + 2] != 0
        }

        /// Called once the slot's mapping is gone (or was never made).
        func release(_ k: Int) {
            lock.lock()
            defer { lock.unlock() }
            mappedFileWords[3 * k] = 0
            mappedFileWords[3 * k + 1] = 0
            inUse[k] = false
        }
    }

    /// Installs the SIGBUS handler (once), with the page size it works in; false if it cannot be
    /// installed.
    private static func installHandler() -> Bool {
        mappedFileWords[3 * Registry.slots] = UInt(bitPattern: Int(sysconf(Int32(_SC_PAGESIZE))))
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = mappedFileBusHandler
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        return sigaction(SIGBUS, &action, mappedFilePreviousAction) == 0
    }
}

/// Start, end and damage mark of each slot of `MappedFile.registry`, then the page size (never
/// freed).
nonisolated(unsafe) private let mappedFileWords: UnsafeMutablePointer<UInt> = {
    let p = UnsafeMutablePointer<UInt>.allocate(capacity: 3 * MappedFile.Registry.slots + 1)
    p.initialize(repeating: 0, count: 3 * MappedFile.Registry.slots + 1)
    return p
}()

/// The SIGBUS action before `MappedFile`'s (never freed).
nonisolated(unsafe) private let mappedFilePreviousAction: UnsafeMutablePointer<sigaction> = {
    let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
    p.initialize(to: sigaction())
    return p
}()

/// A SIGBUS at an address of a live mapping (its file was cut short): zero pages from the
/// faulting page to the mapping's end, the mapping marked damaged, and the read goes on. Any
/// other SIGBUS: the previous action is put back and the faulting access, run again, takes it.
/// Only `mmap` and `sigaction` are called (both system calls), no lock is taken and nothing is
/// allocated.
private let mappedFileBusHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, info, _ in
    let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
    let page = max(1, mappedFileWords[3 * MappedFile.Registry.slots])
    for k in 0..<MappedFile.Registry.slots {
        let start = mappedFileWords[3 * k], end = mappedFileWords[3 * k + 1]
        guard start != 0, address >= start, address < end else { continue }
        let from = address & ~(page - 1)
        let p = mmap(UnsafeMutableRawPointer(bitPattern: from), Int(end - from), PROT_READ,
                     MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if p != MAP_FAILED {
            mappedFileWords[3 * k + 2] = 1
            return
        }
        break
    }
    sigaction(SIGBUS, mappedFilePreviousAction, nil)
}
