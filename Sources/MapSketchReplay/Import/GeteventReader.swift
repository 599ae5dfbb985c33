// Android `getevent -lt` touch-log reader.
public import MapSketch
import MapSketchReaders

/// Turns an Android `getevent -lt` (or `-t`, numeric codes) capture into `TouchEvent`s.
///
/// Lines look like `[   12345.678901] /dev/input/event1: EV_ABS ABS_MT_POSITION_X 000001a2`
/// (the device path is optional). Three kernel protocols are understood (Linux
/// Documentation/input/multi-touch-protocol.rst):
/// - **multi-touch protocol A**: each contact's `ABS_MT_*` values end with `SYN_MT_REPORT`, each
///   frame with `SYN_REPORT`; contacts are matched across frames by `ABS_MT_TRACKING_ID` when
///   present, else by their order in the frame; a frame without a contact lifts every finger.
/// - **protocol B**: `ABS_MT_SLOT` picks a slot (0 until told), `ABS_MT_TRACKING_ID` ≥ 0 starts a
///   contact in it and `-1` (`ffffffff`) lifts it; positions are sticky per slot.
/// - **single touch**: `ABS_X`/`ABS_Y` plus `BTN_TOUCH DOWN`/`UP` (the emulator). When a log has
///   any `ABS_MT_*` event its single-touch events are ignored (drivers send both).
///
/// Output: one `began` per contact, `moved` for each later frame that changed its position, one
/// `ended` when it lifts (`cancelled` if the log ends with the finger still down), stamped with
/// the frame's `SYN_REPORT` time minus the first emitted frame's time (so the first event is at
/// 0 s). Each contact gets a fresh touch id, counting from 0 in order of first contact. Events are
/// time-ordered; within a frame: ended, then began and moved in slot/contact order.
///
/// Lines end at LF, CR or CR LF. The capture is held whole (two passes: the protocol, then the
/// events, whose number grows with the capture anyway).
///
/// Scaling: location = (raw − axis min) / (axis max − axis min) × screen size in points. The axis
/// range comes from `getevent -lp`-style lines in the log (`ABS_MT_POSITION_X : value 0, min 0,
/// max 1023, …`), else from `Options.axisMax` (min 0); with no screen size raw units are points.
///
/// - Complexity: O(n) in the log's bytes.
@_spi(MapSketchInternal) public enum GeteventReader {
    /// How to scale raw axis units to screen points.
    @_spi(MapSketchInternal) public struct Options: Sendable {
        /// Raw maximum of the x and y axes (minimum 0), used when the log has no `-lp` axis info.
        @_spi(MapSketchInternal) public var axisMax: (x: Double, y: Double)?
        /// The screen size in points; nil keeps raw units.
        @_spi(MapSketchInternal) public var screen: ScreenSize?
        /// Only events of this device path (`/dev/input/event1`) when the log names devices; nil: all.
        @_spi(MapSketchInternal) public var device: String?

        /// Makes options.
        @_spi(MapSketchInternal) public init(axisMax: (x: Double, y: Double)? = nil, screen: ScreenSize? = nil, device: String? = nil) {
            self.axisMax = axisMax
            self.screen = screen
            self.device = device
        }

        /// Raw units as points (no scaling).
        @_spi(MapSketchInternal) public static let raw = Options()
        /// Samsung Galaxy S (GT-I9000, Android 4.1 in the MonkeyHelper corpus): Atmel mXT224 axes
        /// 0…1023 on a 480 × 800 px hdpi screen = 320 × 533.33 pt.
        @_spi(MapSketchInternal) public static let galaxyS = Options(axisMax: (1023, 1023), screen: ScreenSize(width: 320, height: 800 / 1.5))
        /// Asus Transformer Prime TF201: elan-touchscreen axes 0…2240 × 0…1280 (from the ektf3k
        /// driver's ELAN_X_MAX/ELAN_Y_MAX — an assumption, the corpus has no `-lp` output) on a
        /// 1280 × 800 px mdpi screen = 1280 × 800 pt.
        @_spi(MapSketchInternal) public static let asusTF201 = Options(axisMax: (2240, 1280), screen: ScreenSize(width: 1280, height: 800))
        /// The Android emulator (goldfish events report pixels): a 720 × 1280 px xhdpi skin =
        /// 360 × 640 pt (the corpus' emulator values stay within 0…663 × 0…1136).
        @_spi(MapSketchInternal) public static let androidEmulator = Options(axisMax: (720, 1280), screen: ScreenSize(width: 360, height: 640))
    }

    /// Reads a capture into time-ordered touch events.
    /// - Throws: `ReaderError` for a malformed event line (bad timestamp, unknown hex value) or
    ///   when a screen size is given but no axis range is known.
    /// - Complexity: O(n) in the input bytes.
    @_spi(MapSketchInternal) public static func read(bytes: [UInt8], file: String? = nil, options: Options = .raw) throws -> [TouchEvent] {
        try bytes.withUnsafeBufferPointer { p in
            var state = GeteventState(file: file, options: options)
            try state.run(p)
            return state.events
        }
    }

    /// Reads a capture given as text.
    @_spi(MapSketchInternal) public static func read(text: String, file: String? = nil, options: Options = .raw) throws -> [TouchEvent] {
        try read(bytes: Array(text.utf8), file: file, options: options)
    }
}

/// The reader's state over one capture: the protocol, the axis ranges and the contacts down.
struct GeteventState {
    let file: String?
    let options: GeteventReader.Options
    var events: [TouchEvent] = []
    var nextID = 0
    var firstFrameTime: Double?
    var line = 0
    // Axis ranges from -lp lines.
    var xRange: (Double, Double)?
    var yRange: (Double, Double)?
    // Protocol A.
    var contact = Contact()
    var frame: [Contact] = []
    var activeA: [ActiveTouch] = []
    // Protocol B.
    var slots: [Slot] = [Slot()]
    var slot = 0
    // Single touch.
    var stX: Double?
    var stY: Double?
    var stDown = false
    var stTouch: ActiveTouch?
    var stChanged = false
    var lastTime = 0.0

    init(file: String?, options: GeteventReader.Options) {
        self.file = file
        self.options = options
    }

    func error(_ column: Int, _ kind: ReaderError.Kind) -> ReaderError {
        ReaderError(file: file, line: line, column: column, kind: kind)
    }

    static func contains(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        var i = s
        while i + n <= e {
            var k = 0
            while k < n, p[i + k] == word.utf8Start[k] { k += 1 }
            if k == n { return true }
            i += 1
        }
        return false
    }

    static func equals(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ word: StaticString) -> Bool {
        guard e - s == word.utf8CodeUnitCount else { return false }
        for k in 0..<(e - s) where p[s + k] != word.utf8Start[k] { return false }
        return true
    }

    static func hex(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> UInt32? {
        guard e > s, e - s <= 8 else { return nil }
        var v: UInt32 = 0
        for i in s..<e {
            let b = p[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }

    static func code(_ p: UnsafeBufferPointer<UInt8>, type: (Int, Int), code: (Int, Int)) -> EventCode {
        let (ts, te) = type
        let (cs, ce) = code
        if let t = hex(p, ts, te), let c = hex(p, cs, ce) {  // getevent -t without -l: numeric
            switch (t, c) {
            case (0, 0): return .synReport
            case (0, 2): return .synMTReport
            case (3, 0x2F): return .mtSlot
            case (3, 0x39): return .mtTrackingID
            case (3, 0x35): return .mtX
            case (3, 0x36): return .mtY
            case (3, 0): return .absX
            case (3, 1): return .absY
            case (1, 0x14A): return .btnTouch
            case (3, 0x30...0x3F): return .otherMT
            default: return .other
            }
        }
        if equals(p, cs, ce, "SYN_REPORT") { return .synReport }
        if equals(p, cs, ce, "SYN_MT_REPORT") { return .synMTReport }
        if equals(p, cs, ce, "ABS_MT_SLOT") { return .mtSlot }
        if equals(p, cs, ce, "ABS_MT_TRACKING_ID") { return .mtTrackingID }
        if equals(p, cs, ce, "ABS_MT_POSITION_X") { return .mtX }
        if equals(p, cs, ce, "ABS_MT_POSITION_Y") { return .mtY }
        if equals(p, cs, ce, "ABS_X") { return .absX }
        if equals(p, cs, ce, "ABS_Y") { return .absY }
        if equals(p, cs, ce, "BTN_TOUCH") { return .btnTouch }
        if contains(p, cs, ce, "ABS_MT_") { return .otherMT }
        return .other
    }

    mutating func run(_ p: UnsafeBufferPointer<UInt8>) throws {
        // Pass 1: which protocol, and -lp axis ranges. Pass 2: the events.
        var multiTouch = false
        var protocolA = false
        for pass in 0..<2 {
            var start = 0
            line = 0
            while start < p.count {
                var end = start
                while end < p.count, p[end] != ASCII.lf, p[end] != ASCII.cr { end += 1 }
                line += 1
                if let (time, code, value) = try event(p, start, end) {
                    if pass == 0 {
                        if code == .synMTReport { protocolA = true }
                        if code == .synMTReport || code == .mtX || code == .mtY || code == .mtSlot || code == .mtTrackingID
                            || code == .otherMT
                        {
                            multiTouch = true
                        }
                    } else {
                        lastTime = max(lastTime, time)
                        if multiTouch {
                            if protocolA { handleA(code, value, time) } else { handleB(code, value, time) }
                        } else {
                            handleSingle(code, value, time)
                        }
                    }
                } else if pass == 0, Self.contains(p, start, end, "max") {
                    axisInfo(p, start, end)
                }
                start = end + (end + 1 < p.count && p[end] == ASCII.cr && p[end + 1] == ASCII.lf ? 2 : 1)  // LF, CR or CR LF
            }
            if pass == 0, options.screen != nil, xRange == nil || yRange == nil, options.axisMax == nil {
                throw ReaderError(file: file, line: 1, column: 1, kind: .missing(field: "axis range (getevent -lp output in the log or Options.axisMax)"))
            }
        }
        // Fingers still down when the capture stopped.
        for a in activeA { emit(lastTime, a.id, .cancelled, a.x, a.y) }
        for s in slots where s.trackingID >= 0 {
            if let id = s.touchID { emit(lastTime, id, .cancelled, s.x ?? 0, s.y ?? 0) }
        }
        if let t = stTouch { emit(lastTime, t.id, .cancelled, t.x, t.y) }
    }

    /// `ABS_MT_POSITION_X : value 0, min 0, max 1023, fuzz 0, flat 0, resolution 0`
    mutating func axisInfo(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) {
        let isX = Self.contains(p, s, e, "ABS_MT_POSITION_X") || Self.contains(p, s, e, "ABS_X ") || Self.contains(p, s, e, "0035 ")
        let isY = Self.contains(p, s, e, "ABS_MT_POSITION_Y") || Self.contains(p, s, e, "ABS_Y ") || Self.contains(p, s, e, "0036 ")
        guard isX || isY else { return }
        func number(after word: StaticString) -> Double? {
            let n = word.utf8CodeUnitCount
            var i = s
            while i + n <= e {
                if Self.equals(p, i, i + n, word) {
                    var j = i + n
                    while j < e, p[j] == ASCII.space { j += 1 }
                    var k = j
                    if k < e, p[k] == ASCII.minus { k += 1 }
                    while k < e, ASCII.isDigit(p[k]) { k += 1 }
                    return ByteScan.double(p, j, k)
                }
                i += 1
            }
            return nil
        }
        guard let mx = number(after: "max"), let mn = number(after: "min"), mx > mn else { return }
        // The MT axes win over single-touch ABS_X/ABS_Y when a device reports both.
        let isMT = Self.contains(p, s, e, "ABS_MT_") || Self.contains(p, s, e, "003")
        if isX, xRange == nil || isMT { xRange = (mn, mx) }
        if isY, yRange == nil || isMT { yRange = (mn, mx) }
    }

    func event(_ p: UnsafeBufferPointer<UInt8>, _ ls: Int, _ le: Int) throws -> (Double, EventCode, Int)? {
        var i = ls
        while i < le, ASCII.isSpace(p[i]) { i += 1 }
        guard i < le, p[i] == ASCII.lbracket else { return nil }
        i += 1
        while i < le, p[i] == ASCII.space { i += 1 }
        let ts = i
        while i < le, p[i] != ASCII.rbracket { i += 1 }
        guard i < le, let time = ByteScan.double(p, ts, i) else {
            throw error(ts - ls + 1, .badNumber(field: "timestamp", found: String(decoding: UnsafeBufferPointer(rebasing: p[ts..<i]), as: UTF8.self)))
        }
        i += 1
        // Tokens: [device:] type code value (no allocation: at most four).
        var t0 = (0, 0), t1 = (0, 0), t2 = (0, 0), t3 = (0, 0)
        var count = 0
        while i < le, count < 4 {
            while i < le, ASCII.isSpace(p[i]) { i += 1 }
            let s = i
            while i < le, !ASCII.isSpace(p[i]) { i += 1 }
            guard i > s else { break }
            switch count {
            case 0: t0 = (s, i)
            case 1: t1 = (s, i)
            case 2: t2 = (s, i)
            default: t3 = (s, i)
            }
            count += 1
        }
        if count > 0, p[t0.1 - 1] == ASCII.colon {
            if let device = options.device {
                let name = String(decoding: UnsafeBufferPointer(rebasing: p[t0.0..<(t0.1 - 1)]), as: UTF8.self)
                if name != device { return nil }
            }
            (t0, t1, t2) = (t1, t2, t3)
            count -= 1
        }
        guard count >= 3 else {
            throw error(i - ls + 1, .syntax(expected: "event type, code and value after the timestamp"))
        }
        let code = Self.code(p, type: t0, code: t1)
        let (vs, ve) = t2
        let value: Int
        if Self.equals(p, vs, ve, "DOWN") {
            value = 1
        } else if Self.equals(p, vs, ve, "UP") {
            value = 0
        } else if let v = Self.hex(p, vs, ve) {
            value = Int(Int32(bitPattern: v))
        } else {
            if code == .other { return nil }  // e.g. EV_KEY KEY_T REPEAT: not a touch
            throw error(vs - ls + 1, .badNumber(field: "event value (hex)", found: String(decoding: UnsafeBufferPointer(rebasing: p[vs..<ve]), as: UTF8.self)))
        }
        return (time, code, value)
    }
}

extension GeteventState {
    /// The kinds of event line the reader tells apart (by name with `-l`, by number without).
    enum EventCode: Equatable {
        case synReport, synMTReport, mtSlot, mtTrackingID, mtX, mtY, absX, absY, btnTouch, otherMT, other
    }

    /// A protocol A contact as the current frame reports it.
    struct Contact {
        var trackingID: Int?
        var x: Double?
        var y: Double?
    }

    /// A finger down: its touch id, what matches it across frames and its last raw position.
    struct ActiveTouch {
        var id: Int
        var key: Int  // tracking id, slot, or order in the frame
        var x: Double
        var y: Double
    }

    /// A protocol B slot: its tracking id (-1: empty), sticky position and touch.
    struct Slot {
        var trackingID: Int = -1
        var x: Double?
        var y: Double?
        var dirty = false
        var touchID: Int?
        var lifted = false
    }
}
