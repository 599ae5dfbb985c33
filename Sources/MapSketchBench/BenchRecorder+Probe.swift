import MapSketch
import MapSketchReplay

/// The recorder as the replay's probe: each operation the model or the engine reports is measured
/// as its kind (``BenchKind``).
extension BenchRecorder: ReplayProbe {
    var wrapsOperations: Bool { underCallgrind }

    func begin(_ operation: ProbedOperation) -> ProbeMark { begin(Self.slot(operation)).probeMark }

    func end(_ operation: ProbedOperation, _ mark: ProbeMark) { end(Self.slot(operation), Mark(mark)) }

    func wrap(_ operation: ProbedOperation, _ body: () -> Void) { wrap(Self.slot(operation), body) }

    func begin(_ operation: ReplayOperation) -> ProbeMark { begin(Self.slot(operation)).probeMark }

    func end(_ operation: ReplayOperation, _ mark: ProbeMark) { end(Self.slot(operation), Mark(mark)) }

    func wrap(_ operation: ReplayOperation, _ body: () -> Void) { wrap(Self.slot(operation), body) }

    /// The slot of the kind a model operation is.
    @inline(__always)
    static func slot(_ operation: ProbedOperation) -> Int {
        let kind: BenchKind
        switch operation {
        case .gestureRecognition: kind = .gesture
        case .gestureDispatch: kind = .gestureDispatch
        case .viewportPan: kind = .viewportPan
        case .viewportPinch: kind = .viewportPinch
        case .callout: kind = .callout
        case .mapHitTest: kind = .mapHitTest
        case .sketchHitTest: kind = .sketchHitTest
        case .sketchSelect: kind = .select
        case .vertexInsert: kind = .vertexInsertInteractive
        case .vertexMove: kind = .vertexMoveInteractive
        case .snapQuery: kind = .snapQuery
        case .toolStroke: kind = .toolStroke
        case .transformHandle: kind = .transformInteractive
        case .validation: kind = .validation
        }
        return kind.order
    }

    /// The slot of the kind an engine operation is.
    @inline(__always)
    static func slot(_ operation: ReplayOperation) -> Int {
        switch operation {
        case .model(let m): return slot(m)
        case .user(let index): return BenchKind.builtIn.count + index
        case .touch: return BenchKind.touch.order
        case .gpsFix: return BenchKind.gpsFix.order
        case .layerLoad: return BenchKind.layerLoad.order
        case .call(let call): return kind(of: call).order
        case .gpsFilter: return BenchKind.gpsFilter.order
        case .gpsProject: return BenchKind.gpsProject.order
        case .gpsAppend: return BenchKind.gpsAppend.order
        case .rendererLookup(let r):
            switch r {
            case .simple: return BenchKind.rendererSimple.order
            case .classBreaks: return BenchKind.rendererClassBreaks.order
            case .uniqueValue: return BenchKind.rendererUniqueValue.order
            }
        }
    }

    /// The kind a trace call is measured as.
    static func kind(of call: TraceCallName) -> BenchKind {
        switch call {
        case .insertVertex: .vertexInsertProgrammatic
        case .moveVertex: .vertexMoveProgrammatic
        case .removeVertex, .removeSelectedVertex: .vertexRemoveProgrammatic
        case .addPart, .removePart, .removeSelectedPart: .partProgrammatic
        case .applyGeometry, .setGeometry: .geometryProgrammatic
        case .clear: .clear
        case .undo: .undo
        case .redo: .redo
        case .selectVertex, .selectLastVertex, .clearSelection, .selectPart, .selectGeometry: .select
        case .moveSelection, .rotateSelection, .scaleSelection: .transformProgrammatic
        case .reticleSelect, .reticlePickUp, .reticlePlace, .reticleCancel: .reticle
        case .setTool: .toolSwitch
        case .setSnapping, .setTransformAnchor: .sketchSettings
        case .setViewport, .pan, .zoom: .viewportProgrammatic
        case .addGraphic: .graphicsAdd
        case .removeGraphic, .removeAllGraphics: .graphicsRemove
        case .addGraphicsLayer, .removeLayer: .layers
        }
    }
}

extension BenchRecorder.Mark {
    /// The mark as the model carries it.
    var probeMark: ProbeMark {
        ProbeMark(ticks: ticks, allocations: allocations.count, bytes: allocations.bytes, timed: timed, outermost: outermost)
    }

    /// The mark the model carried.
    init(_ m: ProbeMark) {
        self.init(ticks: m.ticks, allocations: AllocationSnapshot(count: m.allocations, bytes: m.bytes), timed: m.timed, outermost: m.outermost)
    }
}
