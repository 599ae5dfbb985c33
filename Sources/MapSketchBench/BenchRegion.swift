import MapSketchReplay
import CMapSketchCounters

/// The measured region and the per-kind functions callgrind attributes instructions to.
///
/// `mapsketch bench --instrument callgrind` runs the bench under
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mapsketch_bench_region`, so
/// instructions are counted only inside ``region(_:)`` (one measured replay), and each kind's
/// operations run inside the C function `mapsketch_bench_kind_<slot>` (the kind's ordinal), whose
/// inclusive cost is that kind's instruction count. The functions are C, so their symbols are
/// exactly these names, never renamed or specialised by the Swift optimiser.
enum BenchRegion {
    /// The symbol of the measured region.
    static let regionSymbol = "mapsketch_bench_region"
    /// The symbol prefix of the per-kind functions (followed by the kind's ordinal).
    static let kindSymbol = "mapsketch_bench_kind_"

    /// Runs one measured replay inside the region callgrind collects.
    static func region(_ body: () -> Void) {
        call(body, in: mapsketch_bench_region)
    }

    /// Runs one operation inside its kind's function.
    static func operation(_ op: BenchOperation, _ body: () -> Void) {
        let slot = Int32(op.ordinal)
        call(body) { mapsketch_bench_kind(slot, $0, $1) }
    }

    /// Calls `body` through a C function that takes a function pointer and a context.
    private static func call(_ body: () -> Void, in function: (@convention(c) (UnsafeMutableRawPointer?) -> Void, UnsafeMutableRawPointer?) -> Void) {
        withoutActuallyEscaping(body) { escapable in
            var closure = escapable
            withUnsafeMutablePointer(to: &closure) { p in
                function({ context in context?.assumingMemoryBound(to: (() -> Void).self).pointee() }, p)
            }
        }
    }
}
