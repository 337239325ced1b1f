import DBus
/// `quickactions completion bash|zsh|fish`: prints a completion script.
struct CompletionCommand: CLICommand {
    /// The shells a script can be printed for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static let spec = CommandSpec(
        name: "completion", abstract: "Print a shell completion script.",
        discussion: """
            The script completes commands, options, app ids and item types; the last two are
            asked from the broker (through the hidden '__complete' command) on the bus the
            command line being completed names.
            """,
        arguments: [
            ArgumentSpec("shell", help: "bash, zsh or fish.", completion: .choices(Shell.allCases.map(\.rawValue)))
        ],
        examples: [
            Example("source <(quickactions completion bash)", "Complete in the current bash."),
            Example(
                "quickactions completion bash > ~/.local/share/bash-completion/completions/quickactions",
                "Install for bash."),
            Example("quickactions completion zsh > \"${fpath[1]}/_quickactions\"", "Install for zsh."),
            Example("quickactions completion fish > ~/.config/fish/completions/quickactions.fish", "Install for fish."),
        ])

    let shell: Shell

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        let name = arguments.positionals[0]
        guard let shell = Shell(rawValue: name) else {
            throw UsageError("unknown shell \(name.quoted(mark: "'")): choose bash, zsh or fish")
        }
        self.shell = shell
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        context.console.write(Self.script(for: shell))
        return .success
    }

    /// The script for `shell`, generated from the command specs.
    static func script(for shell: Shell) -> String {
        let model = CompletionModel(
            toolName: QuickActionsCLI.toolName,
            commands: QuickActionsCLI.commandSpecs.filter { !$0.isHidden } + [CompletionModel.helpSpec])
        return switch shell {
        case .bash: BashCompletion.script(model)
        case .zsh: ZshCompletion.script(model)
        case .fish: FishCompletion.script(model)
        }
    }
}
