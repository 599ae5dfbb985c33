import Foundation
import MapSketchTestSupport
@testable import MapSketchReaders
import Testing

/// The NMEA reader's one-pass line scan and field reuse against a reference reading of every line
/// through its general line path: the same fixes, statistics and errors on real logs and on
/// seeded random, damaged logs; and the one-pass coordinate parse against the general one.
@Suite struct NMEAFastPathTests {
    /// Everything a read produces: the fixes up to the end or the first error, the error, the counts.
    struct Outcome: Equatable {
        var fixes: [GPSFix] = []
        var error: ReaderError?
        var statistics = NMEAReader.Statistics()
    }

    static func read(_ bytes: [UInt8], options: NMEAReader.Options = NMEAReader.Options()) -> Outcome {
        var reader = NMEAReader(bytes: bytes, file: "fuzz.nmea", options: options)
        var out = outcome { out in
            while let fix = try reader.next() { out.fixes.append(fix) }
        }
        out.statistics = reader.statistics
        return out
    }

    /// The reference reading: every line through the reader's general line path (`sentence`),
    /// with no field reused from an earlier line (the time, the date, a GGA's coordinates) — what
    /// the reader's one-pass line scan and field reuse must agree with. Coordinates take their
    /// one-pass parse on both sides: ``plainCoordinatesParseAsTheGeneralParser()`` checks it
    /// against the general parse.
    static func readReference(_ bytes: [UInt8], options: NMEAReader.Options = NMEAReader.Options()) -> Outcome {
        var reader = NMEAReader(bytes: bytes, file: "fuzz.nmea", options: options)
        let input = reader.input  // the whole input, decoded
        var out = outcome { out in
            try input.withBytes { p in
                var offset = 0
                while offset < p.count {
                    let start = offset
                    var end = start
                    while end < p.count, p[end] != 0x0A, p[end] != 0x0D { end += 1 }
                    reader.lineNumber += 1
                    reader.statistics.lines += 1
                    offset = ByteScan.afterLineEnd(p, end).0
                    reader.lastTime = NMEAFieldCache()
                    reader.lastDate = NMEAFieldCache()
                    reader.state.epoch.ggaPosition = nil
                    if let fix = try reader.sentence(p, start, end, lastLine: end == p.count) {
                        reader.statistics.fixes += 1
                        out.fixes.append(fix)
                    }
                }
            }
            if let fix = try reader.endOfInput() { out.fixes.append(fix) }
        }
        out.statistics = reader.statistics
        return out
    }

    /// The fixes `body` reads up to the end or the first error, and the error.
    static func outcome(_ body: (inout Outcome) throws -> Void) -> Outcome {
        var out = Outcome()
        do {
            try body(&out)
        } catch let e as ReaderError {
            out.error = e
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return out
    }

    /// The reader and the reference reading agree on `bytes`; returns the outcome.
    @discardableResult
    static func agree(_ bytes: [UInt8], options: NMEAReader.Options = NMEAReader.Options(), _ label: String) -> Outcome {
        let fast = read(bytes, options: options)
        let reference = readReference(bytes, options: options)
        #expect(fast == reference, "\(label)")
        return fast
    }

    @Test func wordHelpersMatchByteLoops() {
        var rng = SeededRandom(seed: 8)
        let special: [UInt8] = [0x2A, 0x2C, 0x0A, 0x2B, 0x2D, 0x29, 0x0B, 0x00, 0xFF, 0x80, 0xAA, 0xAC]
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in
                rng.int(in: 0...2) == 0 ? special[rng.int(in: 0...(special.count - 1))] : UInt8(rng.int(in: 0...255))
            }
            let word = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }  // bytes[0] lowest, as loaded
            #expect(SWAR.hasZeroByte(word ^ SWAR.stars) == bytes.contains(0x2A))
            #expect(SWAR.hasZeroByte(word ^ SWAR.newlines) == bytes.contains(0x0A))
            #expect(SWAR.zeroByteCount(word ^ SWAR.commas) == bytes.filter { $0 == 0x2C }.count)
            #expect(SWAR.xorOfBytes(word) == bytes.reduce(0, ^))
        }
    }

    /// The line and column of `offset` by the rule: LF, CR and CR LF each end one line.
    static func referencePosition(_ bytes: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        var i = 0
        while i < offset {
            if bytes[i] == 0x0D || (bytes[i] == 0x0A && (i == 0 || bytes[i - 1] != 0x0D)) { line += 1 }
            if bytes[i] == 0x0D || bytes[i] == 0x0A { lineStart = i + 1 }
            i += 1
        }
        return (line, offset - lineStart + 1)
    }

    @Test func lineCounterMatchesAByteCount() {
        var rng = SeededRandom(seed: 10)
        for _ in 0..<300 {
            let bytes = (0..<rng.int(in: 0...300)).map { _ -> UInt8 in
                switch rng.int(in: 0...7) {
                case 0: 0x0A
                case 1: 0x0D
                default: UInt8(rng.int(in: 0x20...0x7E))
                }
            }
            bytes.withUnsafeBufferPointer { p in
                var counter = LineCounter()
                var offset = 0
                for _ in 0..<20 {
                    offset = rng.int(in: 0...4) == 0 ? rng.int(in: 0...p.count) : min(p.count, offset + rng.int(in: 0...40))
                    let expected = Self.referencePosition(bytes, offset)
                    let got = counter.position(of: offset, in: p)
                    #expect(got.line == expected.line && got.column == expected.column, "offset \(offset)")
                }
            }
        }
    }

    @Test func lineCounterAnswersFromItsCheckpointWhenTheWindowMoves() {
        // A reader's window slides: the counter sees the bytes after `base` only, and answers any
        // offset from its last checkpoint on.
        var rng = SeededRandom(seed: 11)
        for _ in 0..<200 {
            let bytes = (0..<rng.int(in: 1...400)).map { _ -> UInt8 in
                [0x0A, 0x0D, 0x41, 0x42, 0x20][rng.int(in: 0...4)]
            }
            var counter = LineCounter()
            var base = 0
            while base < bytes.count {
                let window = Array(bytes[base...].prefix(rng.int(in: 1...64)))
                window.withUnsafeBufferPointer { p in
                    for _ in 0..<4 {
                        let offset = base + rng.int(in: 0...p.count)
                        let expected = Self.referencePosition(bytes, offset)
                        let got = counter.position(of: offset, in: p, base: base)
                        #expect(got.line == expected.line && got.column == expected.column, "offset \(offset) base \(base)")
                    }
                    let keep = base + rng.int(in: 1...p.count)  // the reader drops the bytes before it
                    counter.moveCheckpoint(to: keep, in: p, base: base)
                    base = keep
                }
            }
        }
    }

    @Test func sameBytesMatchesArrayEquality() {
        var rng = SeededRandom(seed: 21)
        let bytes = (0..<256).map { _ in UInt8(rng.int(in: 0x30...0x33)) }  // few symbols: many equal runs
        bytes.withUnsafeBufferPointer { p in
            for _ in 0..<20_000 {
                let n = rng.int(in: 0...20), m = rng.int(in: 0...1) == 0 ? n : rng.int(in: 0...20)
                let a = rng.int(in: 0...(256 - n)), b = rng.int(in: 0...(256 - m))
                #expect(ByteScan.sameBytes(p, a..<(a + n), b..<(b + m)) == (bytes[a..<(a + n)] == bytes[b..<(b + m)]))
            }
        }
    }

    @Test func plainDecimalsParseAsTheGeneralParser() {
        var rng = SeededRandom(seed: 1852)
        let alphabet = Array("0123456789.-+eE 0123456789..--00".utf8)
        var inputs: [String] = ["", ".", "-", "-.", "0", "-0", "0.", ".5", "5.", "-0.0", "00.000", "9007199254740991",
            "9007199254740992", "900719925474099.3", "123456789012345678", "1234567890123456789", "0.000000000000000001",
            "4546.12345", "01412.98765", "1e3", "12a4.5", "+3.5", "1.2.3", "--1", "300.0", "-17.25"]
        for _ in 0..<20_000 {
            let n = rng.int(in: 0...22)
            inputs.append(String(decoding: (0..<n).map { _ in alphabet[rng.int(in: 0...(alphabet.count - 1))] }, as: UTF8.self))
            let digits = rng.int(in: 0...12)
            let whole = rng.int(in: 0...99_999)
            let fraction = String(rng.int(in: 0...Int.max)).prefix(digits)
            inputs.append((rng.int(in: 0...3) == 0 ? "-" : "") + "\(whole)" + (digits == 0 ? "" : "." + fraction))
        }
        for text in inputs {
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBufferPointer { m in
                let p = UnsafeBufferPointer(m)
                let fast = ByteScan.double(p, 0, p.count)
                let general = ByteScan.generalDouble(p, 0, p.count)
                #expect(fast?.bitPattern == general?.bitPattern, "\(text): \(String(describing: fast)) vs \(String(describing: general))")
            }
        }
    }

    /// The one-pass coordinate parse gives the general parse's value, to the bit, wherever it gives
    /// one (it leaves every other field, including each one the general parse rejects, to it).
    @Test func plainCoordinatesParseAsTheGeneralParser() {
        var rng = SeededRandom(seed: 4807)
        var inputs: [(String, String, Bool)] = [
            ("4807.038", "N", true), ("01131.000", "E", false), ("9000.000", "S", true), ("18000", "W", false),
            ("9000.0001", "N", true), ("18000.0001", "E", false), ("4860.5", "N", true), ("4867.1", "N", true),
            ("4807.038", "X", true), ("4807.038", "NS", true), ("4807.038", "E", true), ("01131.0", "N", false),
            ("480.5", "N", true), ("48.5", "N", true), ("4807", "N", true), ("4807.", "N", true), (".5", "N", true),
            ("-4807.0", "N", true), ("48a7.0", "N", true), ("4807.0a", "N", true), ("4807.1.2", "N", true),
            ("123456789012345678.5", "N", true), ("1234567890123456789.5", "N", true),
            ("4807." + String(repeating: "9", count: 16), "N", true),
            ("4807." + String(repeating: "9", count: 17), "N", true),
            ("00000.00001", "W", false), ("0000000000000000.1", "S", true),
        ]
        let alphabet = Array("0123456789.-+eE 00112233445566778899..".utf8)
        for _ in 0..<20_000 {
            let latitude = rng.int(in: 0...1) == 0
            let valid = latitude ? ["N", "S"] : ["E", "W"]
            let any = ["N", "S", "E", "W", "X", "", "NN"]
            let hemisphere = rng.int(in: 0...3) > 0 ? valid[rng.int(in: 0...1)] : any[rng.int(in: 0...6)]
            if rng.int(in: 0...3) == 0 {
                let n = rng.int(in: 0...22)
                inputs.append(
                    (String(decoding: (0..<n).map { _ in alphabet[rng.int(in: 0...(alphabet.count - 1))] }, as: UTF8.self), hemisphere,
                        latitude))
            } else {
                let degrees = String(rng.int(in: 0...(latitude ? 95 : 185)))
                let minutes = String(rng.int(in: 0...65))
                let whole = String(repeating: "0", count: rng.int(in: 0...2)) + degrees + (minutes.count < 2 ? "0" : "") + minutes
                let fraction = String((0..<rng.int(in: 0...20)).map { _ in Character(String(rng.int(in: 0...9))) })
                inputs.append((whole + (rng.int(in: 0...9) == 0 ? "" : ".") + fraction, hemisphere, latitude))
            }
        }
        var taken = 0
        for (text, hemisphere, latitude) in inputs {
            let bytes = Array((text + "," + hemisphere).utf8)
            bytes.withUnsafeBufferPointer { p in
                let c = NMEAReader.SentenceContext(file: nil, line: 1, p: p, lineStart: 0)
                let field = 0..<text.utf8.count, h = (field.upperBound + 1)..<p.count
                guard let plain = c.plainCoordinate(field, h, latitude: latitude) else { return }
                taken += 1
                let general = try? c.parsedCoordinate(field, h, latitude: latitude)
                #expect(general?.bitPattern == plain.bitPattern, "\(text) \(hemisphere): \(plain) vs \(String(describing: general))")
            }
        }
        #expect(taken > 5_000, "the plain form is common: \(taken)")
    }

    @Test func realLogsAgree() throws {
        let logs = Fixtures.files(under: "Traces/real/nmea/gpsd", suffix: ".log")
        #expect(logs.count >= 5)
        let pivot = try NMEAReader.Options(weekRolloverPivot: 1_483_228_800)
        var fixes = 0
        for url in logs {
            let bytes = Array(try Fixtures.data("Traces/real/nmea/gpsd/" + url.lastPathComponent))
            fixes += Self.agree(bytes, url.lastPathComponent).fixes.count
            Self.agree(bytes, options: pivot, url.lastPathComponent + " with a pivot")
        }
        #expect(fixes > 500)
    }

    @Test func seededDamagedLogsAgree() {
        var rng = SeededRandom(seed: 2024)
        var fixes = 0
        var errors = 0
        var reused = 0
        for log in 0..<400 {
            var g = NMEALogFuzzer(rng: rng)
            let text = g.log(epochs: 1 + log % 30)
            rng = g.rng
            let outcome = Self.agree(Array(text.utf8), "log \(log):\n\(text)")
            fixes += outcome.fixes.count
            if outcome.error != nil { errors += 1 }
            reused += g.reusedCoordinates
        }
        // The generator reaches every path: fixes, errors, and RMCs repeating GGA coordinates.
        #expect(fixes > 1000 && errors > 10 && reused > 500, "fixes \(fixes), errors \(errors), reused \(reused)")
    }

    @Test func benchmarkShapedLogAgrees() {
        // GGA then RMC per second with the same time and coordinates, CRLF: the reuse path.
        var text = ""
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        for s in 0..<500 {
            let t = 86_000 + s  // across midnight
            let hms = two(t / 3600 % 24) + two(t / 60 % 60) + two(t % 60) + ".00"
            text += nmea("GPGGA,\(hms),4546.\(10_000 + s),N,01412.\(20_000 + s),E,1,09,0.9,300.0,M,47.0,M,,") + "\r\n"
            text += nmea("GPRMC,\(hms),A,4546.\(10_000 + s),N,01412.\(20_000 + s),E,2.5,87.3,010524,,,A") + "\r\n"
        }
        let outcome = Self.agree(Array(text.utf8), "benchmark-shaped")
        #expect(outcome.fixes.count > 1 && outcome.error == nil)
    }
}

/// Random NMEA logs: GGA, RMC, GLL, VTG, GSA and ZDA epochs with valid, empty and malformed
/// fields, then line damage (flipped bytes, lost or doubled checksums, stray whitespace, noise,
/// cut-off last lines).
struct NMEALogFuzzer {
    var rng: SeededRandom
    /// RMCs written with their epoch's GGA coordinates.
    private(set) var reusedCoordinates = 0
    /// Whether this log may hold malformed fields (which end the read with an error).
    private var malformed = false

    init(rng: SeededRandom) {
        self.rng = rng
        malformed = chance(0.3)
    }

    /// A rare event, only in logs that may be malformed.
    mutating func fault(_ p: Double) -> Bool { malformed && chance(p) }

    mutating func chance(_ p: Double) -> Bool { rng.double(in: 0...1) < p }

    mutating func digits(_ n: Int) -> String {
        String((0..<n).map { _ in Character(String(rng.int(in: 0...9))) })
    }

    mutating func time(_ second: Int) -> String {
        let s = ((second % 86_400) + 86_400) % 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var t = two(s / 3600) + two(s / 60 % 60) + two(s % 60)
        switch rng.int(in: 0...5) {
        case 0: break
        case 1: t += ".000"
        case 2: t += ".5"
        case 3: t = fault(0.1) ? t + ".0x" : chance(0.2) ? "" : t  // malformed or empty
        default: t += ".00"
        }
        return t
    }

    mutating func coordinate(latitude: Bool) -> (String, String) {
        let degrees = latitude ? rng.int(in: 0...89) : rng.int(in: 0...179)
        let d = String(degrees)
        var text = String(repeating: "0", count: (latitude ? 2 : 3) - d.count) + d + String(rng.int(in: 10...59)) + "." + digits(rng.int(in: 1...6))
        if chance(0.02) { text = "" }
        if fault(0.01) { text = "12a4.5" }
        if fault(0.01) { text = (latitude ? "4867" : "01167") + ".1" }  // minutes ≥ 60
        if fault(0.01) { text = (latitude ? "4860." : "01160.") + digits(rng.int(in: 0...3)) }  // 60 ≤ minutes < 61
        if fault(0.01) { text = (latitude ? "9000.0" : "18000.0") + digits(rng.int(in: 0...2)) + "1" }  // beyond ±90 / ±180
        if chance(0.01) { text = (latitude ? "4807." : "01131.") + digits(rng.int(in: 15...22)) }  // long: the general parser
        if chance(0.01) { text = latitude ? "9000.000" : "18000" }  // the limits themselves
        let h = latitude ? (chance(0.5) ? "N" : "S") : (chance(0.5) ? "E" : "W")
        return (text, fault(0.01) ? "X" : h)
    }

    mutating func number() -> String {
        switch rng.int(in: 0...9) {
        case 0: ""
        case 1: "1e3"
        case 2: "-0.5"
        default: digits(rng.int(in: 1...3)) + "." + digits(1)
        }
    }

    mutating func date() -> String {
        fault(0.03) ? "310299" : chance(0.03) ? "" : "0\(rng.int(in: 1...9))0\(rng.int(in: 1...9))\(digits(2))"
    }

    mutating func talker() -> String { ["GP", "GN", "GL", "GA", "BD"][rng.int(in: 0...4)] }

    mutating func epoch(_ second: Int) -> [String] {
        let hms = time(second)
        let (lat, ns) = coordinate(latitude: true)
        let (lon, ew) = coordinate(latitude: false)
        var out: [String] = []
        let gga = "\(talker())GGA,\(hms),\(lat),\(ns),\(lon),\(ew),\(rng.int(in: 0...8)),09,\(number()),\(number()),M,47.0,M,,"
        var rmcLat = (lat, ns), rmcLon = (lon, ew)
        if chance(0.2) {
            rmcLat = coordinate(latitude: true)
            rmcLon = coordinate(latitude: false)
        } else {
            reusedCoordinates += 1
        }
        let status = chance(0.9) ? "A" : "V"
        let mode = ["A", "D", "N", "", "R", "E"][rng.int(in: 0...5)]
        let rmcTime = chance(0.9) ? hms : time(second)
        let rmc = "\(talker())RMC,\(rmcTime),\(status),\(rmcLat.0),\(rmcLat.1),\(rmcLon.0),\(rmcLon.1),\(number()),\(number()),\(date()),,,\(mode)"
        if chance(0.8) { out.append(gga) }
        if chance(0.8) { out.insert(rmc, at: chance(0.3) ? 0 : out.count) }
        if chance(0.2) { out.append("\(talker())GLL,\(lat),\(ns),\(lon),\(ew),\(hms),A,A") }
        if chance(0.2) { out.append("\(talker())VTG,\(number()),T,,M,\(number()),N,1.0,K,A") }
        if chance(0.2) { out.append("GPGSA,A,\(rng.int(in: 1...3)),01,02,03,,,,,,,,,,2.0,\(number()),1.5") }
        if chance(0.05) { out.append("GPZDA,\(hms),0\(rng.int(in: 1...9)),0\(rng.int(in: 1...9)),20\(digits(2)),00,00") }
        if chance(0.05) { out.append("GPGSV,3,1,12,01,40,083,46") }
        if chance(0.03) { out.append(gga + String(repeating: ",", count: rng.int(in: 10...40))) }  // more commas than the scan notes
        if chance(0.03) { out.append("PGRME,15.0,M,45.0,M,25.0,M") }
        return out
    }

    /// A line with its checksum, then maybe damaged.
    mutating func line(_ body: String) -> String {
        var text = nmea(body)
        switch rng.int(in: 0...39) {
        case 0:  // a flipped byte, checksum not fixed
            var bytes = Array(text.utf8)
            bytes[rng.int(in: 1...(bytes.count - 1))] = UInt8(rng.int(in: 0x20...0x7E))
            text = String(decoding: bytes, as: UTF8.self)
        case 1: text = "$" + body  // no checksum
        case 2: text = "$" + body + "*"  // a star without digits
        case 3: text = "$" + body.replacingOccurrences(of: ",", with: "*", options: [], range: nil)
        case 4: text += "  \t"
        case 5: text = "   " + text  // leading spaces: the reference '$' search
        case 6: text = "#" + text
        case 7:  // cut off, checksummed (a malformed field when cut inside a number)
            if malformed { text = nmea(String(body.prefix(rng.int(in: 0...body.count)))) }
        case 8: text = "$" + String(body.prefix(rng.int(in: 0...body.count)))  // cut off, no checksum
        case 9: text = text.lowercased()  // lower-case hex digits (and a broken sentence type)
        case 10: text += "*00"  // a second checksum
        default: break
        }
        return text
    }

    mutating func log(epochs: Int) -> String {
        var second = rng.int(in: 0...86_399)
        var lines: [String] = []
        for _ in 0..<epochs {
            for body in epoch(second) { lines.append(line(body)) }
            if chance(0.05) { lines.append("") }
            if chance(0.02) { lines.append("garbage \u{1}\u{2}") }
            second += chance(0.05) ? -50_000 : rng.int(in: 0...2)
        }
        let separator = chance(0.5) ? "\r\n" : "\n"
        var text = lines.joined(separator: separator)
        if chance(0.7) { text += separator }
        return text
    }
}
