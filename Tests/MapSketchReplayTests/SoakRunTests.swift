import MapSketch
import MapSketchGeometry
import MapSketchReplay
import Testing

/// The soak engine (`mapsketch soak`): every kind of operation runs, the graphics count stays
/// within a batch of its target, a seed fixes the run, a timed run samples on its interval, and
/// the report's growth, CSV and plot say what the samples say.
@MainActor
@Suite struct SoakRunTests {
    @Test func aSoakDoesEveryKindOfOperationAndKeepsItsGraphics() throws {
        let soak = try SoakRun(SoakSettings(seed: 3, graphics: 3_000, batch: 64, fullCheckEvery: 1))
        #expect(soak.layer.count == 3_000)
        soak.run(operations: 2_500)
        let t = soak.tally
        #expect(t.operations == 2_500)
        for op in SoakOperation.allCases { #expect((t.byKind[op] ?? 0) > 0, "no \(op.rawValue) operation ran") }
        #expect(t.graphicsAdded > 0 && t.graphicsRemoved > 0)
        #expect(abs(soak.layer.count - 3_000) <= 64)
        #expect(soak.layer.count == 3_000 + t.graphicsAdded - t.graphicsRemoved)
        #expect(soak.sketch.geometryChangeCount > 100)
        #expect(t.refused < t.operations / 4)
        #expect(t.fullChecks == 2)
    }

    @Test func theSameSeedGivesTheSameRun() throws {
        func model(_ seed: UInt64) throws -> (Geometry, [GraphicID], SoakTally) {
            let soak = try SoakRun(SoakSettings(seed: seed, graphics: 500, batch: 32))
            soak.run(operations: 800)
            return (soak.sketch.geometry, soak.layer.graphicIDs, soak.tally)
        }
        let a = try model(11), b = try model(11), c = try model(12)
        #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2)
        #expect(a.0 != c.0 || a.1 != c.1)
    }

    /// A stand-in clock that moves 0.25 s per reading: the run samples at 0, 1, 2 and 3 s and once
    /// more at its end, and checks the model in full every `fullCheckEvery` seconds.
    @Test func aTimedRunSamplesOnItsInterval() throws {
        final class Ticks { var t = 0.0 }
        let ticks = Ticks()
        let clock = SoakClock { ticks.t += 0.25; return ticks.t }
        let soak = try SoakRun(SoakSettings(seed: 1, graphics: 200, batch: 8, fullCheckEvery: 1.5))
        var heard: [SoakSample] = []
        soak.run(seconds: 3.2, sampleEvery: 1, clock: clock) { heard.append($0) }
        #expect(heard == soak.samples)
        #expect(heard.map(\.seconds) == [0.25, 1.0, 2.0, 3.0, 3.25])
        #expect(heard.map(\.operations) == [0, 192, 448, 704, 768])
        #expect(heard.allSatisfy { $0.graphics >= 192 && $0.graphics <= 208 })
        #expect(soak.tally.fullChecks == 3)  // at setup, after 1.5 s and after 3 s
        #if os(Linux)
        #expect(heard.allSatisfy { ($0.residentBytes ?? 0) > 1_000_000 })
        #endif
    }

    @Test func residentMemoryIsReadFromTheStatusFile() {
        #expect(ResidentMemory.parse(status: "Name:\tx\nVmPeak:\t  9 kB\nVmRSS:\t  123456 kB\nThreads: 1\n") == 123_456 * 1024)
        #expect(ResidentMemory.parse(status: "Name:\tx\n") == nil)
        #expect(ResidentMemory.parse(status: "VmRSS: lots\n") == nil)
    }

    static func samples(_ rss: (Double) -> Double, minutes: Double) -> [SoakSample] {
        stride(from: 0.0, through: minutes * 60, by: 10).map {
            SoakSample(seconds: $0, operations: Int($0) * 100, residentBytes: Int(rss($0)), graphics: 1_000, sketchVertices: 5, undoSteps: 2)
        }
    }

    @Test func growthIsTheSteadyStateSlopePerTenMinutes() throws {
        let mib = 1_048_576.0
        // A ramp from 0 to 400 MiB during a 5-minute warm-up, then 2 MiB per 10 minutes on 400 MiB.
        let ramp = SoakReport(samples: Self.samples({ $0 < 300 ? $0 / 300 * 400 * mib : 400 * mib + ($0 - 300) / 600 * 2 * mib }, minutes: 30), warmUp: 300)
        let g = try #require(ramp.growthPercentPer10Minutes)
        #expect(abs(g - 2.0 / 402.5 * 100) < 0.01)
        let flat = SoakReport(samples: Self.samples({ $0 < 300 ? $0 * mib : 300 * mib + ($0.truncatingRemainder(dividingBy: 60) < 30 ? 0 : mib) }, minutes: 30), warmUp: 300)
        #expect(abs(try #require(flat.growthPercentPer10Minutes)) < 0.05)
        let peaks = try #require(flat.steadyPeaks)
        #expect(peaks.first == peaks.last && peaks.first == Int(301 * mib))
        // Too short after the warm-up: no figure.
        #expect(SoakReport(samples: Self.samples({ _ in mib }, minutes: 5.5), warmUp: 300).growthPercentPer10Minutes == nil)
    }

    @Test func theCSVAndThePlotHoldEverySample() {
        let report = SoakReport(samples: Self.samples({ 100 * 1_048_576 + $0 * 1_000 }, minutes: 2), warmUp: 30)
        let lines = report.csv.split(separator: "\n")
        #expect(lines.count == 14)
        #expect(lines[0] == "seconds,operations,rss_mib,graphics,sketch_vertices,undo_steps")
        #expect(lines[1] == "0.0,0,100.0,1000,5,2")
        #expect(lines[13] == "120.0,12000,100.1,1000,5,2")
        let svg = report.svg
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let points = svg.split(separator: "points=\"")[1].split(separator: "\"")[0].split(separator: " ")
        #expect(points.count == 13)
        #expect(svg.contains("warm-up") && svg.contains("% per 10 min"))
    }
}
