public import MapSketchGeometry

/// Rules an edit must keep, consulted before the edit commits (Terra Draw's validation hooks):
/// built-in rules by name, and a closure for anything else.
///
/// A rejected edit leaves the geometry, the selection and the undo history as they were, throws
/// ``SketchError/editRejected(_:)`` from the call that asked for it, and is posted to
/// ``SketchLayer/onEditRejected(_:)`` naming the rule.
///
/// What is checked: every edit that records an undo step — a vertex inserted, moved (by call,
/// by a released drag or at the reticle) or removed, a part added or removed, a transform, a
/// freehand stroke, a shape, applying a geometry. What is not: ``SketchEditor/clear()``,
/// ``SketchEditor/setGeometry(_:)``, undo and redo (they reset or restore a state), and the
/// intermediate moves of a drag (only its release commits).
///
/// The rules, each judging the geometry the edit would leave (an edit is never blamed for what
/// it does not change):
/// - ``noSelfIntersection``: no segment the edit creates or moves may share a point with
///   another segment, except a consecutive segment of the same part at their common vertex (and
///   the first and last segments of a closed path at its start). Parts may not touch or cross.
///   Segments the edit leaves alone are not checked, so a geometry that crossed itself before
///   can still be edited elsewhere. The reason names both segments and where they meet, as
///   ``GeometryEngine/validate(_:mode:)`` does (``SegmentMeeting``): `segment 1 of part 0 would
///   cross segment 3 of part 0 at (0 -100)`.
/// - ``minimumArea`` (polygons; the absolute value of ``GeometryEngine/area(_:)``, holes taken
///   out) and ``minimumLength`` (polylines and polygons; ``GeometryEngine/length(_:)``): an edit
///   may not take the measure from at least the minimum to below it. A sketch being drawn
///   starts below and may grow freely; once it reaches the minimum it stays there.
/// - ``maximumVertices``: an edit may not add vertices beyond the maximum.
/// - ``custom``: called last with the proposed edit; a non-nil answer rejects it, that string
///   being the reason.
///
/// - Complexity: with rules on, a vertex edit costs O(log n) more for the measures (kept as
///   running sums and updated by the edit's neighbours) and O(log n + k) for the crossing test
///   (the sketch's segments near the new ones, found by chunk envelope); a part-sized edit
///   O(m (log n + k)) for its m vertices; applying a geometry, and the first measured edit after
///   an undo, redo or unchecked change, O(n). With no rule on, nothing is done at all.
public struct SketchValidation: Sendable {
    /// No segment the edit touches may meet another (see the type's summary).
    public var noSelfIntersection: Bool
    /// The least area (square map units) a polygon may be edited down to.
    public var minimumArea: Double?
    /// The least length (map units) a polyline or polygon outline may be edited down to.
    public var minimumLength: Double?
    /// The most vertices an edit may grow the sketch to.
    public var maximumVertices: Int?
    /// Called last, with the edit and the geometry before and after it: return nil to accept,
    /// or the reason to reject (reported under the rule ``SketchValidationRule/custom``).
    public var custom: (@Sendable (SketchEditProposal) -> String?)?

    /// Rules, each off unless given.
    public init(
        noSelfIntersection: Bool = false, minimumArea: Double? = nil, minimumLength: Double? = nil,
        maximumVertices: Int? = nil, custom: (@Sendable (SketchEditProposal) -> String?)? = nil
    ) {
        self.noSelfIntersection = noSelfIntersection
        self.minimumArea = minimumArea
        self.minimumLength = minimumLength
        self.maximumVertices = maximumVertices
        self.custom = custom
    }

    /// Whether any rule is on.
    package var isActive: Bool {
        noSelfIntersection || minimumArea != nil || minimumLength != nil || maximumVertices != nil || custom != nil
    }

    /// The built-in rules that are on, in the order they are checked.
    package var activeRules: [SketchValidationRule] {
        var out: [SketchValidationRule] = []
        if maximumVertices != nil { out.append(.maximumVertices) }
        if minimumLength != nil { out.append(.minimumLength) }
        if minimumArea != nil { out.append(.minimumArea) }
        if noSelfIntersection { out.append(.noSelfIntersection) }
        if custom != nil { out.append(.custom) }
        return out
    }
}

/// The rules by name; the raw values are the names traces and logs use.
public enum SketchValidationRule: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// ``SketchValidation/noSelfIntersection``.
    case noSelfIntersection
    /// ``SketchValidation/minimumArea``.
    case minimumArea
    /// ``SketchValidation/minimumLength``.
    case minimumLength
    /// ``SketchValidation/maximumVertices``.
    case maximumVertices
    /// ``SketchValidation/custom``: the closure said no.
    case custom

    /// The raw value, e.g. `noSelfIntersection`.
    public var description: String { rawValue }
}

/// An edit about to commit, as the ``SketchValidation/custom`` closure sees it.
public struct SketchEditProposal: Sendable {
    /// The kind of step the edit would record.
    public let kind: SketchEditRecord.Kind
    /// The part the edit changes, when it changes one part (nil: several, or the whole geometry).
    public let part: Int?
    /// The vertex the edit inserts, moves or removes, for vertex edits.
    public let index: Int?
    /// The geometry before the edit (a chunked snapshot: O(1) to keep).
    public let before: VertexStore
    /// The geometry the edit would leave.
    public let after: VertexStore
}

/// An edit a rule refused: posted to ``SketchLayer/onEditRejected(_:)`` and thrown as
/// ``SketchError/editRejected(_:)``.
public struct SketchEditRejection: Hashable, Sendable, CustomStringConvertible {
    /// The rule that refused it.
    public let rule: SketchValidationRule
    /// The kind of step the edit would have recorded.
    public let kind: SketchEditRecord.Kind
    /// What the rule found, e.g. `segment 2 of part 0 would cross segment 0 of part 0`.
    public let reason: String

    /// A rejection by `rule` of an edit of `kind`, for `reason`.
    package init(rule: SketchValidationRule, kind: SketchEditRecord.Kind, reason: String) {
        self.rule = rule
        self.kind = kind
        self.reason = reason
    }

    /// `rule: reason`.
    public var description: String { "\(rule): \(reason)" }
}

/// What an edit changed, for the rules: enough to update the measures and find the new
/// segments without looking at the rest of the geometry.
enum SketchChange {
    case vertexInserted(part: Int, index: Int)
    case vertexMoved(part: Int, index: Int, from: Point)
    case vertexRemoved(part: Int, index: Int, point: Point)
    /// A part inserted at this index (empty or not).
    case partInserted(Int)
    case partRemoved(Int, ChunkedVertices)
    /// A part's vertices replaced wholesale (a part transform).
    case partReplaced(Int)
    /// Vertices appended to part `part` from index `from` on (the part existed or was created).
    case verticesAppended(part: Int, from: Int)
    /// Every part transformed by one affine transform.
    case transformed(AffineTransform)
    /// Anything else: everything is measured and checked again.
    case replaced
}

extension SketchEditor {
    /// Judges the change just made to ``store`` (from `before`) by the rules: accepts it (the
    /// measures then describe the new geometry), or puts `before` back and throws.
    /// - Throws: ``SketchError/editRejected(_:)``.
    mutating func validate(
        _ change: SketchChange, kind: SketchEditRecord.Kind, against snapshot: ValidationSnapshot?, part: Int? = nil,
        index: Int? = nil
    ) throws {
        let rules = validation
        guard rules.isActive, let snapshot else { return }
        let before = snapshot.store
        let after = store
        let old = snapshot.measures ?? SketchMeasures(before)
        let (rejection, new) = probe.measure(.validation) {
            Self.judge(change, kind: kind, by: rules, before: before, after: after, old: old, part: part, index: index)
        }
        if let rejection {
            store = before
            measureCache = old
            throw SketchError.editRejected(rejection)
        }
        measureCache = new
    }

    /// The rules' verdict on a change from `before` to `after`: the first rule it breaks, and the
    /// measures of `after` when a rule needed them.
    private static func judge(
        _ change: SketchChange, kind: SketchEditRecord.Kind, by rules: SketchValidation, before: VertexStore, after: VertexStore,
        old: SketchMeasures, part: Int?, index: Int?
    ) -> (SketchEditRejection?, SketchMeasures?) {
        var rejection: SketchEditRejection?
        var new: SketchMeasures?
        if let max = rules.maximumVertices {
            let n = after.vertexCount
            if n > max, n > before.vertexCount {
                rejection = SketchEditRejection(
                    rule: .maximumVertices, kind: kind, reason: "the edit would leave \(n) vertices; at most \(max) are allowed")
            }
        }
        if rejection == nil, rules.minimumLength != nil || rules.minimumArea != nil {
            let m = old.updated(by: change, before: before, after: after)
            new = m
            if let min = rules.minimumLength, after.type == .polyline || after.type == .polygon, old.length >= min,
                m.length < min
            {
                rejection = SketchEditRejection(
                    rule: .minimumLength, kind: kind,
                    reason: "the edit would leave a length of \(m.length); at least \(min) is required")
            } else if let min = rules.minimumArea, after.type == .polygon, abs(old.area) >= min, abs(m.area) < min {
                rejection = SketchEditRejection(
                    rule: .minimumArea, kind: kind,
                    reason: "the edit would leave an area of \(abs(m.area)); at least \(min) is required")
            }
        }
        if rejection == nil, rules.noSelfIntersection, let crossing = SketchCrossings.find(change, in: after) {
            rejection = SketchEditRejection(rule: .noSelfIntersection, kind: kind, reason: crossing)
        }
        if rejection == nil, let check = rules.custom {
            let proposal = SketchEditProposal(kind: kind, part: part, index: index, before: before, after: after)
            if let reason = check(proposal) { rejection = SketchEditRejection(rule: .custom, kind: kind, reason: reason) }
        }
        return (rejection, new)
    }

    /// The store and its measures before an edit, to validate the edit against; nil when no
    /// rule is on (so an edit without rules never shares its storage and pays nothing).
    var validationSnapshot: ValidationSnapshot? {
        validation.isActive ? ValidationSnapshot(store: store, measures: measureCache) : nil
    }
}

/// The geometry before an edit and its measures when known (any change to the store forgets
/// them; a validated edit sets them for the geometry it leaves).
struct ValidationSnapshot {
    let store: VertexStore
    let measures: SketchMeasures?
}
