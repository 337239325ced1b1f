import Foundation

/// The plugin-host mode the end-to-end suites run their brokers in.
///
/// By default a test broker runs each app's plugin in its own `quickactions-host`
/// process, as an installed broker does. With `QUICKACTIONS_TEST_PLUGIN_HOST=in-process`
/// in the environment (the `test-in-process` lane of the Makefile) every broker the
/// suites start loads its plugins in process instead, so each test that does not
/// depend on where plugin code runs proves both modes. A test that does (a crash must
/// cost only its host, an idle host exits) names its mode with `--plugin-host` and is
/// left alone.
public enum TestPluginHost {
    /// The environment variable that selects the mode: `process` (or unset) or `in-process`.
    public static let variable = "QUICKACTIONS_TEST_PLUGIN_HOST"

    /// The mode this run's brokers use, as `--plugin-host` spells it.
    public static var mode: String {
        switch ProcessInfo.processInfo.environment[variable] {
        case "in-process": "in-process"
        default: "process"
        }
    }

    /// `arguments` with this run's `--plugin-host`, unless they already choose where plugins run.
    public static func arguments(_ arguments: [String]) -> [String] {
        guard mode != "process", !arguments.contains("--plugin-host") else { return arguments }
        return arguments + ["--plugin-host", mode]
    }

    /// Arguments that keep a broker on plugin hosts in every lane, for the tests about hosts.
    public static let hostsOnly = ["--plugin-host", "process"]
}
