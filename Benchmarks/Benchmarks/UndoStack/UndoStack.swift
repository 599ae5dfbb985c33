import Benchmark

/// Filled in when the sketch editor (SketchEditor, undo and redo) lands on main.
let benchmarks: @Sendable () -> Void = {}
