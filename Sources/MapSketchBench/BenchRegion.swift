import MapSketchReplay
import CMapSketchCounters

/// The measured region and the per-kind functions callgrind attributes instructions to.
///
/// `mapsketch bench --instrument callgrind` runs the bench under
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mapsketch_bench_region`, so
/// instructions are counted only inside ``region(_:)`` (one measured replay), and each kind's
/// operations run inside the C function `mapsketch_bench_kind_<slot>` (the kind's slot), whose
/// inclusive cost is that kind's instruction count; an operation inside no other also runs inside
/// `mapsketch_bench_attributed`. The functions are C, so their symbols are exactly these names,
/// never renamed or specialised by the Swift optimiser.
enum BenchRegion {
    /// The symbol of the measured region.
    static let regionSymbol = "mapsketch_bench_region"
    /// The symbol prefix of the per-kind functions (followed by the kind's ordinal).
    static let kindSymbol = "mapsketch_bench_kind_"

    /// Runs one measured replay inside the region callgrind collects.
    static func region(_ body: () -> Void) {
        call(body, in: mapsketch_bench_region)
    }

    /// The symbol of the function outermost operations run inside.
    static let attributedSymbol = "mapsketch_bench_attributed"

    /// Runs one operation inside the function of its kind's slot.
    static func operation(_ slot: Int, _ body: () -> Void) {
        let s = Int32(slot)
        call(body) { mapsketch_bench_kind(s, $0, $1) }
    }

    /// Runs an outermost operation inside the attributed marker, whose inclusive cost is the part
    /// of a measured run that belongs to some kind.
    static func attributed(_ body: () -> Void) {
        call(body, in: mapsketch_bench_attributed)
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
