public import MapSketchGeometry

/// One undoable sketch change: a compact value record (64 bytes, no closures).
///
/// Vertex edits keep their coordinates inline: x and y, plus z and m for inserts and removes.
/// Edits that need more (a move of a vertex with z or m, a removed part, a whole-geometry
/// replacement) keep it in the stack's payload table, addressed by an id in the record.
/// The selection before the change is kept so an undo restores it exactly; the selection after
/// follows from the change itself (see ``SketchEditor``).
public struct SketchEditRecord: Hashable, Sendable {
    /// What a record changes.
    public enum Kind: UInt8, Hashable, Sendable {
        /// A vertex was inserted at (part, index).
        case insertVertex
        /// The vertex at (part, index) was removed.
        case removeVertex
        /// The vertex at (part, index) moved (one record per drag).
        case moveVertex
        /// An empty part was added at index `part`.
        case addPart
        /// Part `part` was removed with its vertices.
        case removePart
        /// The whole geometry was replaced (apply geometry, clear).
        case replaceGeometry
        /// The selected part (`part`) or the whole geometry (`part` −1) was moved, rotated or
        /// scaled (one record per gesture or call; the geometry before and after kept as snapshots).
        case transform
        /// A freehand stroke became part `part` (one record per stroke).
        case freehand
        /// A drawn shape became part `part` (one record per shape).
        case shape
        /// Vertices were appended to part `part` in one call, the last at `index`
        /// (``SketchLayer/appendVertices(_:)``: one record per call, the geometry before and after
        /// kept as snapshots).
        case appendVertices
    }

    /// The vertex index (or, for heavy records, unused).
    package internal(set) var index: Int
    var x0: Double
    var y0: Double
    var x1: Double
    var y1: Double
    var selectionIndex: Int
    /// The part the change applies to.
    package var part: Int { Int(part32) }
    var part32: Int32
    var selectionPart: Int32
    /// What the record changes.
    package let kind: Kind
    var flags: UInt8
    var selectionTag: UInt8

    static let zBit0: UInt8 = 1
    static let mBit0: UInt8 = 2
    static let newPartBit: UInt8 = 16
    static let heavyBit: UInt8 = 32

    init(kind: Kind, part: Int, index: Int, selectionBefore: SketchSelection) {
        self.kind = kind
        self.part32 = Int32(truncatingIfNeeded: part)
        self.index = index
        (x0, y0, x1, y1) = (0, 0, 0, 0)
        flags = 0
        let s = PackedSelection(selectionBefore)
        (selectionIndex, selectionPart, selectionTag) = (s.index, s.part, s.tag)
    }

    /// A vertex inserted at (part, index).
    @_spi(MapSketchInternal) public static func insertVertex(
        part: Int, index: Int, point: Point, selectionBefore: SketchSelection
    ) -> SketchEditRecord {
        SketchEditRecord(kind: .insertVertex, part: part, index: index, point: point, selectionBefore: selectionBefore)
    }

    /// The vertex `point` removed from (part, index).
    package static func removeVertex(
        part: Int, index: Int, point: Point, selectionBefore: SketchSelection
    ) -> SketchEditRecord {
        SketchEditRecord(kind: .removeVertex, part: part, index: index, point: point, selectionBefore: selectionBefore)
    }

    /// The vertex at (part, index) moved `from` → `to`, both 2D (a sketch editor keeps the ends
    /// of a move with z or m in the stack's payload table instead).
    package static func moveVertex(
        part: Int, index: Int, from: Point, to: Point, selectionBefore: SketchSelection
    ) -> SketchEditRecord {
        var r = SketchEditRecord(kind: .moveVertex, part: part, index: index, selectionBefore: selectionBefore)
        (r.x0, r.y0, r.x1, r.y1) = (from.x, from.y, to.x, to.y)
        return r
    }

    /// An empty part added at index `part`.
    package static func addPart(part: Int, selectionBefore: SketchSelection) -> SketchEditRecord {
        SketchEditRecord(kind: .addPart, part: part, index: 0, selectionBefore: selectionBefore)
    }

    /// An insert or remove of vertex `p`: x and y inline, z and m in the second pair when present.
    private init(kind: Kind, part: Int, index: Int, point p: Point, selectionBefore: SketchSelection) {
        self.init(kind: kind, part: part, index: index, selectionBefore: selectionBefore)
        (x0, y0) = (p.x, p.y)
        if let z = p.z {
            x1 = z
            flags |= Self.zBit0
        }
        if let m = p.m {
            y1 = m
            flags |= Self.mBit0
        }
    }

    /// The inserted or removed vertex, z and m included.
    package var point: Point {
        Point(
            x: x0, y: y0, z: flags & Self.zBit0 != 0 ? x1 : nil,
            m: flags & Self.mBit0 != 0 ? y1 : nil)
    }

    /// Whether the edit also created the part it inserted into (a tap on an empty sketch).
    package internal(set) var createdPart: Bool {
        get { flags & Self.newPartBit != 0 }
        set { flags = newValue ? flags | Self.newPartBit : flags & ~Self.newPartBit }
    }

    /// Whether the record's data lives in the stack's payload table.
    package var isHeavy: Bool { flags & Self.heavyBit != 0 }

    /// The id of the record's payload (heavy records only; kept in the bits of `x0`).
    var payloadID: UInt64 {
        get { x0.bitPattern }
        set {
            x0 = Double(bitPattern: newValue)
            flags |= Self.heavyBit
        }
    }

    /// A 2D move's start (light records).
    var from2D: Point { Point(x0, y0) }
    /// A 2D move's end (light records).
    var to2D: Point { Point(x1, y1) }

    /// The selection before the change.
    package var selectionBefore: SketchSelection {
        var s = PackedSelection(.none)
        (s.index, s.part, s.tag) = (selectionIndex, selectionPart, selectionTag)
        return s.selection
    }
}

/// What heavy records keep outside the 64-byte record.
enum UndoPayload: Sendable {
    /// A move's ends with z or m.
    case move(from: Point, to: Point)
    /// A removed part's vertices (a chunked snapshot: O(1) to keep).
    case part(ChunkedVertices)
    /// The geometry before and after a replacement (chunked snapshots: O(parts) to keep).
    case stores(before: VertexStore, after: VertexStore)
}

/// The undo history of a sketch: records below the cursor can be undone, those above redone.
///
/// `levelsOfUndo` bounds how many steps are kept (0, the default, keeps all, as
/// `NSUndoManager.levelsOfUndo`); the oldest steps fall off first. A new change clears redo.
///
/// - Complexity: push, undo and redo are O(1) amortised (dropped steps are compacted in bulk).
@_spi(MapSketchInternal) public struct SketchUndoStack: Sendable {
    var records: [SketchEditRecord] = []
    /// Records below `floor` fell off the bottom (levels bound) and wait for compaction.
    var floor = 0
    /// Records in `floor..<cursor` can be undone; `cursor..<records.count` redone.
    var cursor = 0
    var payloads: [UInt64: UndoPayload] = [:]
    var nextPayloadID: UInt64 = 1

    /// The most steps kept; 0 keeps every step.
    /// - Precondition: 0 or more.
    public var levelsOfUndo: Int {
        didSet {
            Self.require(levelsOfUndo: levelsOfUndo)
            trimToLevels()
            _checkInvariants()
        }
    }

    /// An empty history keeping at most `levelsOfUndo` steps (0: unbounded).
    /// - Precondition: `levelsOfUndo` ≥ 0.
    public init(levelsOfUndo: Int = 0) {
        Self.require(levelsOfUndo: levelsOfUndo)
        self.levelsOfUndo = levelsOfUndo
        records.reserveCapacity(64)
    }

    /// A negative bound is a programmer error: it does not mean "unbounded" (0 does).
    private static func require(levelsOfUndo n: Int) {
        precondition(n >= 0, "levelsOfUndo must be 0 (unbounded) or more, found \(n)")
    }

    /// Whether there is a step to undo.
    public var canUndo: Bool { cursor > floor }
    /// Whether there is a step to redo.
    public var canRedo: Bool { cursor < records.count }
    /// The number of steps that can be undone.
    public var undoCount: Int { cursor - floor }
    /// The number of steps that can be redone.
    public var redoCount: Int { records.count - cursor }

    /// Records a new step: clears redo and drops the oldest step beyond the levels bound.
    /// - Complexity: O(1) amortised; O(k) to drop k redo steps.
    public mutating func push(_ record: SketchEditRecord) {
        if cursor < records.count { dropRedo() }
        records.append(record)
        cursor += 1
        if levelsOfUndo > 0, cursor - floor > levelsOfUndo { trimToLevels() }
        _checkInvariants()
    }

    /// Records a step whose data is kept in the payload table.
    mutating func push(_ record: SketchEditRecord, payload: UndoPayload) {
        var r = record
        let id = nextPayloadID
        nextPayloadID &+= 1
        r.payloadID = id
        payloads[id] = payload
        push(r)
    }

    /// Records a vertex move; a move with z or m keeps its ends in the payload table.
    package mutating func pushMove(part: Int, index: Int, from: Point, to: Point, selectionBefore: SketchSelection) {
        let r = SketchEditRecord.moveVertex(part: part, index: index, from: from, to: to, selectionBefore: selectionBefore)
        if from.z == nil, from.m == nil, to.z == nil, to.m == nil {
            push(r)
        } else {
            push(r, payload: .move(from: from, to: to))
        }
    }

    /// Steps back: returns the record to invert, or nil when there is nothing to undo.
    package mutating func popUndo() -> SketchEditRecord? {
        guard canUndo else { return nil }
        cursor -= 1
        _checkInvariants()
        return records[cursor]
    }

    /// Steps forward: returns the record to re-apply, or nil when there is nothing to redo.
    package mutating func popRedo() -> SketchEditRecord? {
        guard canRedo else { return nil }
        cursor += 1
        let r = records[cursor - 1]
        // A bound lowered while steps waited to be redone: redoing one lets the oldest step fall
        // off, as a new step does, so no more than `levelsOfUndo` steps can ever be undone.
        if levelsOfUndo > 0, cursor - floor > levelsOfUndo { trimToLevels() }
        _checkInvariants()
        return r
    }

    /// The payload of a heavy record.
    func payload(of record: SketchEditRecord) -> UndoPayload? {
        record.isHeavy ? payloads[record.payloadID] : nil
    }

    /// A move's ends, z and m included.
    package func moveEnds(of record: SketchEditRecord) -> (from: Point, to: Point) {
        if case .move(let f, let t) = payload(of: record) { return (f, t) }
        return (record.from2D, record.to2D)
    }

    /// Forgets every step.
    public mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        payloads.removeAll()
        floor = 0
        cursor = 0
        _checkInvariants()
    }

    private mutating func dropRedo() {
        for r in records[cursor...] where r.isHeavy { payloads[r.payloadID] = nil }
        records.removeSubrange(cursor...)
    }

    private mutating func trimToLevels() {
        guard levelsOfUndo > 0 else { return }
        while cursor - floor > levelsOfUndo {
            let r = records[floor]
            if r.isHeavy { payloads[r.payloadID] = nil }
            floor += 1
        }
        // Compact in bulk so each push stays O(1) amortised.
        if floor >= 64, floor * 2 >= records.count {
            records.removeSubrange(0..<floor)
            cursor -= floor
            floor = 0
        }
    }
}
