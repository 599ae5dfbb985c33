package import MapSketch
import MapSketchGeometry
import MapSketchReaders

/// Turns an Android `getevent -lt` log into a trace: the one conversion behind
/// `mapsketch import getevent` and the corpus' `touch/` traces.
///
/// The log is read by `GeteventReader` (multi-touch protocols A and B, single touch) and its
/// touches become a trace's touch lines (``TraceBuilder/touchTrace(_:name:description:screen:geometryType:)``):
/// times from 0 s to the microsecond, positions to the thousandth of a point, on a map of one
/// map unit per point centred at the origin with a new polyline sketch.
///
/// The screen, and how raw axis units become points: a ``Device`` preset gives both; else
/// `screen` scales the axes, whose range comes from the log's `getevent -lp` lines or from
/// `axisMax`; with neither, raw units are points and the screen is the smallest whole size that
/// holds every touch (at least 1 × 1).
package enum GeteventImport {
    /// The devices of the bundled recordings, with their screens and axis ranges.
    package enum Device: String, CaseIterable, Hashable, Sendable {
        /// Samsung Galaxy S (`GeteventReader.Options.galaxyS`).
        case galaxyS = "galaxy-s"
        /// Asus Transformer Prime TF201 (`GeteventReader.Options.asusTF201`).
        case asusTF201 = "asus-tf201"
        /// The Android emulator (`GeteventReader.Options.androidEmulator`).
        case emulator

        /// The reader's options for the device.
        package var options: GeteventReader.Options {
            switch self {
            case .galaxyS: .galaxyS
            case .asusTF201: .asusTF201
            case .emulator: .androidEmulator
            }
        }
    }

    /// How to read and scale a log.
    package struct Settings: Sendable {
        /// A device preset (screen and axis range); wins over ``screen`` and ``axisMax``.
        package var device: Device?
        /// The screen in points; nil keeps raw units.
        package var screen: ScreenSize?
        /// The raw axis maxima (minimum 0) when the log has no `-lp` lines.
        package var axisMax: (x: Double, y: Double)?
        /// The trace's name (nil: none).
        package var name: String?
        /// The trace's description (nil: "Android getevent recording FILE (N touches)").
        package var description: String?

        /// Settings with nothing set: raw units as points.
        package init(
            device: Device? = nil, screen: ScreenSize? = nil, axisMax: (x: Double, y: Double)? = nil, name: String? = nil,
            description: String? = nil
        ) {
            self.device = device
            self.screen = screen
            self.axisMax = axisMax
            self.name = name
            self.description = description
        }
    }

    /// The trace of a getevent log.
    /// - Parameters:
    ///   - bytes: the log.
    ///   - file: the name errors give (`phone.txt:12:18: …`).
    /// - Throws: ``TraceError`` located at the log's line and column: a malformed event line, a
    ///   screen given without any axis range, or a log with no touch at all.
    /// - Complexity: O(n) in the log's bytes.
    package static func trace(bytes: [UInt8], file: String, settings: Settings = Settings()) throws(TraceError) -> Trace {
        var options = settings.device?.options ?? GeteventReader.Options(axisMax: settings.axisMax, screen: settings.screen)
        if settings.device == nil, settings.screen == nil { options.axisMax = nil }
        let touches: [TouchEvent]
        do {
            touches = try GeteventReader.read(bytes: bytes, file: file, options: options)
        } catch let e as ReaderError {
            if case .missing = e.kind, e.line == 1, e.column == 1, options.screen != nil {
                throw TraceError(
                    file: file, line: 1, column: 1,
                    message: "expected the touch axes' range to scale them to the screen: the log has no `getevent -lp` axis lines; give the raw axis maxima (--axis-max XxY) or a device")
            }
            throw TraceError(e, file: file)
        } catch {
            throw TraceError(file: file, line: 1, column: 1, message: "\(error)")
        }
        guard !touches.isEmpty else {
            throw TraceError(
                file: file, line: 1, column: 1,
                message: "expected getevent touch events (EV_ABS ABS_MT_POSITION_X/Y, ABS_X/Y with BTN_TOUCH), found none")
        }
        let screen = options.screen ?? rawScreen(touches)
        let description = settings.description ?? "Android getevent recording \(file) (\(touches.count) touches)"
        var trace = TraceBuilder.touchTrace(touches, name: settings.name ?? "", description: description, screen: screen)
        if settings.name == nil { trace.header.name = nil }
        return trace
    }

    /// The smallest whole screen holding every touch, at least 1 × 1 points.
    static func rawScreen(_ touches: [TouchEvent]) -> ScreenSize {
        var w = 1.0, h = 1.0
        for t in touches {
            w = max(w, (t.location.x + 1).rounded(.down))
            h = max(h, (t.location.y + 1).rounded(.down))
        }
        return ScreenSize(width: w, height: h)
    }

    /// Whether `bytes` look like a getevent log rather than a trace: the first line that is not
    /// blank starts with `[` and a timestamp, or with getevent's `add device`.
    /// - Complexity: O(n) in the first line's bytes.
    package static func looksLikeGetevent(_ bytes: some Sequence<UInt8>) -> Bool {
        var line: [UInt8] = []
        for b in bytes {
            if b == 0x0A || b == 0x0D {
                if line.contains(where: { $0 != 0x20 && $0 != 0x09 }) { break }
                line.removeAll()
                continue
            }
            line.append(b)
            if line.count > 200 { break }
        }
        let text = String(decoding: line, as: UTF8.self).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
        if text.hasPrefix("add device") { return true }
        guard text.hasPrefix("[") else { return false }
        let stamp = text.dropFirst().trimmingPrefix(while: { $0 == " " })
        guard let close = stamp.firstIndex(of: "]") else { return false }
        return Double(stamp[..<close]) != nil
    }
}
