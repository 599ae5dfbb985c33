/// The measured region and the per-kind functions callgrind attributes instructions to.
///
/// `mapsketch bench --instrument callgrind` runs the bench under
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mapsketch_bench_region`, so
/// instructions are counted only inside ``region(_:)`` (one measured replay), and each
/// operation runs inside the C function `mapsketch_bench_kind_<slot>` of its kind's slot, whose
/// inclusive cost is that kind's instruction count; an operation inside no other runs inside
/// `mapsketch_bench_attributed` too. The functions are C, so their symbols are exactly these
/// names, never renamed or specialised by the Swift optimiser; they take the operation as a
/// non-escaping Swift closure (declared here with the Swift calling convention), so crossing
/// into them allocates nothing and adds next to nothing to what they measure.
enum BenchRegion {
    /// The symbol of the measured region.
    static let regionSymbol = "mapsketch_bench_region"
    /// The symbol prefix of the per-kind functions (followed by the kind's slot).
    static let kindSymbol = "mapsketch_bench_kind_"
    /// The symbol of the function outermost operations run inside.
    static let attributedSymbol = "mapsketch_bench_attributed"

    /// Runs one measured replay inside the region callgrind collects.
    static func region(_ body: () -> Void) { mapsketchBenchRegion(body) }

    /// Runs an operation of kind `slot` inside its marker, and inside the attributed marker when
    /// it is inside no other operation.
    @inline(__always)
    static func operation(_ slot: Int, outermost: Bool, _ body: () -> Void) {
        if outermost { mapsketchBenchAttributed(slot, body) } else { mapsketchBenchKind(slot, body) }
    }
}

// The C markers (Sources/CMapSketchCounters/counters.c), called with the Swift calling convention.
@_silgen_name("mapsketch_bench_region") private func mapsketchBenchRegion(_ body: () -> Void)
@_silgen_name("mapsketch_bench_kind") private func mapsketchBenchKind(_ slot: Int, _ body: () -> Void)
@_silgen_name("mapsketch_bench_attributed") private func mapsketchBenchAttributed(_ slot: Int, _ body: () -> Void)
