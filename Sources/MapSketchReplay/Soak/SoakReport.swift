import Foundation

/// The process's resident memory.
package enum ResidentMemory {
    /// The resident set size in bytes (`VmRSS` of `/proc/self/status`), or nil where there is no
    /// such file (not Linux).
    package static func current() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return parse(status: text)
    }

    /// The `VmRSS:` line of a `/proc/PID/status` text, in bytes; nil when there is none.
    package static func parse(status text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, let kb = Int(fields[1]), fields[2] == "kB" else { return nil }
            return kb * 1024
        }
        return nil
    }
}

/// What a soak's memory samples say: the figures its summary prints, the CSV and the SVG plot.
package struct SoakReport: Sendable {
    /// The samples, oldest first.
    package var samples: [SoakSample]
    /// Samples before this many seconds are warm-up, left out of the steady state.
    package var warmUp: Double

    /// A report of `samples` with `warmUp` seconds of warm-up.
    package init(samples: [SoakSample], warmUp: Double) {
        self.samples = samples
        self.warmUp = warmUp
    }

    /// The steady-state samples that have a resident size: those at or after the warm-up.
    var steady: [(t: Double, rss: Double)] {
        samples.compactMap { s in s.seconds >= warmUp ? s.residentBytes.map { (s.seconds, Double($0)) } : nil }
    }

    /// The steady state's growth of resident memory in percent per 10 minutes: the least-squares
    /// slope over the samples after the warm-up, relative to their mean. Nil with fewer than three
    /// such samples or less than a minute of them.
    package var growthPercentPer10Minutes: Double? {
        let s = steady
        guard s.count >= 3, let first = s.first, let last = s.last, last.t - first.t >= 60 else { return nil }
        let n = Double(s.count)
        let mt = s.reduce(0) { $0 + $1.t } / n, mr = s.reduce(0) { $0 + $1.rss } / n
        var sxy = 0.0, sxx = 0.0
        for p in s {
            sxy += (p.t - mt) * (p.rss - mr)
            sxx += (p.t - mt) * (p.t - mt)
        }
        guard sxx > 0, mr > 0 else { return nil }
        return sxy / sxx * 600 / mr * 100
    }

    /// The largest resident size in the first and in the last 10 minutes of the steady state
    /// (or its first and last third when it is shorter than 20 minutes), in bytes.
    package var steadyPeaks: (first: Int, last: Int)? {
        let s = steady
        guard let t0 = s.first?.t, let t1 = s.last?.t, t1 > t0 else { return nil }
        let window = min(600, (t1 - t0) / 3)
        let a = s.filter { $0.t <= t0 + window }.map(\.rss).max() ?? 0
        let b = s.filter { $0.t >= t1 - window }.map(\.rss).max() ?? 0
        return (Int(a), Int(b))
    }

    /// The CSV: a header, then one line per sample (`seconds,operations,rss_mib,graphics,sketch_vertices,undo_steps`).
    package var csv: String {
        var out = Self.csvHeader + "\n"
        for s in samples { out += Self.csvLine(s) + "\n" }
        return out
    }

    /// The CSV's header line.
    package static let csvHeader = "seconds,operations,rss_mib,graphics,sketch_vertices,undo_steps"

    /// One CSV line for a sample (an empty field where the resident size is unknown).
    package static func csvLine(_ s: SoakSample) -> String {
        let rss = s.residentBytes.map { fixed(Double($0) / 1_048_576, 1) } ?? ""
        return "\(fixed(s.seconds, 1)),\(s.operations),\(rss),\(s.graphics),\(s.sketchVertices),\(s.undoSteps)"
    }

    /// An SVG line plot of resident memory (MiB) over time (minutes), the warm-up shaded.
    package var svg: String {
        let points = samples.compactMap { s in s.residentBytes.map { (x: s.seconds / 60, y: Double($0) / 1_048_576) } }
        let w = 720.0, h = 360.0, left = 70.0, right = 20.0, top = 30.0, bottom = 50.0
        let xmax = max(points.map(\.x).max() ?? 1, 1e-9)
        let ylo = 0.0, yhi = max((points.map(\.y).max() ?? 1) * 1.1, 1)
        func px(_ x: Double) -> Double { left + x / xmax * (w - left - right) }
        func py(_ y: Double) -> Double { h - bottom - (y - ylo) / (yhi - ylo) * (h - top - bottom) }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        let warm = min(warmUp / 60, xmax)
        if warm > 0 {
            out += "<rect x=\"\(fixed(left, 1))\" y=\"\(fixed(top, 1))\" width=\"\(fixed(px(warm) - left, 1))\" height=\"\(fixed(h - top - bottom, 1))\" fill=\"#eeeeee\"/>\n"
            out += "<text x=\"\(fixed(left + 4, 1))\" y=\"\(fixed(top + 14, 1))\" fill=\"#777777\">warm-up</text>\n"
        }
        for k in 0...4 {
            let y = ylo + (yhi - ylo) * Double(k) / 4
            out += "<line x1=\"\(fixed(left, 1))\" y1=\"\(fixed(py(y), 1))\" x2=\"\(fixed(w - right, 1))\" y2=\"\(fixed(py(y), 1))\" stroke=\"#dddddd\"/>\n"
            out += "<text x=\"\(fixed(left - 6, 1))\" y=\"\(fixed(py(y) + 4, 1))\" text-anchor=\"end\">\(fixed(y, 0))</text>\n"
        }
        for k in 0...4 {
            let x = xmax * Double(k) / 4
            out += "<text x=\"\(fixed(px(x), 1))\" y=\"\(fixed(h - bottom + 18, 1))\" text-anchor=\"middle\">\(fixed(x, 1))</text>\n"
        }
        out += "<line x1=\"\(fixed(left, 1))\" y1=\"\(fixed(h - bottom, 1))\" x2=\"\(fixed(w - right, 1))\" y2=\"\(fixed(h - bottom, 1))\" stroke=\"black\"/>\n"
        out += "<line x1=\"\(fixed(left, 1))\" y1=\"\(fixed(top, 1))\" x2=\"\(fixed(left, 1))\" y2=\"\(fixed(h - bottom, 1))\" stroke=\"black\"/>\n"
        out += "<text x=\"\(fixed((left + w - right) / 2, 1))\" y=\"\(fixed(h - 10, 1))\" text-anchor=\"middle\">minutes</text>\n"
        out += "<text x=\"16\" y=\"\(fixed((top + h - bottom) / 2, 1))\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(fixed((top + h - bottom) / 2, 1)))\">resident MiB</text>\n"
        var title = "mapsketch soak: resident memory"
        if let g = growthPercentPer10Minutes { title += ", steady state \(g >= 0 ? "+" : "")\(fixed(g, 2)) % per 10 min" }
        out += "<text x=\"\(fixed(left, 1))\" y=\"18\" font-weight=\"bold\">\(title)</text>\n"
        if !points.isEmpty {
            let path = points.map { "\(fixed(px($0.x), 1)),\(fixed(py($0.y), 1))" }.joined(separator: " ")
            out += "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"\(path)\"/>\n"
        }
        out += "</svg>\n"
        return out
    }
}

/// `v` with `decimals` digits after the point (no locale).
private func fixed(_ v: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", v) }
