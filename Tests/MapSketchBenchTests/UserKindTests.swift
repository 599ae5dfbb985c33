import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchBench
import MapSketchReplay
import MapSketchTestSupport
import Testing

/// A team's own code (``ReplayExtensions``) in the measured loop: each registration is its own
/// kind, `user.<name>`, counted once per call, nested where the model calls it, reported after
/// the built-in kinds, and read from callgrind's profiles by its marker.
@MainActor
@Suite struct UserKindTests {
    /// Measures corpus trace `name` with `extensions`, every operation timed.
    func measure(_ name: String, _ extensions: ReplayExtensions, runs: Int = 2) throws -> BenchTraceResult {
        let (_, trace, text) = try BenchFixtures.load(name)
        let runner = BenchRunner(options: BenchOptions(warmup: 0, runs: runs, timing: .everyOperation), extensions: extensions)
        return try runner.measure(trace, name: name, file: name, text: text)
    }

    @Test func aValidationRuleIsItsOwnKindCalledOncePerValidatedEditInsideValidation() throws {
        var extensions = ReplayExtensions()
        extensions.validationRule("acceptAll") { _ in nil }
        let r = try measure("programmatic/insert-vertex", extensions)
        let rule = try #require(r.kind(BenchKind(named: "user.acceptAll")))
        let validation = try #require(r.kind(.validation))
        // addPart and three inserts: four validated edits, each calling the rule once.
        #expect(rule.count == 4)
        #expect(rule.count == validation.count)
        #expect(rule.runs.count == 2)
        #expect(rule.kind.isUserKind && !validation.kind.isUserKind)
        // Nested: every call runs inside its edit's validation, so it takes less time in total.
        for (u, v) in zip(rule.runs, validation.runs) {
            #expect(u.mean * Double(u.count) < v.mean * Double(v.count))
        }
        // Without the rule there is no user kind and, with no rule at all, no validation.
        let plain = try measure("programmatic/insert-vertex", .none)
        #expect(plain.kinds.map(\.kind) == r.kinds.map(\.kind).filter { !$0.isUserKind && $0 != .validation })
    }

    @Test func aMapEventObserverAndATouchToolAreEachTheirOwnKind() throws {
        var extensions = ReplayExtensions()
        extensions.mapEventObserver("events") { _ in }
        extensions.touchTool("tool") { _, _ in PassiveTool() }
        let r = try measure("demo/demo", extensions)
        #expect(try #require(r.kind(BenchKind(named: "user.events"))).count > 0)
        // The tool is handed the demo's taps and drags (it handles none of them).
        #expect(try #require(r.kind(BenchKind(named: "user.tool"))).count > 0)
        // Reported after the built-in kinds, in registration order.
        let names = r.kinds.map(\.kind.name)
        #expect(Array(names.suffix(2)) == ["user.events", "user.tool"])
        #expect(names.dropLast(2).allSatisfy { !$0.hasPrefix("user.") })
    }

    @Test func aGeometryObserverIsCalledOncePerChange() throws {
        let (_, trace, _) = try BenchFixtures.load("programmatic/insert-vertex")
        var extensions = ReplayExtensions()
        extensions.geometryObserver("changes") { _, _ in }
        let r = try measure("programmatic/insert-vertex", extensions)
        let changes = try #require(Replayer.replay(trace, name: "t", file: "t").sketch).geometryChangeCount
        #expect(r.kind(BenchKind(named: "user.changes"))?.count == changes)
    }

    @Test func anyCodeRegisteredWithRegisterIsMeasuredThroughItsContext() throws {
        // A team's own renderer: on each change it draws the sketch (here, its WKT), as its kind.
        var extensions = ReplayExtensions()
        extensions.register("renderer") { context in
            #expect(context.kindName == "user.renderer")
            guard let sketch = context.sketch else { return }
            sketch.onGeometryChanged { [weak sketch] _ in
                context.measure { _ = sketch.map { WKT.encode($0.geometry) } }
            }
        }
        let (_, trace, _) = try BenchFixtures.load("programmatic/insert-vertex")
        let changes = try #require(Replayer.replay(trace, name: "t", file: "t").sketch).geometryChangeCount
        let r = try measure("programmatic/insert-vertex", extensions)
        #expect(r.kind(BenchKind(named: "user.renderer"))?.count == changes)
    }

    @Test func measuringWithExtensionsChangesNothingInTheOutput() throws {
        let (_, trace, text) = try BenchFixtures.load("programmatic/insert-vertex")
        var extensions = ReplayExtensions()
        extensions.validationRule("atMostTwo") { $0.after.vertexCount > 2 ? "at most 2 vertices" : nil }
        let plain = try ReplaySession(trace: trace, name: "t", extensions: extensions)
        plain.run()
        let runner = BenchRunner(options: BenchOptions(warmup: 0, runs: 1), extensions: extensions)
        let benched = try runner.measureKeepingOutput(trace, name: "t", file: "t", text: text).output
        #expect(benched.document == plain.output().document)
        #expect(JSONWriter.string(benched.document).contains("atMostTwo: at most 2 vertices"))
    }

    @Test func callgrindProfilesAttributeAUserMarkerToItsKind() {
        let user = BenchKind.builtIn.count
        let profile = """
            fn=\(BenchRegion.kindSymbol)\(user)
            0 100
            calls=1 0
            0 50
            fn=\(BenchRegion.kindSymbol)\(user + 1)
            0 7
            fn=\(BenchRegion.kindSymbol)\(BenchKind.undo.order)
            0 30
            totals: 1000
            """
        let run = Callgrind.parse(profile, userKinds: ["user.rule"])
        #expect(run.total == 1000)
        #expect(run.kinds[BenchKind(named: "user.rule")] == 150)
        #expect(run.kinds[.undo] == 30)
        // A marker past the executable's registrations names no kind.
        #expect(run.kinds.count == 2)
        // Without the names, user markers are not counted.
        #expect(Callgrind.parse(profile).kinds[BenchKind(named: "user.rule")] == nil)
    }

    @Test func theUserKindsAreNamedAfterTheRegistrations() {
        var extensions = ReplayExtensions()
        extensions.validationRule("a.rule-1") { _ in nil }
        extensions.geometryObserver("b_observer") { _, _ in }
        #expect(extensions.names == ["a.rule-1", "b_observer"])
        #expect(extensions.kindNames == ["user.a.rule-1", "user.b_observer"])
        #expect(BenchKind.userKinds(of: extensions).map(\.name) == extensions.kindNames)
        #expect(BenchKind.userKinds(of: extensions).allSatisfy { $0 > BenchKind.builtIn.last! })
        #expect(ReplayExtensions.none.isEmpty)
    }
}

/// A touch tool that handles nothing: the map keeps panning and showing callouts.
@MainActor
private final class PassiveTool: MapTouchDelegate {}
