public import MapSketchReplay

/// The `mapsketch` command line as a library: a team's own executable runs the same commands —
/// `check`, `bench`, `replay` and the others — with its own code installed in every replay
/// (``ReplayExtensions``), so its validation rules change what `check` compares and show in
/// `bench` as kinds `user.<name>`.
///
/// ```swift
/// // Sources/fieldcheck/main.swift
/// import MapSketchCommandLine
///
/// await MapSketchCommandLine.main { extensions in
///     extensions.validationRule("noSpikes") { proposal in nil }
/// }
/// ```
///
/// `fieldcheck bench Traces` then measures the registrations in its worker processes and, with
/// `--instrument callgrind`, in its callgrind server: both are this same executable, started with
/// the bench's own arguments, which ``main(configure:)`` recognises before anything else.
/// `mapsketch` itself is `main` with no registrations.
public enum MapSketchCommandLine {
    /// The registrations of the running command (set by ``main(configure:)`` for its task).
    @TaskLocal static var extensions = ReplayExtensions.none

    /// Runs the command line on the process's arguments with the registrations `configure` makes,
    /// and exits with the documented status (0 ok, 1 a check failed, 2 a usage or input error).
    /// `configure` runs once, before the arguments are read; it must register the same names in
    /// the same order on every run (the bench's worker processes run it again).
    @MainActor
    public static func main(configure: (inout ReplayExtensions) -> Void = { _ in }) async {
        var registrations = ReplayExtensions()
        configure(&registrations)
        await $extensions.withValue(registrations) {
            await MapSketchCommand.main()
        }
    }
}
