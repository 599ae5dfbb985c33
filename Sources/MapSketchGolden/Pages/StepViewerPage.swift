import Foundation
import MapSketch
import MapSketchGeometry
package import MapSketchReplay

/// The step viewer of `mapsketch view`: one self-contained HTML page (no network, no external
/// script or font) that steps through a trace's events with a slider and the keyboard.
///
/// Step 0 is the map the header sets up; step N is the map after the trace's first N events (the
/// last step also after the timers due by the trace's end). Each step shows:
/// - the map as `mapsketch render --step N` draws it (viewport, layers, sketch, selection,
///   mid-vertices, the active snap target and guide) — the very same SVG text;
/// - over it, the fingers down after the event and, around each, the sketch's vertex hit-test
///   tolerance (half the vertex symbol plus `vertexHitTolerance`, in screen points);
/// - the event (its trace line) and the log entries that appeared while it was applied (a pan or a
///   pinch is one entry, written when it ends);
/// - at the end, where the trace has a golden beside it, expected against actual: the
///   comparison's differences and the expected, actual and overlay pictures of `check`.
///
/// A trace of more than ``maximumFrames`` events keeps the map of every k-th step (and the last),
/// and a step in between shows the frame before it, saying so. Deterministic: the same trace
/// gives the same page.
@MainActor
package struct StepViewerPage {
    /// The most map frames a page holds.
    package var maximumFrames = 2000

    /// A page generator.
    package init() {}

    /// The page for `trace`, named `name`; `golden` is the trace's golden case, compared at the
    /// end when its `expected.json` exists.
    /// - Throws: ``ReplayError`` when the header cannot be set up.
    /// - Complexity: O(n · m) for n events and a map of m drawn vertices (a frame per step).
    package func html(trace: Trace, name: String, golden: GoldenCase? = nil) throws(ReplayError) -> String {
        let session = try ReplaySession(trace: trace, name: name)
        let count = trace.events.count
        let every = max(1, (count + maximumFrames - 1) / maximumFrames)
        var frames: [String] = []
        var frameIndex: [String: Int] = [:]
        var steps: [JSONValue] = []
        var fingers: [Int: ScreenPoint] = [:]
        var logged = 0
        let radius = session.sketch.map { $0.symbology.vertexSymbol.markerSize / 2 + $0.symbology.vertexHitTolerance } ?? 0
        var lastFrame = 0
        for n in 0...count {
            var event: JSONValue = .null
            if n > 0 {
                let e = trace.events[n - 1]
                session.step()
                if n == count { session.finish() }
                event = .string(JSONWriter.string(TraceEncoder.encodeEvent(e)))
                if case .touch(let phase, let id, let p) = e.event {
                    fingers[id] = phase == .ended || phase == .cancelled ? nil : p
                }
            } else if count == 0 {
                session.finish()
            }
            if n % every == 0 || n == count {
                let svg = session.svg()
                if let i = frameIndex[svg] {
                    lastFrame = i
                } else {
                    frames.append(svg)
                    lastFrame = frames.count - 1
                    frameIndex[svg] = lastFrame
                }
            }
            let entries = session.logEntries
            let produced = entries[logged...].map { JSONValue.string(JSONWriter.string($0)) }
            logged = entries.count
            let down: [JSONValue] = fingers.keys.sorted().map { id in
                let p = fingers[id]!
                return [.integer(Int64(id)), .number(p.x), .number(p.y)]
            }
            var step: JSONObject = ["f": .integer(Int64(lastFrame)), "own": .bool(n % every == 0 || n == count)]
            step["t"] = n > 0 ? .number(trace.events[n - 1].t) : .number(0)
            step["event"] = event
            step["log"] = .array(Array(produced))
            step["fingers"] = .array(down)
            steps.append(.object(step))
        }
        var data: JSONObject = [
            "name": .string(name), "width": .number(trace.header.screen.width), "height": .number(trace.header.screen.height),
            "radius": .number(radius), "events": .integer(Int64(count)), "every": .integer(Int64(every)),
        ]
        data["frames"] = .array(frames.map { .string($0) })
        data["steps"] = .array(steps)
        let goldenHTML = golden.map { goldenSection($0, document: session.output().document, trace: trace, spatialReference: session.mapView.spatialReference) } ?? ""
        return PageTemplate.page(
            title: "mapsketch view — \(name)", style: Self.style,
            body: Self.body(name: name, description: trace.header.description, count: count) + goldenHTML,
            data: .object(data), script: Self.script)
    }

    /// Expected against actual at the end, or a line saying there is no golden.
    private func goldenSection(_ c: GoldenCase, document: JSONValue, trace: Trace, spatialReference: SpatialReference?) -> String {
        let esc = XMLEscaping.escape
        guard case .text(let text) = GoldenText.read(c.expected), let expected = try? JSONParser.parse(text) else {
            return "<section id=\"golden\"><h2>Golden</h2><p>No golden file (\(esc(c.expected.lastPathComponent))) beside the trace.</p></section>\n"
        }
        let tolerance = trace.header.expect.tolerance ?? .standard
        let comparison = GoldenComparison.compare(expected: expected, actual: document, tolerance: tolerance)
        var s = "<section id=\"golden\"><h2>At the end: expected (\(esc(c.expected.lastPathComponent))) against actual</h2>\n"
        if comparison.matches {
            s += "<p class=\"ok\" id=\"golden-verdict\">The replay matches its golden.</p>\n"
        } else {
            s += "<p class=\"bad\" id=\"golden-verdict\">The replay differs from its golden.</p>\n"
            s += "<pre>\(esc(GoldenComparison.report(file: c.expected.lastPathComponent, comparison.differences, total: comparison.total)))</pre>\n"
        }
        let input = GoldenOverlay.Input(
            name: c.name, expected: expected, actual: document, tolerance: tolerance, differingNumbers: comparison.differingNumbers,
            spatialReference: spatialReference)
        s += "<div class=\"pictures\">\n"
        for (caption, content) in [("expected", GoldenOverlay.Content.expected), ("actual", .actual), ("overlay", .overlay)] {
            let svg = GoldenOverlay.picture(input, content)
            s += "<figure><img alt=\"\(caption)\" src=\"data:image/svg+xml;base64,\(Data(svg.utf8).base64EncodedString())\"><figcaption>\(caption)</figcaption></figure>\n"
        }
        return s + "</div></section>\n"
    }

    static func body(name: String, description: String?, count: Int) -> String {
        let esc = XMLEscaping.escape
        var s = "<h1>\(esc(name))</h1>\n"
        if let description { s += "<p class=\"muted\">\(esc(description))</p>\n" }
        s += """
            <div class="controls">
            <button id="prev" title="previous event (←)">◀</button>
            <input id="slider" type="range" min="0" max="\(count)" value="0" aria-label="step">
            <button id="next" title="next event (→)">▶</button>
            <span id="label"></span>
            </div>
            <p class="muted">← → step, Page Up/Down ten steps, Home/End the first and last step.</p>
            <div class="row">
            <div id="map"><div id="frame"></div><svg id="overlay"></svg></div>
            <div class="panel"><h3>Event</h3><pre id="event"></pre><h3>Log entries it produced</h3><pre id="log"></pre></div>
            </div>

            """
        return s
    }

    static let style = """
        #map { position: relative; border: 1px solid #bbb; background: #fff; flex: 0 0 auto; }
        #frame, #overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
        #frame > svg { width: 100%; height: 100%; display: block; }
        .controls { display: flex; gap: 8px; align-items: center; }
        #slider { flex: 1 1 auto; max-width: 640px; }
        .row { display: flex; gap: 16px; align-items: flex-start; margin-top: 8px; }
        .panel { flex: 1 1 300px; min-width: 260px; }
        .ok { color: #1b7f3b; font-weight: bold; } .bad { color: #d62728; font-weight: bold; }
        .pictures { display: flex; flex-wrap: wrap; gap: 8px; }
        figure { margin: 0; flex: 1 1 30%; min-width: 240px; max-width: 480px; }
        figure img { width: 100%; height: auto; border: 1px solid #ccc; background: #fff; }
        figcaption { font-size: 12px; color: #555; text-align: center; }

        """

    static let script = """
        const D = JSON.parse(document.getElementById('data').textContent);
        const map = document.getElementById('map'), frame = document.getElementById('frame');
        const overlay = document.getElementById('overlay'), slider = document.getElementById('slider');
        let current = -1;
        function fit() {
          const room = Math.max(200, Math.min(window.innerWidth - 380, 900)), roomY = Math.max(200, window.innerHeight - 160);
          const k = Math.min(room / D.width, roomY / D.height);
          map.style.width = (D.width * k) + 'px'; map.style.height = (D.height * k) + 'px';
        }
        function show(n) {
          n = Math.max(0, Math.min(D.steps.length - 1, n));
          const s = D.steps[n];
          if (current < 0 || D.steps[current].f !== s.f) frame.innerHTML = D.frames[s.f];
          current = n; slider.value = n;
          let o = '';
          for (const [id, x, y] of s.fingers) {
            o += `<circle cx="${x}" cy="${y}" r="${D.radius}" fill="rgba(31,119,180,0.12)" stroke="#1f77b4" stroke-dasharray="4 3"/>`;
            o += `<circle cx="${x}" cy="${y}" r="4" fill="#1f77b4"/><text x="${x + 6}" y="${y - 6}" font-size="11" fill="#1f77b4">${id}</text>`;
          }
          overlay.setAttribute('viewBox', `0 0 ${D.width} ${D.height}`);
          overlay.innerHTML = o;
          const own = s.own ? '' : ` (map of step ${n - n % D.every}: every ${D.every}th step is drawn)`;
          document.getElementById('label').textContent = `step ${n} of ${D.events}` + (n > 0 ? `, t = ${s.t} s` : ', the header') + own;
          document.getElementById('event').textContent = s.event === null ? '(the map the header sets up)' : s.event;
          document.getElementById('log').textContent = s.log.length ? s.log.join('\\n') : '(none)';
          const g = document.getElementById('golden');
          if (g) g.classList.toggle('current', n === D.events);
        }
        slider.addEventListener('input', () => show(+slider.value));
        document.getElementById('prev').onclick = () => show(current - 1);
        document.getElementById('next').onclick = () => show(current + 1);
        document.addEventListener('keydown', e => {
          const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
          if (step !== undefined) { show(current + step); e.preventDefault(); }
          else if (e.key === 'Home') { show(0); e.preventDefault(); }
          else if (e.key === 'End') { show(D.events); e.preventDefault(); }
        });
        window.addEventListener('resize', fit);
        /** The step shown, for automation. */
        window.mapsketchStep = () => current;
        /** Shows step n. */
        window.mapsketchShow = n => { show(n); return current; };
        /** The SVG text of the map shown: `mapsketch render --step N`'s. */
        window.mapsketchFrameSVG = () => D.frames[D.steps[current].f];
        fit(); show(0);

        """
}
