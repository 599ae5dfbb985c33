import Foundation
import MapSketch
import MapSketchGeometry

extension Corpus {
    // MARK: demo/

    static func demo() -> [(String, Trace)] {
        let (_, base) = script("demo/demo", "Sketching a field boundary: four taps make a polygon, a mid-vertex insert, a drag of a corner, undo and redo, over a layer of points of interest", .polygon, configure: { h in
            h.options.showMagnifierOnTapAndHold = true
            h.layers = [graphicsLayer("pois", [poi(-120, 120, "Depot", "store", 3), poi(130, -20, "Well", "water", 7)], renderer: .simple(marker))]
        }) { s in
            s.tap(80, 80)
            s.tap(320, 80)
            s.tap(320, 320)
            s.tap(80, 320)
            s.tap(200, 320)  // mid-vertex of the bottom side
            s.tap(200, 370)  // insert there
            s.tap(320, 80)   // select the top-right corner
            s.holdDrag(from: (320, 80), to: (360, 40), steps: 8)
            s.call(.undo)
            s.call(.redo)
        }
        var trace = base
        trace.header.options.svgStep = nil
        return [("demo/demo", trace)]
    }
}
