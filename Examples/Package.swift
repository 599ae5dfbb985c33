// swift-tools-version: 6.1
// BEGIN package
// A team's package: its own validation rule, checked by golden traces and measured by the bench.
import PackageDescription

let package = Package(
    name: "FieldSurvey",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FieldRules", targets: ["FieldRules"]),
        .executable(name: "fieldcheck", targets: ["fieldcheck"]),
    ],
    traits: [
        .trait(name: "AllocationCounters", description: "Allocation counts in `fieldcheck bench` (needs jemalloc).")
    ],
    dependencies: [
        // Named, as a path dependency is otherwise known by its folder's name.
        .package(
            name: "MapSketch", path: "..",
            traits: [.defaults, .trait(name: "AllocationCounters", condition: .when(traits: ["AllocationCounters"]))]),
    ],
    targets: [
        // The team's code: a validation rule and what every replay installs.
        .target(
            name: "FieldRules",
            dependencies: [
                .product(name: "MapSketchGeometry", package: "MapSketch"),
                .product(name: "MapSketch", package: "MapSketch"),
                .product(name: "MapSketchReplay", package: "MapSketch"),
            ]),
        // `fieldcheck check`, `fieldcheck bench`, … with the team's rule installed.
        .executableTarget(
            name: "fieldcheck",
            dependencies: ["FieldRules", .product(name: "MapSketchCommandLine", package: "MapSketch")]),
        // Golden traces and geometries checked in the team's own tests.
        .testTarget(
            name: "FieldRulesTests",
            dependencies: [
                "FieldRules",
                .product(name: "MapSketchTesting", package: "MapSketch"),
                .product(name: "MapSketchGeometry", package: "MapSketch"),
                .product(name: "MapSketch", package: "MapSketch"),
                .product(name: "MapSketchReplay", package: "MapSketch"),
                .product(name: "MapSketchGolden", package: "MapSketch"),
                .product(name: "MapSketchBench", package: "MapSketch"),
            ],
            exclude: ["__Goldens__"]),
    ],
    swiftLanguageModes: [.v6]
)
// END package
