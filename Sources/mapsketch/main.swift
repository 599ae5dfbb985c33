import MapSketchCommandLine

// `mapsketch`: the command line with no registrations of a team's own.
await MapSketchCommandLine.main()
