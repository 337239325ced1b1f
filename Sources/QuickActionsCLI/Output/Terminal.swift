import Glibc

/// What the CLI knows about where its output goes: whether stdout and stderr
/// are terminals, how wide stdout is, and whether colour is wanted.
public struct Terminal: Sendable, Equatable {
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    public var stdinIsTerminal: Bool
    /// Columns to fit table rows to, or nil for no limit (a pipe without $COLUMNS).
    public var width: Int?
    /// Whether stdout gets ANSI colour.
    public var colour: Bool
    /// Whether the terminal can show UTF-8 (for the spinner's frames).
    public var unicode: Bool

    public init(stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false, stdinIsTerminal: Bool = false,
                width: Int? = nil, colour: Bool = false, unicode: Bool = true) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.stdinIsTerminal = stdinIsTerminal
        self.width = width
        self.colour = colour
        self.unicode = unicode
    }

    /// Looks at the real file descriptors and the environment.
    public static func current(environment: [String: String]) -> Terminal {
        let stdoutTTY = isatty(STDOUT_FILENO) == 1
        return Terminal(
            stdoutIsTerminal: stdoutTTY, stderrIsTerminal: isatty(STDERR_FILENO) == 1,
            stdinIsTerminal: isatty(STDIN_FILENO) == 1,
            width: width(stdoutIsTerminal: stdoutTTY, windowColumns: stdoutTTY ? windowColumns() : nil,
                         environment: environment),
            colour: colour(stdoutIsTerminal: stdoutTTY, environment: environment),
            unicode: unicode(environment: environment))
    }

    /// On a terminal: its width (TIOCGWINSZ), else $COLUMNS, else 80.
    /// Elsewhere: $COLUMNS when set, else no limit.
    public static func width(stdoutIsTerminal: Bool, windowColumns: Int?, environment: [String: String]) -> Int? {
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        if stdoutIsTerminal {
            return windowColumns ?? columns ?? 80
        }
        return columns
    }

    /// Colour only on a terminal, never with NO_COLOR set (to anything
    /// non-empty, as no-color.org says) and never on TERM=dumb.
    public static func colour(stdoutIsTerminal: Bool, environment: [String: String]) -> Bool {
        guard stdoutIsTerminal else { return false }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// Whether the locale's character set is UTF-8 (LC_ALL, LC_CTYPE, LANG in that order).
    public static func unicode(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale else { return false }
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// The terminal's columns from `ioctl(TIOCGWINSZ)` on stdout.
    private static func windowColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
