/// How a `Terminal=true` entry's command runs: inside the user's terminal. The first found of
/// `xdg-terminal-exec` (the proposed XDG default-terminal launcher), Debian's alternative
/// `x-terminal-emulator -e`, then the common terminals, each with the option after which it
/// runs a command line given as separate arguments.
public enum TerminalCommand {
    /// The terminals tried, in order, each with its arguments before the command.
    public static let candidates: [(program: String, arguments: [String])] = [
        ("xdg-terminal-exec", []),
        ("x-terminal-emulator", ["-e"]),
        ("gnome-terminal", ["--"]),
        ("konsole", ["-e"]),
        ("xfce4-terminal", ["-x"]),
        ("kitty", []),
        ("alacritty", ["-e"]),
        ("foot", []),
        ("xterm", ["-e"]),
    ]

    /// Why no terminal could run a command.
    public struct NotFound: Error, Equatable, CustomStringConvertible {
        public var description: String {
            "no terminal found (tried \(TerminalCommand.candidates.map(\.program).joined(separator: ", ")))"
        }
    }

    /// `command` inside the first terminal found on `searchPath`: the terminal's absolute path
    /// and the whole argument list (its name first).
    static func wrap(_ command: [String], searchPath: String?) throws(NotFound) -> (executable: String, arguments: [String]) {
        for candidate in candidates {
            if let path = ProgramLookup.find(candidate.program, searchPath: searchPath) {
                return (path, [candidate.program] + candidate.arguments + command)
            }
        }
        throw NotFound()
    }
}
