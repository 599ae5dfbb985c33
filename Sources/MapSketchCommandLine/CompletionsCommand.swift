import ArgumentParser

/// The shells `mapsketch completions` writes a script for.
enum CompletionShellName: String, ExpressibleByArgument, CaseIterable {
    case bash, zsh, fish

    var shell: CompletionShell {
        switch self {
        case .bash: .bash
        case .zsh: .zsh
        case .fish: .fish
        }
    }
}

struct CompletionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            bash: mapsketch completions bash > /etc/bash_completion.d/mapsketch (or source it from ~/.bashrc); \
            zsh: mapsketch completions zsh > "${fpath[1]}/_mapsketch"; \
            fish: mapsketch completions fish > ~/.config/fish/completions/mapsketch.fish.
            """)

    @Argument(help: "The shell: bash, zsh or fish.")
    var shell: CompletionShellName

    func run() throws {
        print(MapSketchCommand.completionScript(for: shell.shell))
    }
}
