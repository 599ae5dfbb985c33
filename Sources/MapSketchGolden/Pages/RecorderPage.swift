import Foundation
import MapSketch
import MapSketchGeometry
package import MapSketchReplay

/// The browser recorder of `mapsketch record`: one self-contained HTML page (no network, no
/// external script or font) where a person records touches on the map a trace's header
/// describes, and saves them as a trace that `mapsketch replay` reads.
///
/// The page shows the header's map — screen area, viewport, graphics layers and the sketch — as
/// the SVG render draws it, in the element with id `map`, scaled uniformly to fit the window.
/// It captures touch events (every finger, with its own id) and, on a laptop, mouse and pen
/// pointer events, each with the event's timestamp: a trace line per finger that went down,
/// moved, lifted or was cancelled, in screen points of the header's screen, times in seconds from
/// the first touch (to the microsecond, never decreasing), positions to the thousandth of a point.
///
/// Live feedback: each finger's trail, and a preview of the vertices the touches make, by the
/// map's own rules in a small script — a tap (down and up within the tap duration and the slop)
/// adds a vertex, or selects the vertex within the hit-test tolerance; a hold (still within the
/// slop for the hold duration) on the selected vertex, then a drag, moves it. Pans and pinches
/// show as trails and do not move the preview; the replay is what counts.
///
/// Saving: a button downloads `NAME.trace.jsonl` (the header's line, then the touches); for
/// automation `window.mapsketchTrace()` returns the same text.
@MainActor
package enum RecorderPage {
    /// The page for the map of `header` (its events, if any, are not part of it).
    /// - Throws: ``ReplayError`` when the header cannot be set up.
    /// - Complexity: O(n) in the header's geometries.
    package static func html(header: TraceHeader, fileName: String) throws(ReplayError) -> String {
        let session = try ReplaySession(trace: Trace(header: header), name: fileName)
        var vertices: [JSONValue] = []
        if let g = header.sketch?.geometry {
            for part in g.parts {
                vertices.append(.array(part.map { p in
                    let s = session.mapView.toScreen(p)
                    return [.number(s.x), .number(s.y)]
                }))
            }
        }
        var h = header
        h.version = max(h.version, h.minimumVersion)
        let thresholds = header.thresholds
        let sketchSymbology = session.sketch?.symbology ?? SketchSymbology()
        let data: JSONObject = [
            "header": .string(JSONWriter.string(TraceEncoder.encodeHeader(h))),
            "file": .string(fileName),
            "width": .number(header.screen.width), "height": .number(header.screen.height),
            "svg": .string(session.svg()),
            "tapDuration": .number(thresholds.tapDuration), "slop": .number(thresholds.slop),
            "holdDuration": .number(thresholds.holdDuration),
            "radius": .number(sketchSymbology.vertexSymbol.markerSize / 2 + sketchSymbology.vertexHitTolerance),
            "type": .string(header.sketch?.geometryType.rawValue ?? "none"),
            "vertices": .array(vertices),
        ]
        let title = header.name.map { "mapsketch record — \($0)" } ?? "mapsketch record"
        return PageTemplate.page(title: title, style: style, body: body(title: title), data: .object(data), script: script)
    }

    /// The header `mapsketch record` uses without a trace: a 400 × 400 pt screen at one map unit
    /// per point centred on the origin, with a new polygon sketch.
    package static var defaultHeader: TraceHeader {
        var h = TraceHeader()
        h.name = "recorded"
        h.description = "Touches recorded with mapsketch record"
        h.sketch = TraceSketchSetup(geometryType: .polygon)
        return h
    }

    static func body(title: String) -> String {
        """
        <h1>\(XMLEscaping.escape(title))</h1>
        <div class="controls">
        <button id="save">Save trace</button>
        <button id="clear">Clear</button>
        <span id="status" class="muted"></span>
        </div>
        <p class="muted">Touch or click the map. Taps add vertices, a hold on the selected vertex then a drag moves it; two fingers pinch. The preview follows taps and vertex drags only: the replay is what counts.</p>
        <div id="map"><div id="frame"></div><svg id="overlay"></svg></div>

        """
    }

    static let style = """
        #map { position: relative; border: 1px solid #bbb; background: #fff; touch-action: none; user-select: none; -webkit-user-select: none; margin-top: 8px; }
        #frame, #overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
        #frame > svg { width: 100%; height: 100%; display: block; }
        .controls { display: flex; gap: 8px; align-items: center; }

        """

    static let script = """
        const D = JSON.parse(document.getElementById('data').textContent);
        const map = document.getElementById('map'), overlay = document.getElementById('overlay');
        document.getElementById('frame').innerHTML = D.svg;
        overlay.setAttribute('viewBox', `0 0 ${D.width} ${D.height}`);
        let lines = [], t0 = null, lastT = 0, nextId = 0;
        const contacts = new Map();   // browser contact key -> {id, x, y, down, sx, sy, far, trail, holding, dragging}
        let parts = D.vertices.map(p => p.map(v => v.slice()));
        let selected = null;          // [part, index]
        function fit() {
          const k = Math.min((window.innerWidth - 34) / D.width, (window.innerHeight - 130) / D.height);
          map.style.width = (D.width * k) + 'px'; map.style.height = (D.height * k) + 'px';
        }
        const r3 = v => Math.round(v * 1000) / 1000;
        function point(e) {
          const b = map.getBoundingClientRect(), k = b.width / D.width;
          return [r3((e.clientX - b.left) / k), r3((e.clientY - b.top) / k)];
        }
        function time(stamp) {
          if (t0 === null) t0 = stamp;
          const t = Math.max(lastT, Math.round((stamp - t0) * 1000) / 1e6);
          lastT = t; return t;
        }
        function emit(t, phase, c) {
          lines.push(JSON.stringify({ t: t, type: 'touch', phase: phase, id: c.id, x: c.x, y: c.y }));
        }
        function hit(x, y) {
          let best = null, bd = D.radius;
          parts.forEach((p, pi) => p.forEach((v, vi) => {
            const d = Math.hypot(v[0] - x, v[1] - y);
            if (d <= bd) { bd = d; best = [pi, vi]; }
          }));
          return best;
        }
        function tap(x, y) {
          if (D.type === 'none') return;
          const h = hit(x, y);
          if (h) { selected = h; return; }
          if (D.type === 'point') { parts = [[[x, y]]]; selected = [0, 0]; return; }
          if (parts.length === 0) parts.push([]);
          const p = selected ? selected[0] : parts.length - 1;
          const i = selected ? selected[1] + 1 : parts[p].length;
          parts[p].splice(i, 0, [x, y]); selected = [p, i];
        }
        function down(key, e) {
          const [x, y] = point(e), t = time(e.timeStamp);
          const c = { id: nextId++, x, y, down: t, sx: x, sy: y, far: false, trail: [[x, y]], holding: false, dragging: false };
          contacts.set(key, c); emit(t, 'began', c);
          const many = contacts.size > 1;
          for (const o of contacts.values()) o.multi = o.multi || many;
        }
        function move(key, e) {
          const c = contacts.get(key); if (!c) return;
          const [x, y] = point(e), t = time(e.timeStamp);
          if (x === c.x && y === c.y) return;
          if (!c.far && !c.multi && !c.holding && t - c.down >= D.holdDuration) c.holding = true;
          c.x = x; c.y = y; c.trail.push([x, y]); emit(t, 'moved', c);
          if (Math.hypot(x - c.sx, y - c.sy) > D.slop) c.far = true;
          if (c.holding && !c.multi && selected) {
            const s = parts[selected[0]][selected[1]];
            if (c.dragging || Math.hypot(s[0] - c.sx, s[1] - c.sy) <= D.radius) { c.dragging = true; s[0] = x; s[1] = y; }
          }
        }
        function up(key, e, phase) {
          const c = contacts.get(key); if (!c) return;
          const [x, y] = point(e), t = time(e.timeStamp);
          c.x = x; c.y = y; emit(t, phase, c); contacts.delete(key);
          if (phase === 'ended' && !c.multi && !c.far && !c.holding && t - c.down <= D.tapDuration
              && Math.hypot(x - c.sx, y - c.sy) <= D.slop) tap(c.sx, c.sy);
          trails.push(c.trail); if (trails.length > 12) trails.shift();
        }
        const trails = [];
        function draw() {
          let o = '';
          const line = pts => pts.map(p => p.join(',')).join(' ');
          for (const tr of trails) o += `<polyline points="${line(tr)}" fill="none" stroke="#9ecae1" stroke-width="2"/>`;
          for (const c of contacts.values()) {
            o += `<polyline points="${line(c.trail)}" fill="none" stroke="#1f77b4" stroke-width="2"/>`;
            o += `<circle cx="${c.x}" cy="${c.y}" r="${D.radius}" fill="rgba(31,119,180,0.15)" stroke="#1f77b4"/>`;
          }
          parts.forEach((p, pi) => {
            if (p.length > 1 && D.type !== 'multipoint') o += `<${D.type === 'polygon' ? 'polygon' : 'polyline'} points="${line(p)}" fill="${D.type === 'polygon' ? 'rgba(255,127,14,0.15)' : 'none'}" stroke="#ff7f0e" stroke-width="2" stroke-dasharray="6 3"/>`;
            p.forEach((v, vi) => {
              const sel = selected && selected[0] === pi && selected[1] === vi;
              o += `<circle class="preview-vertex" cx="${v[0]}" cy="${v[1]}" r="${sel ? 7 : 5}" fill="${sel ? '#d62728' : '#ff7f0e'}" stroke="#fff"/>`;
            });
          });
          overlay.innerHTML = o;
          document.getElementById('status').textContent = `${lines.length} touch events recorded`;
        }
        // The map itself is every touch's target (the drawing under the finger is redrawn, and a
        // touch whose target left the page would lose its moves and its end).
        let usingTouch = false;
        function touches(e, kind) {
          usingTouch = true; e.preventDefault();
          for (const tc of e.changedTouches) {
            const key = 't' + tc.identifier;
            const ev = { clientX: tc.clientX, clientY: tc.clientY, timeStamp: e.timeStamp };
            if (kind === 'start') down(key, ev); else if (kind === 'move') move(key, ev); else up(key, ev, kind);
          }
          draw();
        }
        map.addEventListener('touchstart', e => touches(e, 'start'), { passive: false });
        map.addEventListener('touchmove', e => touches(e, 'move'), { passive: false });
        map.addEventListener('touchend', e => touches(e, 'ended'), { passive: false });
        map.addEventListener('touchcancel', e => touches(e, 'cancelled'), { passive: false });
        function pointer(e, kind) {
          if (e.pointerType === 'touch' || usingTouch) return;
          const key = 'p' + e.pointerId;
          if (kind === 'start') { map.setPointerCapture(e.pointerId); down(key, e); }
          else if (kind === 'move') { if (contacts.has(key)) move(key, e); }
          else up(key, e, kind);
          draw();
        }
        map.addEventListener('pointerdown', e => pointer(e, 'start'));
        map.addEventListener('pointermove', e => pointer(e, 'move'));
        map.addEventListener('pointerup', e => pointer(e, 'ended'));
        map.addEventListener('pointercancel', e => pointer(e, 'cancelled'));
        /** The recorded trace: the header's line, then one line per touch event. */
        window.mapsketchTrace = () => [D.header].concat(lines).join('\\n') + '\\n';
        document.getElementById('save').onclick = () => {
          const a = document.createElement('a');
          a.href = URL.createObjectURL(new Blob([window.mapsketchTrace()], { type: 'application/x-ndjson' }));
          a.download = D.file; document.body.appendChild(a); a.click(); a.remove();
        };
        document.getElementById('clear').onclick = () => {
          lines = []; t0 = null; lastT = 0; nextId = 0; contacts.clear(); trails.length = 0;
          parts = D.vertices.map(p => p.map(v => v.slice())); selected = null; draw();
        };
        window.addEventListener('resize', fit);
        fit(); draw();

        """
}
