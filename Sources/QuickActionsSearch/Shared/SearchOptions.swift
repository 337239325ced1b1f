/// Which bridges quickactionsd runs: all by default; `--no-search` turns every one off,
/// `--no-gnome-shell`, `--no-krunner` and `--no-dock` one each.
public struct SearchOptions: Sendable, Equatable {
    public var gnomeShell = true
    public var krunner = true
    public var dock = true

    public init(gnomeShell: Bool = true, krunner: Bool = true, dock: Bool = true) {
        self.gnomeShell = gnomeShell
        self.krunner = krunner
        self.dock = dock
    }

    public var any: Bool { gnomeShell || krunner || dock }

    /// The options' lines for quickactionsd's --help.
    public static let help = """
          --no-search        serve no search bridge (GNOME Shell, KRunner, dock quicklists)
          --no-gnome-shell   no GNOME Shell search provider
          --no-krunner       no KRunner runner (and no runner metadata file)
          --no-dock          no dock quicklists (Unity LauncherEntry + dbusmenu)
        """

    /// Takes the bridge options out of `arguments`; the rest is returned in order.
    public static func extract(from arguments: [String]) -> (options: SearchOptions, rest: [String]) {
        var options = SearchOptions()
        var rest: [String] = []
        for argument in arguments {
            switch argument {
            case "--no-search": options = SearchOptions(gnomeShell: false, krunner: false, dock: false)
            case "--no-gnome-shell": options.gnomeShell = false
            case "--no-krunner": options.krunner = false
            case "--no-dock": options.dock = false
            default: rest.append(argument)
            }
        }
        return (options, rest)
    }
}
