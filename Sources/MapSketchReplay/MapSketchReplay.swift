// MapSketchReplay: the trace model and schema, readers (touch JSONL, Android getevent, GPX, NMEA,
// GeoJSON), synthetic generators, the replay engine, golden comparison and reports. It drives
// the map model only through its public API.
