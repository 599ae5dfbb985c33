public import MapSketch
import MapSketchGeometry

/// A team's own code that every replay installs in the map it sets up: validation rules,
/// observers, a touch tool, or anything else set up against the map and the sketch. Each
/// registration has a name, and whatever it runs during a replay is measured by `mapsketch bench`
/// as its own kind, `user.<name>`, like the built-in kinds (time, allocations and, under
/// callgrind, instructions).
///
/// The same value goes wherever a trace is replayed: a ``ReplaySession``, the golden check
/// (`GoldenRunner.extensions`), the bench and its worker processes, and the command line of a
/// team's own executable (`MapSketchCommandLine.main(configure:)`), so a golden test and a bench
/// see the same code.
///
/// ```swift
/// var extensions = ReplayExtensions()
/// extensions.validationRule("noShortSegments") { proposal in
///     proposal.after.vertexCount > 100 ? "at most 100 vertices" : nil
/// }
/// let session = try ReplaySession(trace: trace, name: "walk", extensions: extensions)
/// session.run()
/// ```
///
/// Kinds nest as the built-in ones do: a validation rule runs inside the edit's `validation`
/// kind, an observer inside the operation that changed the sketch. Each kind's figures include
/// what nests inside it, and a trace's attributed share counts every operation once, at its
/// outermost kind, so a user kind's time is never counted twice there.
///
/// Names are programmer input: each must be non-empty, made of letters, digits, `.`, `-` and
/// `_`, and unique in the value (a precondition); at most ``capacity`` may be registered.
public struct ReplayExtensions: Sendable {
    /// One registration: its name and what it installs in a session.
    struct Registration: Sendable {
        var name: String
        var install: @MainActor @Sendable (ReplayExtensionContext) -> Void
    }

    private(set) var registrations: [Registration] = []

    /// The most registrations one value holds: the measuring harness has a fixed number of kind
    /// slots, and the built-in kinds take the others.
    package static let capacity = 88

    /// The prefix of every user kind's name in reports.
    package static let kindPrefix = "user."

    /// No registration: what a replay installs unless given more.
    public static let none = ReplayExtensions()

    /// An empty value.
    public init() {}

    /// The names registered, in order (without ``kindPrefix``).
    package var names: [String] { registrations.map(\.name) }

    /// The kind names reports use, in registration order: `user.<name>`.
    package var kindNames: [String] { registrations.map { Self.kindPrefix + $0.name } }

    /// Whether nothing is registered.
    package var isEmpty: Bool { registrations.isEmpty }

    /// Registers code to set up in every session: `install` is called once per session, after the
    /// header's map, layers and sketch are set up, with a context that gives the map, the sketch
    /// and ``ReplayExtensionContext/measure(_:)``, which runs a closure as the kind `user.<name>`.
    /// `install` itself runs inside the session's `setup`.
    /// - Precondition: `name` is valid and not registered yet (see the type's summary).
    public mutating func register(_ name: String, install: @escaping @MainActor @Sendable (ReplayExtensionContext) -> Void) {
        precondition(Self.isValidName(name), "ReplayExtensions: \"\(name)\" is not a valid name (letters, digits, '.', '-', '_')")
        precondition(!names.contains(name), "ReplayExtensions: \"\(name)\" is registered twice")
        precondition(registrations.count < Self.capacity, "ReplayExtensions: at most \(Self.capacity) registrations")
        registrations.append(Registration(name: name, install: install))
    }

    /// Registers a validation rule: it judges every edit the sketch validates (after the trace's
    /// own rules, and after the rules registered before it) and rejects it by returning a reason.
    /// A rejection is reported under the rule ``SketchValidationRule/custom`` with the reason
    /// `<name>: <reason>`. Each call is measured as `user.<name>`, inside `validation`.
    /// - Precondition: as ``register(_:install:)``.
    public mutating func validationRule(_ name: String, _ rule: @escaping @Sendable (SketchEditProposal) -> String?) {
        register(name) { context in
            guard let sketch = context.sketch else { return }
            let measured = context.measuring(rule)
            var validation = sketch.validation
            let earlier = validation.custom
            validation.custom = { proposal in
                if let earlier, let reason = earlier(proposal) { return reason }
                return measured(proposal).map { "\(name): \($0)" }
            }
            sketch.validation = validation
        }
    }

    /// Registers an observer of the sketch's geometry changes (``SketchLayer/onGeometryChanged(_:)``).
    /// Each call is measured as `user.<name>`, inside the operation that changed the sketch.
    /// - Precondition: as ``register(_:install:)``.
    public mutating func geometryObserver(
        _ name: String, _ observer: @escaping @MainActor @Sendable (SketchGeometryChange, SketchLayer) -> Void
    ) {
        register(name) { context in
            guard let sketch = context.sketch else { return }
            sketch.onGeometryChanged { [weak sketch] change in
                guard let sketch else { return }
                context.measure { observer(change, sketch) }
            }
        }
    }

    /// Registers an observer of the map's events (``MapView/addEventObserver(_:)``): gestures,
    /// callouts, layer changes. Each call is measured as `user.<name>`.
    /// - Precondition: as ``register(_:install:)``.
    public mutating func mapEventObserver(_ name: String, _ observer: @escaping @MainActor @Sendable (MapEvent) -> Void) {
        register(name) { context in
            context.mapView.addEventObserver { event in context.measure { observer(event) } }
        }
    }

    /// Registers a touch tool: the map's touch delegate becomes the one `make` returns (given the
    /// map and the sketch, which it may forward gestures to), and every gesture it is handed is
    /// measured as `user.<name>`, inside `gesture.dispatch`. The tool is kept by the session.
    /// - Precondition: as ``register(_:install:)``.
    public mutating func touchTool(
        _ name: String, _ make: @escaping @MainActor @Sendable (MapView, SketchLayer?) -> any MapTouchDelegate
    ) {
        register(name) { context in
            let tool = MeasuredTouchDelegate(make(context.mapView, context.sketch), context: context)
            context.keep(tool)
            context.mapView.touchDelegate = tool
        }
    }

    /// Whether `name` may name a registration.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { s in
                s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "." || s == "-" || s == "_")
            }
    }
}

/// What a registration of ``ReplayExtensions`` is handed when a session sets up: the model, and
/// the measuring of its kind.
@MainActor
public struct ReplayExtensionContext {
    /// The map the session drives.
    public let mapView: MapView
    /// The sketch layer, when the trace's header has one.
    public let sketch: SketchLayer?
    /// The registration's kind name, `user.<name>`.
    public let kindName: String
    let index: Int
    let probe: (any ReplayProbe)?
    let keeper: ReplayExtensionKeeper

    /// Runs `body` as one operation of this registration's kind: measured when the replay is
    /// measured (`mapsketch bench`), called directly otherwise.
    public func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let probe else { return try body() }
        return try probe.measure(.user(index), body)
    }

    /// `body` wrapped so that each call is measured as this registration's kind, for code the
    /// model calls from outside the main actor's isolation (a validation rule).
    public func measuring<Input, Output>(_ body: @escaping @Sendable (Input) -> Output) -> @Sendable (Input) -> Output {
        guard let probe else { return body }
        let index = index
        return { input in probe.measure(.user(index)) { body(input) } }
    }

    /// Keeps `object` alive as long as the session (a delegate the map holds weakly).
    public func keep(_ object: AnyObject) { keeper.objects.append(object) }
}

/// What a session keeps alive for its registrations.
@MainActor
final class ReplayExtensionKeeper {
    var objects: [AnyObject] = []
}

/// A touch delegate that measures each gesture the user's tool is handed as its kind.
@MainActor
private final class MeasuredTouchDelegate: MapTouchDelegate {
    let tool: any MapTouchDelegate
    let context: ReplayExtensionContext

    init(_ tool: any MapTouchDelegate, context: ReplayExtensionContext) {
        self.tool = tool
        self.context = context
    }

    func mapView(_ mapView: MapView, didClickAt screen: ScreenPoint, mapPoint: Point) {
        context.measure { tool.mapView(mapView, didClickAt: screen, mapPoint: mapPoint) }
    }
    func mapView(_ mapView: MapView, didTapAndHoldAt screen: ScreenPoint, mapPoint: Point) {
        context.measure { tool.mapView(mapView, didTapAndHoldAt: screen, mapPoint: mapPoint) }
    }
    func mapView(_ mapView: MapView, didMoveTapAndHoldAt screen: ScreenPoint, mapPoint: Point) {
        context.measure { tool.mapView(mapView, didMoveTapAndHoldAt: screen, mapPoint: mapPoint) }
    }
    func mapView(_ mapView: MapView, didEndTapAndHoldAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool) {
        context.measure { tool.mapView(mapView, didEndTapAndHoldAt: screen, mapPoint: mapPoint, cancelled: cancelled) }
    }
    func mapViewShouldPan(_ mapView: MapView) -> Bool { context.measure { tool.mapViewShouldPan(mapView) } }
    func mapViewShouldShowCallouts(_ mapView: MapView) -> Bool { context.measure { tool.mapViewShouldShowCallouts(mapView) } }
    func mapView(_ mapView: MapView, shouldBeginDragAt screen: ScreenPoint, mapPoint: Point) -> Bool {
        context.measure { tool.mapView(mapView, shouldBeginDragAt: screen, mapPoint: mapPoint) }
    }
    func mapView(_ mapView: MapView, didDragTo screen: ScreenPoint, mapPoint: Point) {
        context.measure { tool.mapView(mapView, didDragTo: screen, mapPoint: mapPoint) }
    }
    func mapView(_ mapView: MapView, didEndDragAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool) {
        context.measure { tool.mapView(mapView, didEndDragAt: screen, mapPoint: mapPoint, cancelled: cancelled) }
    }
}
