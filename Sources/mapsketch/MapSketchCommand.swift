import ArgumentParser

@main
struct MapSketchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mapsketch",
        abstract: "Replay touch and GPS traces into a headless map and sketch model, and check the output geometry.",
        subcommands: [GeometryCommand.self]
    )

    mutating func run() async throws {
        print("mapsketch: the demo trace is not bundled yet")
    }
}
