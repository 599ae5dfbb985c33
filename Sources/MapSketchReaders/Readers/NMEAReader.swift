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
/// - Lines end at LF, CR or CR LF (Unix, classic Mac and Windows files read the same).
/// - Errors: a sentence with a valid checksum but a malformed field (a latitude that is not a
///   number, minutes ≥ 60, a hemisphere that is not N/S) throws `ReaderError` with line:column.
///   Input with text but not one NMEA sentence in it (no `$…*hh` line and no known sentence
///   type: random bytes, another format) throws `.unrecognizedFormat` at the end rather than
///   reading as zero fixes; a line longer than 1 MiB throws `.tooLong`.
/// - Streaming: over a ``ByteSource`` the reader holds one window of input (128 KiB, growing only
///   for a longer line), whatever the input's size.
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
    package struct Statistics: Hashable, Sendable, Codable {
        /// Lines read.
        package var lines = 0
        /// Sentences accepted (checksum good or absent), of every type.
        package var sentences = 0
        /// Sentences skipped because their checksum did not match.
        package var badChecksum = 0
        /// Accepted sentences that had no checksum.
        package var withoutChecksum = 0
        /// GGA/RMC/GLL sentences that reported no fix (quality 0 or status V).
        package var noFix = 0
        /// Accepted sentences of types the reader does not use (GSV, proprietary `$P…`, …).
        package var unsupported = 0
        /// Lines without a sentence: blank, `#` comments, binary noise.
        package var ignoredLines = 0
        /// Sentences cut off mid-way (fewer fields than their type needs, or a last line without
        /// newline and checksum), skipped.
        package var truncated = 0
        /// Fixes emitted.
        package var fixes = 0

        /// All zero.
        package init() {}
    }

    /// The file name used in errors.
    public let file: String?
    /// How dates are interpreted (week-rollover correction).
    public let options: Options
    /// Counts so far (final once `next()` returned nil).
    package internal(set) var statistics = Statistics()

    /// The longest line the reader holds (a sentence is at most 82 characters).
    package static let maximumLineLength = 1 << 20

    var input: InputBuffer
    /// The start of the next line in the input window.
    private var offset = 0
    /// Whether the last line ended with CR: an LF right after it belongs to that line end.
    private var afterCR = false
    /// Lines that looked like NMEA (a `*hh` checksum field, or a known sentence type), and lines
    /// of other text: with text and no NMEA at all, the input is not NMEA.
    var nmeaLines = 0
    var otherLines = 0
    var lineNumber = 0
    var state = NMEAState()
    private var finished = false
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
        self.init(
            input: InputEncoding.buffer(bytes: bytes, limit: Self.maximumLineLength, file: file), file: file,
            options: options)
    }

    /// A reader streaming from `source` (a file, standard input, a decoder), holding one window
    /// of it at a time; `file` labels errors.
    public init(source: any ByteSource, file: String? = nil, options: Options = Options()) {
        self.init(
            input: InputEncoding.buffer(source: source, limit: Self.maximumLineLength, file: file), file: file,
            options: options)
    }

    /// A reader over `input` (gzip and UTF-16 already decoded).
    init(input: InputBuffer, file: String?, options: Options) {
        self.input = input
        self.file = file
        self.options = options
    }


    /// A reader over NMEA text.
    public init(text: String, file: String? = nil, options: Options = Options()) {
        self.init(bytes: Array(text.utf8), file: file, options: options)
    }

    /// The next fix, or nil at the end of the input.
    /// - Throws: `ReaderError` for a checksummed sentence with a malformed field, input that holds
    ///   no NMEA, a line longer than ``maximumLineLength``, or input that cannot be read.
    /// - Complexity: amortised O(bytes of the sentences up to the next fix).
    public mutating func next() throws -> GPSFix? {
        while !finished {
            switch try scan() {
            case .fix(let fix): return fix
            case .needsInput:
                let keep = offset
                guard try input.refill(keepingFrom: keep) else {
                    throw ReaderError(
                        file: file, line: lineNumber + 1, column: 1, kind: .tooLong(what: "the line", limit: input.limit))
                }
                offset -= keep
                // Fields cached by byte range point into the bytes just dropped.
                lastTime = NMEAFieldCache()
                lastDate = NMEAFieldCache()
                state.epoch.ggaPosition = nil
            case .end:
                finished = true
                return try endOfInput()
            }
        }
        return nil
    }

    /// Ends the input: the fix of the last epoch, if valid.
    /// - Throws: `ReaderError` `.unrecognizedFormat` when lines of text held no NMEA at all.
    mutating func endOfInput() throws -> GPSFix? {
        if nmeaLines == 0, otherLines > 0 {
            throw ReaderError(
                file: file, line: 1, column: 1,
                kind: .unrecognizedFormat(
                    expected: "NMEA 0183 sentences ($GPGGA,…*hh)",
                    found: "no sentence in \(otherLines) line\(otherLines == 1 ? "" : "s") of text"))
        }
        guard let fix = state.finishEpoch() else { return nil }
        statistics.fixes += 1
        return fix
    }

    /// What one scan of the input window ended with.
    enum ScanResult {
        case fix(GPSFix)
        /// The next line runs past the window: refill and scan again from `offset`.
        case needsInput
        case end
    }

    /// Reads lines from `offset` until a fix, the end of the window or the end of the input.
    private mutating func scan() throws -> ScanResult {
        let storage = input
        let complete = input.atEnd
        // Where the line scan notes the commas of a sentence, so fields need no second scan.
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.commaTableCapacity) { table in
        try storage.withBytes { p -> ScanResult in
            let n = p.count
            if afterCR, offset < n {  // the LF of a CR LF split between two windows
                if p[offset] == ASCII.lf { offset += 1 }
                afterCR = false
            }
            while offset < n {
                let start = offset
                var fix: GPSFix?
                if p[start] == ASCII.dollar {
                    // One pass over `$body*`: checksum and field count, stopping at '*' or a line end.
                    var i = start + 1
                    var commas = 0
                    // Eight bytes at a time while no '*', LF or CR is among them (the loads stay
                    // inside the window: i + 8 <= n), then byte by byte up to the stop byte.
                    var words: UInt64 = 0
                    // The first `capacity` comma offsets go to `table` (little-endian loads: byte k
                    // of the word is bits 8k…8k+7, whatever the machine's byte order).
                    let capacity = table.count
                    if let base = p.baseAddress {
                        while i &+ 8 <= n {
                            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                            if SWAR.hasZeroByte(w ^ SWAR.stars) || SWAR.hasZeroByte(w ^ SWAR.newlines)
                                || SWAR.hasZeroByte(w ^ SWAR.carriageReturns)
                            {
                                break
                            }
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
                        if b == ASCII.star || b == ASCII.lf || b == ASCII.cr { break }
                        sum ^= b
                        if b == ASCII.comma {
                            if commas < capacity { table[commas] = i }
                            commas &+= 1
                        }
                        i += 1
                    }
                    let star = i
                    while i < n, p[i] != ASCII.lf, p[i] != ASCII.cr { i += 1 }
                    let lineEnd = i
                    guard lineEnd < n || complete else { return .needsInput }
                    consumeLineEnd(p, lineEnd)
                    var end = lineEnd
                    while end > start, ASCII.isSpace(p[end - 1]) { end -= 1 }
                    if star < lineEnd, end == star + 3 {
                        // `$body*hh` then only whitespace: exactly the checksummed case of
                        // `sentence`, whose one pass this loop did.
                        nmeaLines += 1
                        guard let hi = Self.hexValue(p[end - 2]), let lo = Self.hexValue(p[end - 1]), sum == hi << 4 | lo
                        else {
                            statistics.badChecksum += 1
                            continue
                        }
                        let commaTable = commas <= capacity ? UnsafeBufferPointer(rebasing: table[0..<commas]) : nil
                        fix = try dispatch(p, lineStart: start, body: start + 1, bodyEnd: star, commas: commas, commaTable: commaTable)
                    } else {
                        fix = try sentence(p, start, lineEnd, lastLine: lineEnd == n)
                    }
                } else {
                    var end = start
                    while end < n, p[end] != ASCII.lf, p[end] != ASCII.cr { end += 1 }
                    guard end < n || complete else { return .needsInput }
                    consumeLineEnd(p, end)
                    fix = try sentence(p, start, end, lastLine: end == n)
                }
                if let fix {
                    statistics.fixes += 1
                    return .fix(fix)
                }
            }
            return complete ? .end : .needsInput
        }
        }
    }

    /// Counts the line that ends at `lineEnd` (LF, CR, CR LF, or the end of the input) and moves
    /// `offset` past its line end.
    @inline(__always)
    private mutating func consumeLineEnd(_ p: UnsafeBufferPointer<UInt8>, _ lineEnd: Int) {
        lineNumber += 1
        statistics.lines += 1
        (offset, afterCR) = ByteScan.afterLineEnd(p, lineEnd)
    }

    /// The most comma offsets the line scan notes (GSA has 17 commas, GSV up to 19).
    static let commaTableCapacity = 32

    /// Reads every fix of an NMEA log (one segment); `options` default to the receiver's dates.
    /// - Throws: `ReaderError` as `next()`.
    /// - Complexity: O(n) in the input bytes.
    package static func readAll(
        bytes: [UInt8], file: String? = nil, options: Options = Options()
    ) throws -> (track: GPSTrack, statistics: Statistics) {
        var reader = NMEAReader(bytes: bytes, file: file, options: options)
        return try reader.readRemaining(expectedFixes: bytes.count / 150)
    }

    /// Reads the remaining fixes into a track (one segment), with the statistics.
    /// - Throws: `ReaderError` as `next()`.
    /// - Complexity: O(n) in the input bytes; memory O(fixes).
    package mutating func readRemaining(expectedFixes: Int = 0) throws -> (track: GPSTrack, statistics: Statistics) {
        var fixes: [GPSFix] = []
        fixes.reserveCapacity(expectedFixes)
        while let fix = try next() { fixes.append(fix) }
        return (GPSTrack(fixes: fixes, segmentCount: fixes.isEmpty ? 0 : 1), statistics)
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

    /// Handles one line (`lastLine`: the input ends with it, no line end); returns a fix when
    /// the line starts a new epoch after a valid one.
    mutating func sentence(_ p: UnsafeBufferPointer<UInt8>, _ lineStart: Int, _ lineEnd: Int, lastLine: Bool) throws -> GPSFix? {
        var end = lineEnd
        while end > lineStart, ASCII.isSpace(p[end - 1]) { end -= 1 }
        var dollar = lineStart
        while dollar < end, p[dollar] != ASCII.dollar { dollar += 1 }
        guard dollar < end else {
            statistics.ignoredLines += 1
            if end > lineStart, p[lineStart] != ASCII.hash { otherLines += 1 }  // text, not a # comment
            return nil
        }
        // Checksum: '*' followed by two hex digits at the end of the sentence. One pass computes
        // it and counts the fields.
        var bodyEnd = end
        var commas = 0
        if end - dollar >= 4, p[end - 3] == ASCII.star {
            bodyEnd = end - 3
            nmeaLines += 1
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
                otherLines += 1
                return nil
            }
            if lastLine {  // last line, no newline, no checksum: a capture cut off mid-sentence
                statistics.truncated += 1
                otherLines += 1
                return nil
            }
            statistics.withoutChecksum += 1
            for i in (dollar + 1)..<bodyEnd where p[i] == ASCII.comma { commas += 1 }
        }
        return try dispatch(p, lineStart: lineStart, body: dollar + 1, bodyEnd: bodyEnd, commas: commas, checksummed: bodyEnd < end)
    }
}
