// swift-tools-version: 6.1
// The MapSketch benchmark harness: its own package so that users of the library never resolve it.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// One executable target per concern; each is run by the package-benchmark plugin.
let suites = [
    "HitTest", "VertexInsertion", "RendererLookup", "UndoStack", "Replay", "Geometry", "Transform", "Graphics",
    "Snapping",
]

let package = Package(
    name: "MapSketchBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named explicitly: a path dependency is otherwise known by its directory name.
        .package(name: "MapSketch", path: ".."),
        // The MallocInterposer trait gives malloc counts without jemalloc. Naming the traits
        // explicitly also turns off the default RuntimeInterposer trait.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // GEOS's C API (Debian: libgeos-dev), the peer every headline figure is a ratio to.
        .systemLibrary(
            name: "CGEOS",
            path: "Sources/CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]
        ),
        // The C library's count of bytes held through malloc (glibc mallinfo2), for memory figures.
        .target(name: "CMallocInfo", path: "Sources/CMallocInfo"),
        // Seeded data generator, trace loading and the Swift face of GEOS shared by all suites.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                "CGEOS",
                "CMallocInfo",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSketchGeometry", package: "MapSketch"),
                .product(name: "MapSketch", package: "MapSketch"),
                .product(name: "MapSketchReplay", package: "MapSketch"),
            ],
            swiftSettings: strict
        ),
    ] + suites.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MapSketchGeometry", package: "MapSketch"),
                .product(name: "MapSketch", package: "MapSketch"),
                .product(name: "MapSketchReplay", package: "MapSketch"),
            ]
                + (name == "Replay"
                    ? [
                        .product(name: "MapSketchBench", package: "MapSketch"),
                        .product(name: "MapSketchReaders", package: "MapSketch"),
                        .product(name: "MapSketchGolden", package: "MapSketch"),
                    ] : []),
            path: "Benchmarks/\(name)",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    },
    swiftLanguageModes: [.v6]
)
