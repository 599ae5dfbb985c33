// MapSketchReplay: the trace format, the replay engine and its output, GPS tracks into sketches,
// Android touch logs into traces, synthetic generators and the soak. It drives the map model only
// through its public API; the file readers are MapSketchReaders, the golden workflow MapSketchGolden.
