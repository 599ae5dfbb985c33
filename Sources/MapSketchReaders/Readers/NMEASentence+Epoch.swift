// NMEA 0183 sentences: the epoch that the sentences of one time of day merge into.

/// The merge state of the current epoch.
struct NMEAEpoch {
    var open = false
    var timeOfDay: Double?
    var line = 0
    var rank = 0
    var latitude = 0.0
    var longitude = 0.0
    var elevation: Double?
    var hdop: Double?
    var speed: Double?
    var course: Double?
    var quality = GPSFixQuality.unknown
    var gsaMode: GPSFixMode?
    /// The latitude, N/S, longitude and E/W fields of the GGA that set the position (rank 3), in
    /// the input window; nil once the window moved past them.
    var ggaPosition: (Range<Int>, Range<Int>, Range<Int>, Range<Int>)?

    /// Whether the four coordinate fields hold the same bytes as the GGA's.
    func ggaPositionMatches(
        _ lat: Range<Int>, _ ns: Range<Int>, _ lon: Range<Int>, _ ew: Range<Int>, _ p: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard let g = ggaPosition else { return false }
        return ByteScan.sameBytes(p, lat, g.0) && ByteScan.sameBytes(p, ns, g.1)
            && ByteScan.sameBytes(p, lon, g.2) && ByteScan.sameBytes(p, ew, g.3)
    }

    mutating func setPosition(_ lat: Double, _ lon: Double, rank: Int, line: Int) {
        guard rank > self.rank else { return }
        self.rank = rank
        latitude = lat
        longitude = lon
        self.line = line
    }
}

struct NMEAState {
    var epoch = NMEAEpoch()
    /// Days since 1970 of the current UTC date, once a sentence told it.
    var date: Int?
    var lastTimeOfDay: Double?

    /// Opens the epoch of `timeOfDay` (nil: a sentence without time joins the current epoch);
    /// returns the previous epoch's fix when this starts a new one.
    mutating func beginEpoch(timeOfDay: Double?, line: Int) -> GPSFix? {
        if epoch.open {
            guard let tod = timeOfDay, let current = epoch.timeOfDay, abs(tod - current) > 1e-6 else {
                if epoch.timeOfDay == nil, let tod = timeOfDay { epoch.timeOfDay = tod }
                return nil
            }
        }
        let fix = finishEpoch()
        epoch = NMEAEpoch()
        epoch.open = true
        epoch.timeOfDay = timeOfDay
        epoch.line = line
        if let tod = timeOfDay {
            if let last = lastTimeOfDay, tod < last - 43_200, date != nil { date? += 1 }
            lastTimeOfDay = tod
        }
        return fix
    }

    /// The fix of the current epoch if it had a valid position; closes the epoch.
    mutating func finishEpoch() -> GPSFix? {
        defer { epoch.open = false }
        guard epoch.open, epoch.rank > 0 else { return nil }
        var time: Double?
        if let tod = epoch.timeOfDay, let days = date { time = Double(days * 86_400) + tod }
        let mode = epoch.gsaMode ?? (epoch.elevation != nil ? .threeD : .twoD)
        return GPSFix(
            time: time, latitude: epoch.latitude, longitude: epoch.longitude, elevation: epoch.elevation,
            hdop: epoch.hdop, speed: epoch.speed, course: epoch.course, quality: epoch.quality, mode: mode,
            segment: 0, line: epoch.line)
    }
}

