import DBus
import Foundation
import QuickActionsAPI
import QuickActionsModel
import QuickActionsProviding

/// Everything the broker needs to know to start, decided by `quickactionsd`'s
/// command line and environment.
public struct BrokerConfiguration: Sendable {
    public var bus: Connection.Bus
    /// Plugin directories in order of precedence.
    public var pluginDirectories: [URL]
    /// Where dynamic items (and plugins' data folders) live.
    public var stateDirectory: URL
    /// Perform's default timeout when the caller gives none.
    public var defaultTimeoutMilliseconds: UInt32
    /// Take the name from a running broker.
    public var replace: Bool
    public var verbose: Bool
    /// The locale used when a call gives none, and for the Items property.
    public var locale: String
    /// Watch the plugin directories with inotify.
    public var watchDirectories: Bool
    /// Stored dynamic items of an app that no broker has seen for more than this many days are
    /// removed (`--forget-unseen-days`); 0 keeps them for ever.
    public var forgetUnseenDays: Int
    /// The plugin directories were chosen (`--plugins`, `$QUICKACTIONS_PLUGIN_PATH`), so a
    /// missing one is worth a warning; the default XDG folders often do not exist.
    public var pluginDirectoriesChosen: Bool
    /// The current time in seconds since 1970, for the last-seen records (tests move it).
    public var now: @Sendable () -> Int64
    /// Where plugins run (`--plugin-host`): each app's in a host process (the default), or all
    /// inside the broker.
    public var pluginHost: PluginHostMode = .process
    /// Apps whose plugin the user trusts to run inside the broker (`--in-process APP_ID`).
    public var inProcessApps: Set<String> = []
    /// Whether a bundle's `QuickActionsRunsInProcess` key is honoured (`--allow-in-process-bundles`).
    public var allowInProcessBundles = false
    /// A host without calls for this long gets will-resign and ends (`--host-idle-seconds`; 0: never).
    public var hostIdleSeconds = BrokerConfiguration.defaultHostIdleSeconds
    /// The item providers that run (issue 33), in the order their items follow a plugin's:
    /// quickactionsd's choice (`--no-desktop-actions` and the others, quickactionsd.conf).
    public var providers: [any ItemProvider] = []

    /// `--host-idle-seconds`' default and range.
    public static let defaultHostIdleSeconds = 120
    public static let hostIdleSecondsRange: ClosedRange<Int> = 0...86_400

    public init(
        bus: Connection.Bus, pluginDirectories: [URL], stateDirectory: URL,
        defaultTimeoutMilliseconds: UInt32 = 20_000, replace: Bool = false, verbose: Bool = false,
        locale: String = BrokerConfiguration.locale(from: ProcessInfo.processInfo.environment),
        watchDirectories: Bool = true, forgetUnseenDays: Int = BrokerConfiguration.defaultForgetUnseenDays,
        pluginDirectoriesChosen: Bool = true, now: @escaping @Sendable () -> Int64 = { Int64(time(nil)) }
    ) {
        self.bus = bus
        self.pluginDirectories = pluginDirectories
        self.stateDirectory = stateDirectory
        self.defaultTimeoutMilliseconds = defaultTimeoutMilliseconds
        self.replace = replace
        self.verbose = verbose
        self.locale = locale
        self.watchDirectories = watchDirectories
        self.forgetUnseenDays = forgetUnseenDays
        self.pluginDirectoriesChosen = pluginDirectoriesChosen
        self.now = now
    }

    /// `--forget-unseen-days`' default.
    public static let defaultForgetUnseenDays = 30
    /// `--forget-unseen-days`' range: 0 (never) to about 100 years.
    public static let forgetUnseenDaysRange: ClosedRange<Int> = 0...36_500

    /// The user's message locale: LC_ALL, else LC_MESSAGES, else LANG, else "C".
    public static func locale(from environment: [String: String]) -> String {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return "C"
    }

    /// Perform's timeout range (`timeout-ms` and `--timeout-ms`).
    public static let timeoutRange: ClosedRange<UInt32> = 1...BrokerAPI.maximumTimeoutMilliseconds
}
