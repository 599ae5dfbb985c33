// The GPS fix model shared by every GPS reader (GPX, NMEA, GeoJSON lines), the filters and the
// generators. Fixes are plain values: no strings, no references, so a reader allocates nothing
// per fix.

import MapSketchGeometry

/// How a receiver obtained a fix (NMEA GGA quality, GPX `<fix>`).
public enum GPSFixQuality: String, Hashable, Sendable, Codable {
    /// The source does not say (most GPX files, GeoJSON lines, generators).
    case unknown
    /// An autonomous GNSS fix (GGA quality 1, RMC mode A, GPX `2d`/`3d`).
    case gps
    /// Differential GNSS (GGA quality 2, RMC mode D, GPX `dgps`).
    case dgps
    /// Precise positioning service (GGA quality 3, GPX `pps`).
    case pps
    /// Real-time kinematic, fixed integers (GGA quality 4, RMC mode R).
    case rtkFixed
    /// Real-time kinematic, float (GGA quality 5, RMC mode F).
    case rtkFloat
    /// Dead reckoning (GGA quality 6, RMC mode E).
    case estimated
    /// Entered by hand (GGA quality 7, RMC mode M).
    case manual
    /// A simulator (GGA quality 8, RMC mode S).
    case simulated
}

/// The dimension of a fix: whether it carries a usable altitude.
public enum GPSFixMode: String, Hashable, Sendable, Codable {
    /// The source does not say.
    case unknown
    /// Latitude and longitude only (NMEA GSA mode 2, GPX `2d`, an NMEA fix without altitude).
    case twoD
    /// Latitude, longitude and altitude (NMEA GSA mode 3, GPX `3d`, GGA with altitude).
    case threeD
}

/// One GPS position sample, as read from a track file or made by a generator.
///
/// Coordinates are WGS 84 degrees (latitude −90…90, longitude −180…180), elevation in meters
/// (GPX `<ele>`, NMEA GGA altitude above mean sea level), time in seconds since
/// 1970-01-01T00:00:00Z (UTC, fractional). `segment` numbers the track segments of a file from 0;
/// replay turns each segment into one part of a sketch. `line` is the 1-based line of the source
/// where the fix starts (0 when the fix was not read from text), for error messages and filter
/// reports.
public struct GPSFix: Hashable, Sendable, Codable {
    /// Seconds since 1970-01-01T00:00:00Z, or nil when the source has no time (GPX may omit it).
    public var time: Double?
    /// Latitude in degrees, −90…90 (north positive).
    public var latitude: Double
    /// Longitude in degrees, −180…180 (east positive).
    public var longitude: Double
    /// Elevation in meters, when known.
    public var elevation: Double?
    /// Horizontal dilution of precision, when known.
    public var hdop: Double?
    /// Estimated horizontal accuracy (1 σ radius) in meters, when known.
    public var horizontalAccuracy: Double?
    /// Speed over ground in meters per second, when known.
    public var speed: Double?
    /// Course over ground in degrees clockwise from true north, when known.
    public var course: Double?
    /// How the fix was obtained.
    public var quality: GPSFixQuality
    /// Whether the fix is 2-D or 3-D.
    public var mode: GPSFixMode
    /// The track segment the fix belongs to, from 0 (one sketch part per segment).
    public var segment: Int
    /// The 1-based source line the fix starts on, 0 when not read from text.
    public var line: Int

    /// Makes a fix; every optional measurement defaults to unknown.
    public init(
        time: Double? = nil, latitude: Double, longitude: Double, elevation: Double? = nil,
        hdop: Double? = nil, horizontalAccuracy: Double? = nil, speed: Double? = nil,
        course: Double? = nil, quality: GPSFixQuality = .unknown, mode: GPSFixMode = .unknown,
        segment: Int = 0, line: Int = 0
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.hdop = hdop
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.course = course
        self.quality = quality
        self.mode = mode
        self.segment = segment
        self.line = line
    }

    /// Whether two fixes are the same sample: same time, position and elevation (the fields a
    /// sketch uses), ignoring the source line and the measurement extras.
    public func isDuplicate(of other: GPSFix) -> Bool {
        time == other.time && latitude == other.latitude && longitude == other.longitude
            && elevation == other.elevation
    }
}

/// A named point that is not part of a track: a GPX `<wpt>`. Replay reports waypoints separately;
/// they never become sketch vertices.
public struct GPSWaypoint: Hashable, Sendable, Codable {
    /// The position and time of the waypoint (`segment` is always 0).
    public var fix: GPSFix
    /// The waypoint's `<name>`, transcoded to Unicode, if any.
    public var name: String?

    /// Makes a waypoint.
    public init(fix: GPSFix, name: String? = nil) {
        self.fix = fix
        self.name = name
    }
}

/// Everything a GPS reader found in one file: track points in file order and waypoints.
///
/// `fixes` are ordered by source position; their `segment` numbers rise from 0 without gaps in
/// the order segments appear (an empty GPX `<trkseg>` still takes a number, so
/// `segmentCount` can exceed the number of distinct segments in `fixes`).
public struct GPSTrack: Hashable, Sendable, Codable {
    /// Track and route points in source order.
    public var fixes: [GPSFix]
    /// Waypoints (GPX `<wpt>`), in source order.
    public var waypoints: [GPSWaypoint]
    /// How many segments the source declared (GPX `<trkseg>` + `<rte>`; NMEA always 1 when any fix).
    public var segmentCount: Int

    /// Makes a track.
    public init(fixes: [GPSFix] = [], waypoints: [GPSWaypoint] = [], segmentCount: Int = 0) {
        self.fixes = fixes
        self.waypoints = waypoints
        self.segmentCount = segmentCount
    }

    /// The fixes of one segment, in order.
    /// - Complexity: O(n) in the number of fixes.
    public func fixes(inSegment segment: Int) -> [GPSFix] {
        fixes.filter { $0.segment == segment }
    }
}

/// Why a reader rejected its input: where (file, 1-based line and column) and what was expected.
///
/// `description` reads `file:line:column: message`, the form the command line prints.
public struct ReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// A field that must be a number was not one (`field` names it, `found` is what was there).
        case badNumber(field: String, found: String)
        /// A number outside its valid range (latitude beyond ±90, longitude beyond ±180, …).
        case outOfRange(field: String, value: Double)
        /// A required field or attribute is missing.
        case missing(field: String)
        /// A timestamp that is not ISO 8601 / an epoch number.
        case badTime(found: String)
        /// An XML element opened and never closed.
        case unclosedTag(String)
        /// A closing tag that does not match the open element.
        case mismatchedTag(expected: String, found: String)
        /// Malformed syntax: `expected` says what should have been there.
        case syntax(expected: String)
        /// The input ended in the middle of a construct.
        case unexpectedEnd(expected: String)
        /// A compressed stream that could not be decompressed.
        case badCompression(String)
        /// A character encoding the reader does not know (declared in the XML prolog).
        case unsupportedEncoding(String)
        /// The file could not be read: `reason` says why (not found, a folder, permission, an
        /// I/O error in the system's words).
        case unreadable(reason: String)
        /// The content is none of the formats expected: `expected` names them, `found` describes
        /// the first bytes.
        case unrecognizedFormat(expected: String, found: String)
        /// A line, tag or text longer than the reader keeps in memory (`limit` bytes).
        case tooLong(what: String, limit: Int)
    }

    /// The file name (or other label) given to the reader, if any.
    public var file: String?
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in bytes.
    public var column: Int
    /// What went wrong.
    public var kind: Kind

    /// Makes an error.
    public init(file: String?, line: Int, column: Int, kind: Kind) {
        self.file = file
        self.line = line
        self.column = column
        self.kind = kind
    }

    /// `file:line:column: message`.
    public var description: String { "\(file ?? "<input>"):\(line):\(column): " + message }

    /// What went wrong and what was expected, without the location. Text from the input (what
    /// was found, tag names) is shown escaped and cut to a short excerpt.
    public var message: String {
        func x(_ s: String) -> String { InputExcerpt.excerpt(s) }
        let message: String
        switch kind {
        case .badNumber(let field, let found): message = "expected a number for \(field), found '\(x(found))'"
        case .outOfRange(let field, let value): message = "\(field) \(value) is out of range"
        case .missing(let field): message = "missing \(field)"
        case .badTime(let found): message = "expected an ISO 8601 time, found '\(x(found))'"
        case .unclosedTag(let name): message = "element <\(x(name))> is never closed"
        case .mismatchedTag(let expected, let found):
            message = "expected </\(x(expected))>, found </\(x(found))>"
        case .syntax(let expected): message = "expected \(expected)"
        case .unexpectedEnd(let expected): message = "unexpected end of input, expected \(expected)"
        case .badCompression(let why): message = "bad compressed data: \(why)"
        case .unsupportedEncoding(let name): message = "unsupported encoding '\(x(name))'"
        case .unreadable(let reason): message = "cannot read the file: \(reason)"
        case .unrecognizedFormat(let expected, let found): message = "expected \(expected), found \(found)"
        case .tooLong(let what, let limit): message = "\(what) is longer than \(limit) bytes"
        }
        return InputExcerpt.message(message)
    }
}
