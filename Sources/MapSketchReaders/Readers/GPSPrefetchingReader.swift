// A GPS track read on a thread of its own, a few batches of fixes ahead of its consumer: reading
// and parsing overlap converting and writing on a second core.

import Foundation

/// Reads a GPS track on a background thread, handing the fixes over in batches, in file order,
/// through a bounded queue: while the caller converts one batch, the next ones are being read.
///
/// What the caller sees is what reading the track directly gives: the same fixes in the same
/// order, and a reading error only after every fix before it (``next()`` returns the fixes read
/// before the error, then throws the reader's error unchanged). Memory is bounded: at most
/// `depth` batches wait in the queue, plus the batch being filled and the one being consumed.
///
/// ```swift
/// let reader = GPSPrefetchingReader(try GPSFileReader.open(try FileByteSource(path: "ride.gpx"), fileName: "ride.gpx"))
/// while let batch = try reader.next() { for fix in batch { … } }
/// reader.summary?.segmentCount
/// ```
///
/// The track reader passed in belongs to the background thread from then on: the caller must not
/// use it again (what it counted comes back in ``summary``).
@_spi(MapSketchInternal) public final class GPSPrefetchingReader {
    /// What the track reader counted by the end of the input (or by the error).
    @_spi(MapSketchInternal) public struct Summary: Sendable {
        /// Segments seen (see ``GPSTrackReader/segmentCount``).
        @_spi(MapSketchInternal) public var segmentCount: Int
        /// Waypoints seen (GPX `<wpt>`).
        @_spi(MapSketchInternal) public var waypoints: [GPSWaypoint]
        /// The NMEA reader's counts (nil for the other formats).
        package var nmeaStatistics: NMEAReader.Statistics?
    }

    /// Fixes per batch unless told otherwise.
    @_spi(MapSketchInternal) public static let defaultBatchSize = 4096
    /// Batches that may wait in the queue unless told otherwise.
    @_spi(MapSketchInternal) public static let defaultDepth = 4

    private let queue: BoundedQueue<[GPSFix], Summary>

    /// Starts reading `reader` on a new thread, `batchSize` fixes a batch, at most `depth` batches
    /// ahead of ``next()``.
    @_spi(MapSketchInternal) public init(_ reader: GPSTrackReader, batchSize: Int = defaultBatchSize, depth: Int = defaultDepth) {
        let queue = BoundedQueue<[GPSFix], Summary>(depth: depth)
        self.queue = queue
        let owned = Handover(reader: reader)
        let size = max(1, batchSize)
        let thread = Thread { Self.read(owned, batchSize: size, into: queue) }
        thread.name = "mapsketch.gps-reader"
        thread.start()
    }

    deinit { queue.cancel() }

    /// The next batch of fixes in file order (never empty), or nil after the last (or once
    /// cancelled and the batches already read are taken).
    /// - Throws: the track reader's error, once the fixes before it have been returned.
    /// - Complexity: O(1) while the reader is ahead; otherwise waits for it.
    @_spi(MapSketchInternal) public func next() throws -> [GPSFix]? {
        try queue.take()
    }

    /// What the reader counted, once ``next()`` has returned nil or thrown; nil before.
    @_spi(MapSketchInternal) public var summary: Summary? { queue.endingValue }

    /// Stops the background thread at its next batch (the fixes not yet taken are dropped).
    @_spi(MapSketchInternal) public func cancel() { queue.cancel() }

    /// The background thread's work: batches into `queue` until the end, an error or a cancel.
    private static func read(_ owned: Handover, batchSize: Int, into queue: BoundedQueue<[GPSFix], Summary>) {
        let reader = owned.reader
        var batch: [GPSFix] = []
        batch.reserveCapacity(batchSize)
        var failure: (any Error)?
        do {
            while let fix = try reader.next() {
                batch.append(fix)
                if batch.count == batchSize {
                    guard queue.put(batch) else { return }
                    batch = []
                    batch.reserveCapacity(batchSize)
                }
            }
        } catch {
            failure = error
        }
        if !batch.isEmpty { guard queue.put(batch) else { return } }
        queue.end(
            Summary(segmentCount: reader.segmentCount, waypoints: reader.waypoints, nmeaStatistics: reader.nmeaStatistics),
            failure: failure)
    }

    /// The track reader on its way to the background thread, which alone uses it from then on.
    private final class Handover: @unchecked Sendable {
        let reader: GPSTrackReader
        init(reader: GPSTrackReader) { self.reader = reader }
    }
}
