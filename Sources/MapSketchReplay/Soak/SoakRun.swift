package import MapSketch
import MapSketchGeometry

/// A soak of the model: a map with many graphics (a million by default) and a sketch on it,
/// driven by a seeded random mixture of touch gestures, programmatic edits, undo and redo
/// bursts, snapping queries, transforms, tool strokes, hit tests and graphics added and
/// removed, with the model's invariants checked in full between operations and resident memory
/// sampled as it goes.
///
/// The same seed and the same number of operations give the same sequence of operations and the
/// same model on every machine; how many operations fit in a number of minutes depends on the
/// machine. A broken invariant traps (a precondition) naming the rule.
///
/// ```swift
/// let soak = try SoakRun(SoakSettings(seed: 7, graphics: 1_000_000))
/// soak.run(seconds: 600, sampleEvery: 10) { sample in print(sample.residentBytes ?? 0) }
/// ```
@MainActor
package final class SoakRun {
    /// The run's settings.
    package let settings: SoakSettings
    /// The map the run drives.
    package let map: MapView
    /// The graphics layer (`"graphics"`), a snap source of the sketch.
    package let layer: GraphicsLayer
    /// The sketch layer (`"sketch"`), the map's touch delegate.
    package let sketch: SketchLayer
    /// What the run did so far.
    package internal(set) var tally = SoakTally()
    /// The memory samples taken so far, oldest first.
    package private(set) var samples: [SoakSample] = []

    var rng: SplitMix64
    /// The ids of the graphics on the layer, in no order (a removal swaps the last into place).
    var live: [GraphicID]
    /// The touch clock: each gesture starts after the previous one ended.
    var touchTime = 0.0
    let touches: TouchGenerator
    let home: Viewport

    /// Makes the map, loads `settings.graphics` graphics through the columnar path and puts an
    /// empty polygon sketch on top, snapping to the graphics.
    /// - Throws: what the layer or the sketch throw while being set up (nothing for valid settings).
    /// - Complexity: O(n log n) for n graphics (the spatial index build).
    package init(_ settings: SoakSettings) throws {
        self.settings = settings
        rng = SplitMix64(seed: settings.seed)
        let screen = ScreenSize(width: 390, height: 844)
        home = Viewport(center: Point(0, 0), resolution: settings.worldSize / 4 / screen.width)
        map = MapView(screenSize: screen, viewport: home, spatialReference: .webMercator)
        touches = TouchGenerator(screen: screen)
        layer = GraphicsLayer(spatialReference: .webMercator)
        try map.addLayer(layer, named: "graphics")
        live = []
        live.reserveCapacity(settings.graphics + settings.batch)
        var seeder = SplitMix64(seed: settings.seed ^ 0x5EED)
        let added = try layer.add(columns: Self.batch(settings.graphics, world: settings.worldSize, rng: &seeder))
        live.append(contentsOf: added.map { $0 })
        sketch = try SketchLayer(geometryType: .polygon)
        sketch.levelsOfUndo = settings.levelsOfUndo
        var snap = SnapSettings(isEnabled: true)
        snap.layers = [SnapLayerSource(name: "graphics")]
        sketch.snapSettings = snap
        try map.addLayer(sketch, named: "sketch")
        map.touchDelegate = sketch
        checkInvariants()
    }

    /// Runs operations until `seconds` have passed on `clock`, sampling resident memory every
    /// `sampleEvery` seconds (and once at the start and the end) and checking the whole model
    /// every `settings.fullCheckEvery` seconds; `onSample` hears each sample as it is taken.
    /// - Precondition: `seconds` ≥ 0 and `sampleEvery` > 0.
    package func run(
        seconds: Double, sampleEvery: Double, clock: SoakClock = .monotonic,
        onSample: (SoakSample) -> Void = { _ in }
    ) {
        precondition(seconds >= 0 && sampleEvery > 0, "a soak runs for seconds >= 0, sampling every > 0 s")
        let start = clock.now()
        var nextSample = 0.0
        var nextCheck = settings.fullCheckEvery
        while true {
            let t = clock.now() - start
            if t >= nextSample || t >= seconds {
                let s = sample(at: t)
                onSample(s)
                nextSample += sampleEvery
                if t >= seconds { return }
            }
            if t >= nextCheck {
                checkInvariants()
                nextCheck += settings.fullCheckEvery
            }
            for _ in 0..<64 { step() }
        }
    }

    /// Runs exactly `count` operations (then checks the whole model): what a test calls.
    package func run(operations count: Int) {
        for _ in 0..<count { step() }
        checkInvariants()
    }

    /// Checks the whole model: the layer's storage slot by slot and its spatial index entry by
    /// entry, the sketch's vertices, history and selection, and that the layer holds the graphics
    /// the run believes it does. Traps on a violation.
    /// - Complexity: O(n + v) for n graphics and v vertices in the sketch and its history.
    package func checkInvariants() {
        layer._checkInvariantsNow()
        sketch._checkInvariantsNow()
        precondition(layer.count == live.count, "the layer holds \(layer.count) graphics, the soak added \(live.count) it did not remove")
        tally.fullChecks += 1
    }

    /// Takes a memory sample `t` seconds into the run and keeps it.
    func sample(at t: Double) -> SoakSample {
        let s = SoakSample(
            seconds: t, operations: tally.operations, residentBytes: ResidentMemory.current(),
            graphics: layer.count, sketchVertices: sketch.vertices.vertexCount, undoSteps: sketch.undoCount)
        samples.append(s)
        return s
    }
}

/// What a soak is run with.
package struct SoakSettings: Hashable, Sendable {
    /// The random seed.
    package var seed: UInt64
    /// How many graphics the layer holds (the churn keeps it within `batch` of this).
    package var graphics: Int
    /// How many graphics one add or remove operation moves at most.
    package var batch: Int
    /// The side of the square the graphics are spread over, in map units (meters).
    package var worldSize: Double
    /// The sketch's bound on undo steps.
    package var levelsOfUndo: Int
    /// Above this many vertices the sketch is replaced by a small geometry (history cleared).
    package var maxSketchVertices: Int
    /// Seconds between full checks of the model in a timed run.
    package var fullCheckEvery: Double

    /// Settings for a soak; the defaults are the documented soak's.
    package init(
        seed: UInt64, graphics: Int = 1_000_000, batch: Int = 256, worldSize: Double = 2_000_000,
        levelsOfUndo: Int = 64, maxSketchVertices: Int = 4_000, fullCheckEvery: Double = 60
    ) {
        self.seed = seed
        self.graphics = graphics
        self.batch = batch
        self.worldSize = worldSize
        self.levelsOfUndo = levelsOfUndo
        self.maxSketchVertices = maxSketchVertices
        self.fullCheckEvery = fullCheckEvery
    }
}

/// One memory sample of a soak.
package struct SoakSample: Hashable, Sendable {
    /// Seconds since the run started.
    package var seconds: Double
    /// Operations done so far.
    package var operations: Int
    /// The process's resident memory in bytes (nil where it cannot be read).
    package var residentBytes: Int?
    /// Graphics on the layer.
    package var graphics: Int
    /// Vertices in the sketch.
    package var sketchVertices: Int
    /// Steps the sketch can undo.
    package var undoSteps: Int

    /// Makes a sample.
    package init(seconds: Double, operations: Int, residentBytes: Int?, graphics: Int, sketchVertices: Int, undoSteps: Int) {
        self.seconds = seconds
        self.operations = operations
        self.residentBytes = residentBytes
        self.graphics = graphics
        self.sketchVertices = sketchVertices
        self.undoSteps = undoSteps
    }
}

/// How many operations of each kind a soak did.
package struct SoakTally: Hashable, Sendable {
    /// Every operation.
    package var operations = 0
    /// Operations by kind.
    package var byKind: [SoakOperation: Int] = [:]
    /// Edits the sketch refused (an index out of range, an edit its validation rejected): expected
    /// now and then, counted, not failures.
    package var refused = 0
    /// Graphics added and removed.
    package var graphicsAdded = 0, graphicsRemoved = 0
    /// Full checks of the model.
    package var fullChecks = 0
    /// Times the sketch was replaced because it grew past its bound.
    package var sketchResets = 0

    /// An empty tally.
    package init() {}
}

/// A kind of soak operation.
package enum SoakOperation: String, Hashable, Sendable, CaseIterable, Comparable {
    /// A synthetic touch gesture (tap, hold, drag, pan, pinch) through the map's recognizer.
    case gesture
    /// A programmatic vertex or part edit.
    case edit
    /// A burst of undos followed by a burst of redos.
    case undoRedo
    /// A snapping query against the sketch and the graphics.
    case snap
    /// A move, rotation or scale of a part or the whole sketch.
    case transform
    /// A freehand or shape tool stroke.
    case stroke
    /// Graphics added (one by one, as a list or as columns).
    case addGraphics
    /// Graphics removed.
    case removeGraphics
    /// A map hit test.
    case hitTest

    /// Declaration order (the order a summary lists the kinds in).
    package static func < (a: SoakOperation, b: SoakOperation) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where a timed soak reads the time: the monotonic clock, or a stand-in (tests).
package struct SoakClock {
    /// Seconds since an arbitrary origin.
    package let now: () -> Double

    /// A clock reading `now`.
    package init(now: @escaping () -> Double) { self.now = now }

    /// The process's monotonic clock.
    package static var monotonic: SoakClock {
        let origin = ContinuousClock.now
        return SoakClock {
            let d = ContinuousClock.now - origin
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
    }
}
