/// LLVM's prefetch intrinsic (`llvm.prefetch`: address, 0 = read, locality 3 = keep in every
/// cache level, 1 = data cache): on x86-64 a `prefetcht0`, which starts loading the cache line
/// of the address and retires at once, so the loop that issues it does not wait for the line.
/// It never faults and changes no value; an address that is not mapped is ignored.
@_silgen_name("llvm.prefetch.p0")
private func llvmPrefetch(_ address: UnsafeRawPointer, _ write: Int32, _ locality: Int32, _ dataCache: Int32)

/// Asks for the cache line holding `address` to be loaded (see `llvmPrefetch`): a hint for
/// loops whose next loads are known a few steps ahead and would otherwise wait for memory one
/// after another.
@inline(__always) func prefetch(_ address: UnsafeRawPointer) {
    llvmPrefetch(address, 0, 3, 1)
}
