// GPS fix filters: accuracy, duplicates, time order and minimum distance.
import Foundation
public import MapSketchReaders

/// Decides which GPS fixes become sketch vertices: a pure value, applied to a sequence of fixes
/// (`apply`) or one fix at a time (`Stream`).
///
/// Checks, in this order, against the last *kept* fix of the same segment (the first fix of each
/// segment passes the order and distance checks, since it starts a new part):
/// 1. `maximumHDOP`: a fix whose `hdop` exceeds it is dropped (fixes without HDOP pass);
/// 2. `maximumAccuracy`: a fix whose `horizontalAccuracy` (m) exceeds it is dropped (fixes without
///    accuracy pass);
/// 3. `dropDuplicates`: a fix with the same time, latitude, longitude and elevation as the last
///    kept fix (`GPSFix.isDuplicate(of:)`) is dropped;
/// 4. `dropOutOfOrder`: a fix whose time is before the last kept fix's time is dropped (both
///    must have a time). Equal times are kept: many GPX exporters stamp a whole track with one
///    time, and an exact repeat is the duplicates filter's to drop;
/// 5. `minimumDistance`: a fix closer than this many meters (haversine, mean Earth radius
///    6,371,008.8 m) to the last kept fix is dropped.
///
/// ```swift
/// let result = GPSFilter(minimumDistance: 5, maximumHDOP: 4).apply(track.fixes)
/// result.fixes            // kept, in order
/// result.counts.tooClose  // how many were dropped for distance
/// ```
public struct GPSFilter: Hashable, Sendable, Codable {
    /// Drop fixes closer than this (meters) to the last kept fix; nil keeps all.
    public var minimumDistance: Double?
    /// Drop fixes with a larger HDOP; nil keeps all.
    public var maximumHDOP: Double?
    /// Drop fixes with a larger horizontal accuracy radius (meters); nil keeps all.
    public var maximumAccuracy: Double?
    /// Drop exact repeats of the last kept fix.
    public var dropDuplicates: Bool
    /// Drop fixes whose time goes back before the last kept fix's (equal times are kept).
    public var dropOutOfOrder: Bool

    /// Makes a filter; by default it keeps everything.
    public init(
        minimumDistance: Double? = nil, maximumHDOP: Double? = nil, maximumAccuracy: Double? = nil,
        dropDuplicates: Bool = false, dropOutOfOrder: Bool = false
    ) {
        self.minimumDistance = minimumDistance
        self.maximumHDOP = maximumHDOP
        self.maximumAccuracy = maximumAccuracy
        self.dropDuplicates = dropDuplicates
        self.dropOutOfOrder = dropOutOfOrder
    }

    /// Why a fix was dropped.
    public enum Reason: String, Hashable, Sendable, Codable, CaseIterable {
        /// HDOP above `maximumHDOP`.
        case hdop
        /// Horizontal accuracy above `maximumAccuracy`.
        case accuracy
        /// Same as the last kept fix.
        case duplicate
        /// Time before the last kept fix's (equal times are kept).
        case outOfOrder
        /// Closer than `minimumDistance` to the last kept fix.
        case tooClose
    }

    /// How many fixes were kept and dropped, by reason.
    public struct Counts: Hashable, Sendable, Codable {
        /// Fixes kept.
        public var kept = 0
        /// Dropped for HDOP.
        public var hdop = 0
        /// Dropped for accuracy.
        public var accuracy = 0
        /// Dropped as duplicates.
        public var duplicate = 0
        /// Dropped as out of order.
        public var outOfOrder = 0
        /// Dropped for distance.
        public var tooClose = 0

        /// All zero.
        public init() {}

        /// Fixes dropped for any reason.
        public var dropped: Int { hdop + accuracy + duplicate + outOfOrder + tooClose }

        /// The count for one reason.
        public subscript(reason: Reason) -> Int {
            switch reason {
            case .hdop: hdop
            case .accuracy: accuracy
            case .duplicate: duplicate
            case .outOfOrder: outOfOrder
            case .tooClose: tooClose
            }
        }

        mutating func add(_ reason: Reason?) {
            switch reason {
            case nil: kept += 1
            case .hdop: hdop += 1
            case .accuracy: accuracy += 1
            case .duplicate: duplicate += 1
            case .outOfOrder: outOfOrder += 1
            case .tooClose: tooClose += 1
            }
        }
    }

    /// The kept fixes and the counts.
    public struct Result: Hashable, Sendable {
        /// Kept fixes, in input order.
        public var fixes: [GPSFix]
        /// Kept and dropped counts.
        public var counts: Counts
    }

    /// Applies the filter one fix at a time (for streaming replay).
    @_spi(MapSketchInternal) public struct Stream: Sendable {
        /// The filter applied.
        public let filter: GPSFilter
        /// Counts so far.
        public private(set) var counts = Counts()
        private var last: GPSFix?

        /// A stream with nothing kept yet.
        public init(_ filter: GPSFilter) { self.filter = filter }

        /// Whether to keep `fix`: nil if kept (it becomes the new reference), else why it was dropped.
        /// - Complexity: O(1).
        public mutating func consider(_ fix: GPSFix) -> Reason? {
            let reason = filter.reason(fix, last: last)
            counts.add(reason)
            if reason == nil { last = fix }
            return reason
        }
    }

    /// Filters `fixes`.
    /// - Complexity: O(n).
    public func apply(_ fixes: some Sequence<GPSFix>) -> Result {
        var stream = Stream(self)
        var kept: [GPSFix] = []
        kept.reserveCapacity(fixes.underestimatedCount)
        for fix in fixes where stream.consider(fix) == nil { kept.append(fix) }
        return Result(fixes: kept, counts: stream.counts)
    }

    func reason(_ fix: GPSFix, last: GPSFix?) -> Reason? {
        if let max = maximumHDOP, let h = fix.hdop, h > max { return .hdop }
        if let max = maximumAccuracy, let a = fix.horizontalAccuracy, a > max { return .accuracy }
        guard let last else { return nil }
        if dropDuplicates, fix.isDuplicate(of: last) { return .duplicate }
        guard last.segment == fix.segment else { return nil }
        if dropOutOfOrder, let t = fix.time, let lt = last.time, t < lt { return .outOfOrder }
        if let min = minimumDistance, Self.haversineDistance(last, fix) < min { return .tooClose }
        return nil
    }

    /// Mean Earth radius in meters (IUGG R1).
    package static let earthRadius = 6_371_008.8

    /// Great-circle distance in meters between two fixes (haversine formula, R. W. Sinnott,
    /// "Virtues of the Haversine", Sky & Telescope 68(2), 1984), on a sphere of `earthRadius`.
    /// - Complexity: O(1).
    package static func haversineDistance(_ a: GPSFix, _ b: GPSFix) -> Double {
        haversineDistance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }

    /// Great-circle distance in meters between two latitude/longitude pairs in degrees.
    package static func haversineDistance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (latitude2 - latitude1) * r
        let dLon = (longitude2 - longitude1) * r
        let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(latitude1 * r) * cos(latitude2 * r) * s2 * s2
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
