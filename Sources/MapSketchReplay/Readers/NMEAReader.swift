// NMEA 0183 reader: a streaming byte scanner over a receiver log.

/// Reads GPS fixes from NMEA 0183 sentences (GGA, RMC, GLL, VTG, GSA, ZDA from any talker:
/// GP, GN, GL, GA, BD, GB, GQ…), one fix per epoch.
///
/// - Epochs: every sentence carrying a UTC time of day (GGA, RMC, GLL, ZDA) belongs to the epoch
///   of that time; sentences without time (VTG, GSA) belong to the current epoch. A fix is emitted
///   when the next epoch starts (or the input ends), merging what the epoch's sentences said:
///   position and altitude from GGA (else RMC, else GLL), date, speed and course from RMC/VTG,
///   HDOP from GGA or GSA, 2-D/3-D mode from GSA.
/// - Dates: RMC and ZDA carry the date; GGA/GLL times combine with the last known date, and the
///   date rolls forward by one day when the time of day wraps backwards by more than 12 hours
///   (midnight). Before any date is known fixes have `time == nil`. Two-digit RMC years map to
///   1980…2079; ZDA years must have four digits. By default the date is the receiver's; `Options.weekRolloverPivot` turns on
///   gpsd's GPS week-rollover correction (+1024 weeks) for receivers with that bug.
/// - No fix: GGA quality 0 and RMC/GLL status `V` carry no position; such sentences are counted in
///   `statistics.noFix` and an epoch with no valid position emits nothing.
/// - Checksums: a sentence whose `*hh` checksum does not match is skipped and counted in
///   `statistics.badChecksum` (not fatal); a sentence without a checksum is accepted and counted.
///   Lines that hold no `$` sentence (comments, binary receiver output) are counted and skipped,
///   and so are sentences cut off mid-way: fewer fields than their type needs, or a final line with
///   neither newline nor checksum (`statistics.truncated`).
/// - Errors: a sentence with a valid checksum but a malformed field (a latitude that is not a
///   number, minutes ≥ 60, a hemisphere that is not N/S) throws `ReaderError` with line:column.
///
/// ```swift
/// var reader = NMEAReader(bytes: Array(logData), file: "drive.nmea")
/// while let fix = try reader.next() { … }
/// print(reader.statistics.badChecksum)
/// ```
///
/// Format reference: NMEA 0183 v4.11 §6.3 (GGA, GLL, GSA, RMC, VTG, ZDA), as summarised in gpsd's
/// "NMEA 0183 Revealed" (Eric S. Raymond).
///
/// - Complexity: O(n) in the input bytes; no allocation per sentence or fix.
public struct NMEAReader {
    /// What the reader saw, by kind.
    public struct Statistics: Hashable, Sendable, Codable {
        /// Lines read.
        public var lines = 0
        /// Sentences accepted (checksum good or absent), of every type.
        public var sentences = 0
        /// Sentences skipped because their checksum did not match.
        public var badChecksum = 0
        /// Accepted sentences that had no checksum.
        public var withoutChecksum = 0
        /// GGA/RMC/GLL sentences that reported no fix (quality 0 or status V).
        public var noFix = 0
        /// Accepted sentences of types the reader does not use (GSV, proprietary `$P…`, …).
        public var unsupported = 0
        /// Lines without a sentence: blank, `#` comments, binary noise.
        public var ignoredLines = 0
        /// Sentences cut off mid-way (fewer fields than their type needs, or a last line without
        /// newline and checksum), skipped.
        public var truncated = 0
        /// Fixes emitted.
        public var fixes = 0

        /// All zero.
        public init() {}
    }

    /// The file name used in errors.
    public let file: String?
    /// How dates are interpreted (week-rollover correction).
    public let options: Options
    /// Counts so far (final once `next()` returned nil).
    public internal(set) var statistics = Statistics()

    private let bytes: [UInt8]
    private var offset = 0
    var lineNumber = 0
    var state = NMEAState()
    private var finished = false
    /// Whether lines take the one-pass scan and parsed fields are reused (false: the reference
    /// line-by-line path, kept for lines the scan does not cover and for differential tests).
    let fastPath: Bool
    /// The last time and date fields parsed and their values: a receiver repeats them in every
    /// sentence of an epoch (time) and of a day (date), and parsing is a pure function of the bytes.
    var lastTime = NMEAFieldCache<Double>()
    var lastDate = NMEAFieldCache<Int>()

    /// A reader over the bytes of an NMEA log; `file` labels errors.
    public init(bytes: [UInt8], file: String? = nil) {
        self.init(bytes: bytes, file: file, options: Options())
    }

    /// A reader over the bytes of an NMEA log with `options` (e.g. a week-rollover pivot).
    public init(bytes: [UInt8], file: String? = nil, options: Options) {
        self.init(bytes: bytes, file: file, options: options, fastPath: true)
    }

    /// A reader that takes the one-pass line scan and field reuse (`fastPath`) or only the
    /// reference line-by-line path (for tests comparing the two).
    init(bytes: [UInt8], file: String?, options: Options, fastPath: Bool) {
        self.bytes = bytes
        self.file = file
        self.options = options
        self.fastPath = fastPath
    }

    /// A reader over NMEA text.
    public init(text: String, file: String? = nil, options: Options = Options()) {
        self.init(bytes: Array(text.utf8), file: file, options: options)
    }

    /// The next fix, or nil at the end of the input.
    /// - Throws: `ReaderError` for a checksummed sentence with a malformed field.
    /// - Complexity: amortised O(bytes of the sentences up to the next fix).
    public mutating func next() throws -> GPSFix? {
        if finished { return nil }
        let storage = bytes
        // Where the line scan notes the commas of a sentence, so fields need no second scan.
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.commaTableCapacity) { table in
        try storage.withUnsafeBufferPointer { p -> GPSFix? in
            let n = p.count
            while offset < n {
                let start = offset
                lineNumber += 1
                statistics.lines += 1
                var fix: GPSFix?
                if fastPath, p[start] == ASCII.dollar {
                    // One pass over `$body*`: checksum and field count, stopping at '*' or LF.
                    var i = start + 1
                    var commas = 0
                    // Eight bytes at a time while no '*' or LF is among them (the loads stay
                    // inside the buffer: i + 8 <= n), then byte by byte up to the stop byte.
                    var words: UInt64 = 0
                    // The first `capacity` comma offsets go to `table` (little-endian loads: byte k
                    // of the word is bits 8k…8k+7, whatever the machine's byte order).
                    let capacity = table.count
                    if let base = p.baseAddress {
                        while i &+ 8 <= n {
                            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                            if SWAR.hasZeroByte(w ^ SWAR.stars) || SWAR.hasZeroByte(w ^ SWAR.newlines) { break }
                            words ^= w
                            var found = SWAR.zeroBytes(w ^ SWAR.commas)
                            while found != 0 {
                                if commas < capacity { table[commas] = i &+ found.trailingZeroBitCount &>> 3 }
                                commas &+= 1
                                found &= found &- 1
                            }
                            i &+= 8
                        }
                    }
                    var sum = SWAR.xorOfBytes(words)
                    while i < n {
                        let b = p[i]
                        if b == ASCII.star || b == ASCII.lf { break }
                        sum ^= b
                        if b == ASCII.comma {
                            if commas < capacity { table[commas] = i }
                            commas &+= 1
                        }
                        i += 1
                    }
                    let star = i
                    while i < n, p[i] != ASCII.lf { i += 1 }
                    let lineEnd = i
                    offset = lineEnd < n ? lineEnd + 1 : lineEnd
                    var end = lineEnd
                    while end > start, ASCII.isSpace(p[end - 1]) { end -= 1 }
                    if star < lineEnd, end == star + 3 {
                        // `$body*hh` then only whitespace: exactly the checksummed case of
                        // `sentence`, whose one pass this loop did.
                        guard let hi = Self.hexValue(p[end - 2]), let lo = Self.hexValue(p[end - 1]), sum == hi << 4 | lo
                        else {
                            statistics.badChecksum += 1
                            continue
                        }
                        let commaTable = commas <= capacity ? UnsafeBufferPointer(rebasing: table[0..<commas]) : nil
                        fix = try dispatch(p, lineStart: start, body: start + 1, bodyEnd: star, commas: commas, commaTable: commaTable)
                    } else {
                        fix = try sentence(p, start, lineEnd)
                    }
                } else {
                    var end = start
                    while end < n, p[end] != ASCII.lf { end += 1 }
                    offset = end < n ? end + 1 : end
                    fix = try sentence(p, start, end)
                }
                if let fix {
                    statistics.fixes += 1
                    return fix
                }
            }
            finished = true
            if let fix = state.finishEpoch() {
                statistics.fixes += 1
                return fix
            }
            return nil
        }
        }
    }

    /// The most comma offsets the line scan notes (GSA has 17 commas, GSV up to 19).
    static let commaTableCapacity = 32

    /// Reads every fix of an NMEA log (one segment); `options` default to the receiver's dates.
    /// - Throws: `ReaderError` as `next()`.
    /// - Complexity: O(n) in the input bytes.
    public static func readAll(
        bytes: [UInt8], file: String? = nil, options: Options = Options()
    ) throws -> (track: GPSTrack, statistics: Statistics) {
        var reader = NMEAReader(bytes: bytes, file: file, options: options)
        var fixes: [GPSFix] = []
        fixes.reserveCapacity(bytes.count / 150)
        while let fix = try reader.next() { fixes.append(fix) }
        return (GPSTrack(fixes: fixes, segmentCount: fixes.isEmpty ? 0 : 1), reader.statistics)
    }

    // MARK: - Lines

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    /// Handles one line; returns a fix when the line starts a new epoch after a valid one.
    mutating func sentence(_ p: UnsafeBufferPointer<UInt8>, _ lineStart: Int, _ lineEnd: Int) throws -> GPSFix? {
        var end = lineEnd
        while end > lineStart, ASCII.isSpace(p[end - 1]) { end -= 1 }
        var dollar = lineStart
        while dollar < end, p[dollar] != ASCII.dollar { dollar += 1 }
        guard dollar < end else {
            statistics.ignoredLines += 1
            return nil
        }
        // Checksum: '*' followed by two hex digits at the end of the sentence. One pass computes
        // it and counts the fields.
        var bodyEnd = end
        var commas = 0
        if end - dollar >= 4, p[end - 3] == ASCII.star {
            bodyEnd = end - 3
            guard let hi = Self.hexValue(p[end - 2]), let lo = Self.hexValue(p[end - 1]) else {
                statistics.badChecksum += 1
                return nil
            }
            var sum: UInt8 = 0
            for i in (dollar + 1)..<bodyEnd {
                let b = p[i]
                sum ^= b
                if b == ASCII.comma { commas += 1 }
            }
            guard sum == hi << 4 | lo else {
                statistics.badChecksum += 1
                return nil
            }
        } else {
            var star = dollar
            while star < end, p[star] != ASCII.star { star += 1 }
            if star < end {  // a '*' not followed by exactly two characters: damaged
                statistics.badChecksum += 1
                return nil
            }
            if lineEnd == p.count {  // last line, no newline, no checksum: a capture cut off mid-sentence
                statistics.truncated += 1
                return nil
            }
            statistics.withoutChecksum += 1
            for i in (dollar + 1)..<bodyEnd where p[i] == ASCII.comma { commas += 1 }
        }
        return try dispatch(p, lineStart: lineStart, body: dollar + 1, bodyEnd: bodyEnd, commas: commas)
    }
}
