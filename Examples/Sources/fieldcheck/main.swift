// BEGIN executable
// `fieldcheck check Traces`, `fieldcheck bench Traces`, `fieldcheck replay …`: the commands of
// `mapsketch`, with the team's rule installed in every replay.
import FieldRules
import MapSketchCommandLine

await MapSketchCommandLine.main { extensions in
    extensions = FieldRules.extensions
}
// END executable
