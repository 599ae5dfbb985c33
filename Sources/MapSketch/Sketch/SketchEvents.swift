/// A geometry-changed event: posted after every change to a sketch, undo and redo included.
///
/// The event carries why and a sequence number, not the geometry: read ``SketchLayer/geometry``
/// when you need it (materialising a million-vertex geometry on every event would be O(n)).
public struct SketchGeometryChange: Hashable, Sendable, CustomStringConvertible {
    /// Why the geometry changed.
    public enum Reason: Hashable, Sendable {
        /// An edit, interactive or programmatic, recorded as one undo step of this kind.
        case edit(SketchEditRecord.Kind)
        /// The dragged vertex moved (the drag becomes one ``edit(_:)`` step on release).
        case dragMoved
        /// A drag was cancelled and its vertex went back.
        case dragCancelled
        /// An undo.
        case undo
        /// A redo.
        case redo
        /// The geometry was replaced with ``SketchLayer/setGeometry(_:)`` (history cleared).
        case replaced
    }

    /// Why the geometry changed.
    public let reason: Reason
    /// 1 for the layer's first change, then counting up.
    package let sequence: Int

    /// An event of `reason`, numbered `sequence`.
    package init(reason: Reason, sequence: Int) {
        self.reason = reason
        self.sequence = sequence
    }

    /// `#sequence reason`, for logs.
    public var description: String { "#\(sequence) \(reason)" }
}

/// A selection-changed event: the selection before and after.
public struct SketchSelectionChange: Hashable, Sendable {
    /// The selection before.
    public let old: SketchSelection
    /// The selection after.
    public let new: SketchSelection

    /// A change from `old` to `new`.
    package init(old: SketchSelection, new: SketchSelection) {
        self.old = old
        self.new = new
    }
}

/// What the magnifier does (only when the map's `showMagnifierOnTapAndHold` is on): it shows when
/// a hold on the selected vertex starts a drag, follows the finger, and hides on release.
public enum SketchMagnifierEvent: Hashable, Sendable {
    /// The magnifier appears at the held screen point.
    case show(ScreenPoint)
    /// The magnifier follows the finger.
    case move(ScreenPoint)
    /// The magnifier goes away.
    case hide
}

/// A registration of an event handler; pass it to ``SketchLayer/removeObserver(_:)`` to stop.
public struct SketchObservation: Hashable, Sendable {
    let id: Int
}

/// Handlers and stream continuations for one kind of event, in registration order.
@MainActor
struct ObserverList<Event: Sendable> {
    /// The handlers, in registration order. Callers iterate a copy (a retain, not an
    /// allocation), so a handler may add or remove observers while an event is being posted.
    private(set) var handlers: [(id: Int, body: @MainActor (Event) -> Void)] = []
    private var continuations: [(id: Int, continuation: AsyncStream<Event>.Continuation)] = []

    var isEmpty: Bool { handlers.isEmpty && continuations.isEmpty }

    mutating func add(_ id: Int, _ body: @escaping @MainActor (Event) -> Void) {
        handlers.append((id, body))
    }

    mutating func stream(_ id: Int) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        continuations.append((id, continuation))
        return stream
    }

    /// Removes the registration `id`; returns whether there was one.
    mutating func remove(_ id: Int) -> Bool {
        if let i = handlers.firstIndex(where: { $0.id == id }) {
            handlers.remove(at: i)
            return true
        }
        if let i = continuations.firstIndex(where: { $0.id == id }) {
            continuations[i].continuation.finish()
            continuations.remove(at: i)
            return true
        }
        return false
    }

    /// Feeds every stream, dropping those whose consumer went away.
    mutating func yieldToStreams(_ e: Event) {
        guard !continuations.isEmpty else { return }
        continuations.removeAll { entry in
            if case .terminated = entry.continuation.yield(e) { return true }
            return false
        }
    }

    mutating func finishAll() {
        for c in continuations { c.continuation.finish() }
        continuations.removeAll()
    }
}
