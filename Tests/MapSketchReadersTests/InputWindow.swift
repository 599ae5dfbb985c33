@testable import MapSketchReaders

// The input a streaming reader holds, read from its window: the window only grows (to its limit)
// and never shrinks, so its size is the most input the reader has held at once (see
// `StreamingReaderTests.theWindowOnlyGrowsUpToItsLimit`).

extension GPXReader {
    /// The bytes of input the reader holds: the most it has held at once.
    var windowBytes: Int { input.storage.count }
}

extension NMEAReader {
    /// The bytes of input the reader holds: the most it has held at once.
    var windowBytes: Int { input.storage.count }
}

extension GPSTrackReader {
    /// The bytes of input the format's reader holds: the most it has held at once (0 for GeoJSON
    /// Lines, whose window these tests do not read).
    var windowBytes: Int { gpxBox?.reader.windowBytes ?? nmeaBox?.reader.windowBytes ?? 0 }
}
