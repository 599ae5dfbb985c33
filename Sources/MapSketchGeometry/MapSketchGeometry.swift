// MapSketchGeometry: geometry value types, builders, spatial references, codecs, the geometry
// engine and spatial indexes. It knows nothing of maps.
