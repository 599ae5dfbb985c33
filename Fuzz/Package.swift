// swift-tools-version: 6.1
// The project's fuzz targets, built with libFuzzer by `run.sh` (see README.md). A package of its
// own so that `swift build` / `swift test` of the project never need the fuzzer runtime.
import PackageDescription

let package = Package(
    name: "MapSketchFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "MapSketch", path: "..")],
    targets: [
        // One executable for every target: `MAPSKETCH_FUZZ_TARGET` picks the reader, codec or
        // operation (one build, one link, instead of one a target).
        .executableTarget(
            name: "MapSketchFuzz",
            dependencies: [
                .product(name: "MapSketchReaders", package: "MapSketch"),
                .product(name: "MapSketchReplay", package: "MapSketch"),
                .product(name: "MapSketch", package: "MapSketch"),
                .product(name: "MapSketchGeometry", package: "MapSketch"),
            ],
            // gold stops with an internal error on the sanitized objects; lld links them.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
