// Transparent huge pages for the large arrays a hit test reads at random.

#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back large arrays with 2 MiB pages (Linux's transparent huge pages).
///
/// A hit test in a layer of a million graphics reads a leaf block, an id, a slot record and a
/// line's vertices at random places in arrays of tens of megabytes: with 4 KiB pages nearly every
/// one of those reads also misses the TLB and waits for a page walk. Backed by 2 MiB pages, the
/// same arrays need a few dozen TLB entries. Where the system leaves huge pages to the program's
/// advice (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise`, a common default),
/// nothing is backed by them unless asked; set to `always` they already are, and to `never` the
/// advice is ignored. Only whole 2 MiB pages inside the region are advised, so nothing outside it
/// is touched, and a region smaller than ``threshold`` is left alone. Elsewhere than Linux this
/// does nothing.
package enum HugePages {
    /// Regions smaller than this (4 MiB) are left alone.
    package static let threshold = 4 << 20
    /// The huge page size advised for (2 MiB on x86-64 and most arm64 kernels).
    package static let pageSize = 2 << 20

    /// The whole huge pages inside `bytes` bytes from address `start`, as (first, end) addresses,
    /// or nil when there are none or the region is below ``threshold``.
    package static func span(start: Int, bytes: Int) -> (first: Int, end: Int)? {
        guard bytes >= threshold, start > 0, start <= Int.max - bytes else { return nil }
        let first = (start + (pageSize - 1)) & ~(pageSize - 1)
        let end = (start + bytes) & ~(pageSize - 1)
        return end > first ? (first, end) : nil
    }

    /// Advises huge pages for the whole 2 MiB pages inside `bytes` bytes from `p`, best effort
    /// (a kernel that refuses changes nothing). Call it before the memory is first written: pages
    /// already in place are only merged later, if ever.
    package static func advise(_ p: UnsafeMutableRawPointer, bytes: Int) {
        #if canImport(Glibc) && os(Linux)
        guard let (first, end) = span(start: Int(bitPattern: p), bytes: bytes),
            let region = UnsafeMutableRawPointer(bitPattern: first)
        else { return }
        _ = madvise(region, end - first, MADV_HUGEPAGE)
        #endif
    }
}
