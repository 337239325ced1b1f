import DBus
import Glibc

/// The program that lets the user choose an item: the one named with
/// `--picker`, else the first installed of fzf (on a terminal), rofi, fuzzel
/// or dmenu (with a display), else a numbered prompt on the terminal.
enum Picker: Sendable, Equatable {
    /// `--picker CMD`, run with `/bin/sh -c`, so it may carry arguments.
    case shell(String)
    /// A detected picker, run directly.
    case program([String])
    /// The built-in numbered prompt (list on stderr, answer read from stdin).
    case prompt

    /// Chooses the picker. `isInstalled` says whether a program is on PATH.
    static func detect(
        requested: String?, environment: [String: String], terminal: Terminal,
        isInstalled: ((String) -> Bool)? = nil
    ) -> Picker {
        if let requested { return .shell(requested) }
        let isInstalled = isInstalled ?? { isOnPath($0, path: environment["PATH"]) }
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let x11 = !(environment["DISPLAY"] ?? "").isEmpty
        if terminal.stdinIsTerminal && isInstalled("fzf") {
            return .program(["fzf", "--no-multi", "--prompt=Quick action> "])
        }
        if (wayland || x11) && isInstalled("rofi") {
            return .program(["rofi", "-dmenu", "-i", "-p", "Quick action"])
        }
        if wayland && isInstalled("fuzzel") {
            return .program(["fuzzel", "--dmenu"])
        }
        if x11 && isInstalled("dmenu") {
            return .program(["dmenu", "-i", "-p", "Quick action"])
        }
        return .prompt
    }

    /// Whether `name` is an executable in one of `path`'s folders ($PATH).
    static func isOnPath(_ name: String, path: String?) -> Bool {
        let path = path ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }

    /// The exit statuses that mean the user cancelled: 1 (fzf with no match,
    /// rofi, fuzzel and dmenu on Escape) and 130 (fzf on Escape or Ctrl-C).
    /// Any other non-zero status is the picker's failure.
    static let cancelStatuses: Set<Int32> = [1, 130]
    static let cancelDescription = "1 and 130"

    /// Offers the menu and returns the chosen entry, or nil when the user
    /// chose nothing (the picker exited with a cancel status or printed nothing).
    /// A picker exiting with another status, or printing several lines, is an error.
    func choose(_ menu: PickMenu, console: Console) async throws(CLIError) -> PickMenu.Entry? {
        switch self {
        case .prompt:
            return try NumberedPrompt(menu: menu, console: console).ask()
        case .shell(let command):
            return try await runExternal(["/bin/sh", "-c", command], describedAs: command.quoted(mark: "'"), menu: menu)
        case .program(let arguments):
            return try await runExternal(arguments, describedAs: arguments[0].quoted(mark: "'"), menu: menu)
        }
    }

    private func runExternal(
        _ arguments: [String], describedAs name: String, menu: PickMenu
    ) async throws(CLIError) -> PickMenu.Entry? {
        // A picker that exits before reading all lines must not kill us.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try await ChildProcess.run(arguments, input: menu.input)
        } catch {
            switch error {
            case .system(let what, let code):
                throw .usage(UsageError("cannot run the picker \(name): \(what): \(String(cString: strerror(code)))"))
            }
        }
        if outcome.status == 126 || outcome.status == 127, case .shell = self {
            throw .usage(UsageError("the picker command \(name) could not be run (the shell exited \(outcome.status))"))
        }
        guard outcome.status == 0 else {
            if Self.cancelStatuses.contains(outcome.status) { return nil }
            throw .usage(UsageError(
                "the picker \(name) failed with exit status \(outcome.status) (\(Self.cancelDescription) mean cancel)"))
        }
        let lines = outcome.output.split(whereSeparator: \.isNewline).filter { $0.contains { !$0.isWhitespace } }
        guard !lines.isEmpty else { return nil }
        guard lines.count == 1 else {
            throw .usage(UsageError(
                "the picker \(name) printed \(lines.count) lines; it must print the one chosen line (no multi-select)"))
        }
        guard let entry = menu.entry(forOutput: outcome.output) else {
            let line = outcome.output.split(whereSeparator: \.isNewline).first.map(String.init) ?? outcome.output
            throw .notFound("the picker \(name) chose \(line.quoted(mark: "'")), which is not one of the offered actions")
        }
        return entry
    }
}
