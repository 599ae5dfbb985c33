// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // Internal invariant checks (`_checkInvariants()` after every mutation) run in debug builds,
    // which is what `swift test` builds; release builds (and the benchmarks) compile them away.
    .define("MAPSKETCH_INTERNAL_CHECKS", .when(configuration: .debug)),
]

let package = Package(
    name: "MapSketch",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "MapSketchGeometry", targets: ["MapSketchGeometry"]),
        .library(name: "MapSketch", targets: ["MapSketch"]),
        .library(name: "MapSketchReaders", targets: ["MapSketchReaders"]),
        .library(name: "MapSketchReplay", targets: ["MapSketchReplay"]),
        .library(name: "MapSketchGolden", targets: ["MapSketchGolden"]),
        .library(name: "MapSketchBench", targets: ["MapSketchBench"]),
        // The engine of `mapsketch geometry`, for a team's own batch jobs.
        // For a team's test target: golden assertions under Swift Testing or XCTest.
        .library(name: "MapSketchTesting", targets: ["MapSketchTesting"]),
        // The `mapsketch` commands for a team's own executable, with its registrations installed.
        .library(name: "MapSketchCommandLine", targets: ["MapSketchCommandLine"]),
        .executable(name: "mapsketch", targets: ["mapsketch"]),
    ],
    traits: [
        .trait(
            name: "AllocationCounters",
            description: """
                Links jemalloc (Debian: libjemalloc-dev) as the process allocator so that `mapsketch bench` \
                reports allocation counts and bytes per operation kind.
                """)
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Geometry knows nothing of maps.
        .target(name: "MapSketchGeometry", swiftSettings: strict),
        // The map model knows nothing of traces.
        .target(name: "MapSketch", dependencies: ["MapSketchGeometry"], swiftSettings: strict),
        // Allocation counters for `mapsketch bench`: jemalloc's per-thread figures with the
        // AllocationCounters trait, "unavailable" without it (so a plain build needs only Swift).
        .target(
            name: "CMapSketchCounters",
            cSettings: [.define("MAPSKETCH_JEMALLOC", .when(traits: ["AllocationCounters"]))],
            linkerSettings: [.linkedLibrary("jemalloc", .when(traits: ["AllocationCounters"]))]
        ),
        // The file readers: GPX, NMEA, getevent touch logs, GeoJSON Lines, gzip, byte scanning and
        // GPS time. Geometry only: they know nothing of maps or traces.
        .target(name: "MapSketchReaders", dependencies: ["MapSketchGeometry"], swiftSettings: strict),
        // The trace format and the replay engine: it drives the model only through its public API.
        // Also what feeds it: GPS tracks into sketches, touch-log import, generators, the soak.
        .target(name: "MapSketchReplay", dependencies: ["MapSketchReaders", "MapSketch", "MapSketchGeometry"], swiftSettings: strict),
        // The golden workflow over replays: comparison, review, JUnit and HTML reports, the
        // recorder and step-viewer pages, and shrinking a failing trace.
        .target(
            name: "MapSketchGolden", dependencies: ["MapSketchReplay", "MapSketchReaders", "MapSketch", "MapSketchGeometry"],
            swiftSettings: strict),
        // The measuring harness, above the replay engine: kinds, clocks, counters, callgrind,
        // worker processes, comparisons and report formats. The model and the engine only offer an
        // observation point (`OperationProbe`, `ReplayProbe`).
        .target(
            name: "MapSketchBench",
            dependencies: [
                "MapSketchGolden", "MapSketchReplay", "MapSketchReaders", "MapSketch", "MapSketchGeometry",
                "CMapSketchCounters",
            ],
            swiftSettings: strict
        ),
        // The command line's geometry tool (simplify, normalize, project, validate, convert): geometry only.
        .target(name: "MapSketchGeometryTool", dependencies: ["MapSketchGeometry"], swiftSettings: strict),
        // The command line's commands, for `mapsketch` and for a team's own executable.
        .target(
            name: "MapSketchCommandLine",
            dependencies: [
                "MapSketchGolden", "MapSketchReplay", "MapSketchReaders", "MapSketchBench", "MapSketchGeometryTool", "MapSketch",
                "MapSketchGeometry",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "mapsketch", dependencies: ["MapSketchCommandLine"], swiftSettings: strict),
        // Golden assertions for a team's tests (Swift Testing and XCTest), over the golden workflow.
        .target(
            name: "MapSketchTesting", dependencies: ["MapSketchGolden", "MapSketchReplay", "MapSketch", "MapSketchGeometry"],
            swiftSettings: strict),
        .target(name: "MapSketchTestSupport", dependencies: ["MapSketchReaders", "MapSketchGeometry"], path: "Tests/MapSketchTestSupport", swiftSettings: strict),
        .testTarget(name: "MapSketchGeometryTests", dependencies: ["MapSketchGeometry", "MapSketchTestSupport"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "MapSketchTests", dependencies: ["MapSketch", "MapSketchGeometry", "MapSketchTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MapSketchGeometryToolTests", dependencies: ["MapSketchGeometryTool", "MapSketchGeometry", "MapSketchTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "MapSketchReadersTests", dependencies: ["MapSketchReaders", "MapSketchGeometry", "MapSketchTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MapSketchReplayTests", dependencies: ["MapSketchReplay", "MapSketchReaders", "MapSketch", "MapSketchGeometry", "MapSketchTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "MapSketchGoldenTests",
            dependencies: ["MapSketchGolden", "MapSketchReplay", "MapSketchReaders", "MapSketch", "MapSketchGeometry", "MapSketchTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "MapSketchTestingTests", dependencies: ["MapSketchTesting", "MapSketchGolden", "MapSketchReplay", "MapSketch", "MapSketchGeometry", "MapSketchTestSupport"],
            exclude: ["__Goldens__"], swiftSettings: strict),
        .testTarget(
            name: "MapSketchBenchTests", dependencies: ["MapSketchBench", "MapSketchGolden", "MapSketchReplay", "MapSketchReaders", "MapSketch", "MapSketchGeometry", "MapSketchTestSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
