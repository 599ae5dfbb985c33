import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReaders

extension Corpus {
    // MARK: synthetic/ — seeded stress traces

    static func synthetic() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        for (seed, type, taps) in [(UInt64(1), GeometryType.polyline, 300), (2, .polygon, 300), (3, .multipoint, 200)] {
            var r = SplitMix64(seed: seed)
            var s = TraceScript(header: header("random-taps-\(type.rawValue)", "Stress: \(taps) seeded random taps (seed \(seed)) on a \(type.rawValue), every tenth followed by an undo", type))
            s.pause = 0.35
            for i in 0..<taps {
                s.tap(10 + r.nextUnit() * 380, 10 + r.nextUnit() * 380)
                if i % 10 == 9 { s.call(.undo) }
            }
            t.append(("synthetic/random-taps-\(type.rawValue)-seed\(seed)", s.trace))
        }
        do {
            var r = SplitMix64(seed: 4)
            var s = TraceScript(header: header("random-gestures", "Stress: 400 seeded random gestures (taps, holds, drags, pans, pinches, undo, redo; seed 4) on a polygon", .polygon, square))
            for _ in 0..<400 {
                let x = 20 + r.nextUnit() * 360
                let y = 20 + r.nextUnit() * 360
                switch Int(r.next() % 8) {
                case 0, 1, 2: s.tap(x, y)
                case 3: s.holdDrag(from: (x, y), to: (x + r.nextUnit() * 40 - 20, y + r.nextUnit() * 40 - 20), steps: 3)
                case 4: s.drag(from: (x, y), to: (x + r.nextUnit() * 60 - 30, y + r.nextUnit() * 60 - 30), steps: 3)
                case 5: s.pinch(center: (200, 200), from: 100, to: 80 + r.nextUnit() * 40, steps: 2)
                case 6: s.call(.undo)
                default: s.call(.redo)
                }
            }
            t.append(("synthetic/random-gestures-seed4", s.trace))
        }
        do {
            var r = SplitMix64(seed: 5)
            var h = gpsHeader("random-walk-gps", "Stress: a seeded 3,000-fix GPS random walk with noise, 2% duplicates and 1% drop-outs (seed 5)", .polyline, center: (46.05, 14.5), resolution: 2)
            h.gpsFilter.minimumDistance = 1
            var s = TraceScript(header: h)
            var lat = 46.05
            var lon = 14.5
            var time = 1_700_000_000.0
            var heading = 0.0
            var last: GPSFix?
            for _ in 0..<3000 {
                time += 1
                if Int(r.next() % 100) == 0 { time += 30 }  // drop-out
                if let l = last, Int(r.next() % 50) == 0 {
                    s.gps(l)
                    continue
                }
                heading += (r.nextUnit() - 0.5) * 0.6
                lat += cos(heading) * 0.00002 + (r.nextUnit() - 0.5) * 0.000004
                lon += sin(heading) * 0.00003 + (r.nextUnit() - 0.5) * 0.000006
                let f = fix((lat * 1e7).rounded() / 1e7, (lon * 1e7).rounded() / 1e7, time: time, accuracy: 3 + (r.nextUnit() * 40).rounded() / 10)
                s.gps(f)
                last = f
            }
            t.append(("synthetic/random-walk-gps-seed5", s.trace))
        }
        // The readers' seeded generators.
        let touches = TouchGenerator(screen: ScreenSize(width: 400, height: 400))
        for (kind, seed, type) in [(SyntheticGesture.tap, UInt64(11), GeometryType.polyline), (.hold, 12, .polygon), (.drag, 13, .polyline), (.pan, 14, .polygon), (.pinch, 15, .polyline)] {
            t.append(("synthetic/generated-\(kind.rawValue)s-seed\(seed)", TraceBuilder.touchTrace(
                touches.generate(kind, count: 40, seed: seed), name: "generated-\(kind.rawValue)s-seed\(seed)",
                description: "Generated: 40 \(kind.rawValue) gestures (TouchGenerator, seed \(seed)) on a \(type.rawValue) sketch", screen: touches.screen, geometryType: type)))
        }
        t.append(("synthetic/generated-walk-seed16", TraceBuilder.touchTrace(
            touches.randomWalk(count: 150, seed: 16), name: "generated-walk-seed16",
            description: "Generated: 150 mixed gestures (TouchGenerator random walk, seed 16) on a polygon sketch", screen: touches.screen, geometryType: .polygon)))
        do {
            var g = GPSTrackGenerator(latitude: 46.05, longitude: 14.5)
            g.noise = 3
            g.dropoutProbability = 0.01
            let fixes = g.generate(count: 2000, seed: 17)
            var filter = TraceHeader.defaultGPSFilter
            filter.minimumDistance = 2
            t.append(("synthetic/generated-gps-seed17", TraceBuilder.gpsTrace(
                GPSTrack(fixes: fixes, segmentCount: 1), name: "generated-gps-seed17",
                description: "Generated: a 2,000-step GPS track with 3 m noise and 1% drop-outs (GPSTrackGenerator, seed 17), minDistance 2 m", filter: filter)))
            var a = TraceBuilder.gpsTrace(
                GPSTrack(fixes: GPSTrackGenerator.antimeridianCrossing().generate(count: 60, seed: 18), segmentCount: 1), name: "generated-antimeridian-seed18",
                description: "Generated: an eastbound track crossing the antimeridian at 65°N (GPSTrackGenerator.antimeridianCrossing, seed 18) on a wrapping map")
            a.header.options.wrapAround = true
            t.append(("gps/generated-antimeridian-seed18", a))
        }
        do {
            var s = TraceScript(header: header("undo-churn", "Stress: 500 programmatic inserts then 500 undos then 250 redos", .polyline))
            s.pause = 0.01
            s.call(.addPart)
            for i in 0..<500 { s.call(.insertVertex(part: 0, index: i, point: Point(Double(i % 50) * 4 - 100, Double(i / 50) * 10 - 50))) }
            for _ in 0..<500 { s.call(.undo) }
            for _ in 0..<250 { s.call(.redo) }
            t.append(("synthetic/undo-churn", s.trace))
        }
        return t
    }
}
