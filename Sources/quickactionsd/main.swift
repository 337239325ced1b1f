import CQuickActionsHostSupport
import DBus
import Locking
import Foundation
import QuickActionsBroker
import QuickActionsDesktopEntries
import QuickActionsBundles
import QuickActionsModel
import QuickActionsSearch

// Before any thread exists: a descriptor table grown later, with the bus loop, the plugin
// hosts' readers and the providers running, waits for an RCU grace period in whichever call
// opens the 65th descriptor (a launch's pipe: 6-30 ms, the launch tail of issue 35). Grown now
// it costs nothing, and 1,024 covers the hosts and watches of a desktop's worth of apps.
_ = qa_reserve_descriptor_table(1_024)

/// quickactionsd: the per-user quick-actions broker on D-Bus.
let usage = """
    Usage: quickactionsd [--session | --system | --address ADDR] [--plugins DIR]...
                         [--state-dir DIR] [--timeout-ms N] [--forget-unseen-days N]
                         [--plugin-host process|in-process] [--in-process APP_ID]...
                         [--allow-in-process-bundles] [--host-idle-seconds N]
                         [--replace] [--verbose] [--no-desktop-entries]
                         [--no-desktop-actions] [--no-recent-documents] [--no-media-players]
                         [--no-search | --no-gnome-shell | --no-krunner | --no-dock]

    Serves \(Broker.busName): lists the quick actions of the plugin
    bundles it finds and performs them by loading the plugin on first use.

    Options:
      --session          use the session bus (the default)
      --system           use the system bus
      --address ADDR     use the bus at ADDR
      --plugins DIR      a plugin directory; repeat for more, first wins.
                         Default: $QUICKACTIONS_PLUGIN_PATH (colon-separated), else
                         $XDG_DATA_HOME/quickactions/plugins and quickactions/plugins
                         in each of $XDG_DATA_DIRS
      --state-dir DIR    where dynamic items are kept
                         (default: $XDG_STATE_HOME/quickactions, ~/.local/state/quickactions)
      --timeout-ms N     default Perform timeout, 1 to 600000 (default 20000)
      --forget-unseen-days N
                         remove the stored dynamic items of an app no broker has
                         seen for more than N days, 0 to 36500; 0 keeps them for
                         ever (default 30). A missing bundle never removes them
                         sooner; `quickactions forget APP` does so at once
      --plugin-host MODE where plugins run: "process" (the default), each app's
                         plugin in a quickactions-host process of its own, so a
                         crash costs only that app; or "in-process", every plugin
                         inside the broker (for plugins you trust: a crash or a
                         blocking call then costs every app)
      --in-process APP_ID
                         run this app's plugin inside the broker; repeat for more
      --allow-in-process-bundles
                         honour a bundle's QuickActionsRunsInProcess key
      --host-idle-seconds N
                         a plugin host without calls for N seconds gets will-resign
                         and ends, 0 to 86400; 0 keeps hosts running (default 120)
      --replace          take the name from a running broker
      --verbose          log every call
      --no-desktop-entries
                         do not put the items on the apps' icons as desktop entry
                         actions, and remove the entries written before (also
                         QUICKACTIONS_DESKTOP_ENTRIES=0)
      --no-desktop-actions
                         do not offer installed applications' desktop actions
      --no-recent-documents
                         do not offer the documents applications opened lately
                         ($XDG_DATA_HOME/recently-used.xbel)
      --no-media-players do not offer the controls of playing MPRIS players
                         Each of these three is also a key of
                         $XDG_CONFIG_HOME/quickactions/quickactionsd.conf, [Providers]
                         (see quickactionsd(1)); the flags win
    \(SearchOptions.help)
      --help, --version

    Exit status: 0 after SIGTERM/SIGINT or when replaced; 1 when the bus is
    lost or the broker cannot start; 2 for a usage error.
    """

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

func parse(_ arguments: [String], environment: [String: String]) throws -> BrokerConfiguration {
    var bus: Connection.Bus?
    var plugins: [String] = []
    var stateDirectory: String?
    var timeout: UInt32 = 20_000
    var forgetDays = BrokerConfiguration.defaultForgetUnseenDays
    var replace = false
    var verbose = false
    var pluginHost = PluginHostMode.process
    var inProcess: Set<String> = []
    var allowInProcessBundles = false
    var hostIdle = BrokerConfiguration.defaultHostIdleSeconds
    var index = 0
    func value(_ option: String) throws -> String {
        index += 1
        guard index < arguments.count else { throw UsageError(description: "\(option) needs a value") }
        return arguments[index]
    }
    func chooseBus(_ choice: Connection.Bus, _ option: String) throws {
        guard bus == nil else { throw UsageError(description: "\(option): choose one of --session, --system, --address") }
        bus = choice
    }
    while index < arguments.count {
        let argument = arguments[index]
        switch argument {
        case "--session": try chooseBus(.session, argument)
        case "--system": try chooseBus(.system, argument)
        case "--address": try chooseBus(.address(try value(argument)), argument)
        case "--plugins": plugins.append(try value(argument))
        case "--state-dir": stateDirectory = try value(argument)
        case "--timeout-ms":
            let text = try value(argument)
            guard let number = UInt32(text), BrokerConfiguration.timeoutRange.contains(number) else {
                throw UsageError(description: "--timeout-ms \"\(text)\": give a whole number from 1 to 600000")
            }
            timeout = number
        case "--forget-unseen-days":
            let text = try value(argument)
            let range = BrokerConfiguration.forgetUnseenDaysRange
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(description: "--forget-unseen-days \"\(text.prefix(40))\": give a whole number from "
                    + "\(range.lowerBound) (never) to \(range.upperBound)")
            }
            forgetDays = number
        case "--plugin-host":
            let text = try value(argument)
            guard let mode = PluginHostMode(rawValue: text) else {
                throw UsageError(description: "--plugin-host \"\(text.prefix(40))\": give process or in-process")
            }
            pluginHost = mode
        case "--in-process": inProcess.insert(try value(argument))
        case "--allow-in-process-bundles": allowInProcessBundles = true
        case "--host-idle-seconds":
            let text = try value(argument)
            let range = BrokerConfiguration.hostIdleSecondsRange
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(description: "--host-idle-seconds \"\(text.prefix(40))\": give a whole number from "
                    + "\(range.lowerBound) (never) to \(range.upperBound)")
            }
            hostIdle = number
        case "--replace": replace = true
        case "--verbose": verbose = true
        default:
            throw UsageError(description: "unknown argument \"\(argument)\" (see --help)")
        }
        index += 1
    }
    let state = try StateDirectory.resolve(override: stateDirectory, environment: environment)
    var configuration = BrokerConfiguration(
        bus: bus ?? defaultBus(environment), pluginDirectories: PluginDirectories.resolve(plugins: plugins, environment: environment),
        stateDirectory: state, defaultTimeoutMilliseconds: timeout, replace: replace, verbose: verbose,
        forgetUnseenDays: forgetDays, pluginDirectoriesChosen: PluginDirectories.areChosen(plugins: plugins, environment: environment))
    configuration.pluginHost = pluginHost
    configuration.inProcessApps = inProcess
    configuration.allowInProcessBundles = allowInProcessBundles
    configuration.hostIdleSeconds = hostIdle
    return configuration
}

/// The session bus, or the bus that started us by D-Bus activation.
func defaultBus(_ environment: [String: String]) -> Connection.Bus {
    if let starter = environment["DBUS_STARTER_ADDRESS"], !starter.isEmpty { return .address(starter) }
    return .session
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("quickactionsd: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
// The desktop-entry bridge's switch is the daemon's, not the broker's.
let desktopEntriesOff = arguments.contains("--no-desktop-entries") || BridgeConfiguration.isDisabled(environment: environment)
arguments.removeAll { $0 == "--no-desktop-entries" }
// SIGTERM and SIGINT are taken by the broker's signal sources (signalfd, in Dispatch): blocked
// here, before any thread starts, so every thread inherits the block and the signal waits for
// the source instead of interrupting whichever thread it lands on (the parked main thread
// included, where a handler runs on a stack sanitizers cannot follow). Hosts are started with
// a clean mask.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
if arguments.contains("--version") {
    print("quickactionsd \(Broker.version)")
    exit(0)
}
let providerChoice: ProviderChoice
do {
    providerChoice = try ProviderChoice(arguments: arguments, environment: environment)
} catch {
    fail("\(error)", status: 2)
}
arguments.removeAll { ProviderChoice.flags.contains($0) }
let configuration: BrokerConfiguration
let (searchOptions, brokerArguments) = SearchOptions.extract(from: arguments)
do {
    configuration = try parse(brokerArguments, environment: environment)
} catch let error as UsageError {
    fail(error.description, status: 2)
} catch {
    fail("\(error)", status: 1)
}

/// The item providers, and their index of installed applications when any runs (also the
/// dock's lookup of an installed application's entry, wherever in the data folders it is).
let provided = providerChoice.make(bus: configuration.bus, environment: environment, log: Log(verbose: configuration.verbose))
let broker: Broker
do {
    var withProviders = configuration
    withProviders.providers = provided.providers
    broker = try Broker(configuration: withProviders)
} catch {
    fail("cannot start: \(error)", status: 1)
}
/// The desktop-entry bridge (issue 15), on its own connection to the broker's bus. It syncs
/// once the broker owns its name; when turned off, it removes what it wrote before.
func startDesktopEntries(bus: Connection.Bus) async -> DesktopEntryBridge? {
    let directories = DataDirectories.resolve(environment)
    // The broker's log: one format, with the journal's priority prefixes when that is stderr.
    let log = Log(verbose: configuration.verbose)
    let bridgeLog: @Sendable (String) -> Void = { message in log(.info, "desktop entries: \(message)") }
    if desktopEntriesOff {
        DesktopEntryBridge.removeWrittenEntries(in: directories, log: bridgeLog)
        return nil
    }
    do {
        let bridge = try DesktopEntryBridge(configuration: BridgeConfiguration(
            bus: bus, directories: directories, command: BridgeConfiguration.defaultCommand(environment: environment),
            log: bridgeLog))
        try await bridge.start()
        return bridge
    } catch {
        log(.warning, "desktop entries: not started: \(error)")
        return nil
    }
}

/// Kept for the life of the process (the search bridge asks it which entry serves an app).
let desktopEntries = Locked<DesktopEntryBridge?>(nil)

// The broker runs as a task; the main thread parks in Dispatch. (No top-level
// await: it would make main itself async, which valgrind cannot follow.)
/// The search bridges, on their own connection, once the broker serves (docs/search.md).
/// Which desktop entry is each app's, for the dock quicklists: the desktop-entry bridge's
/// answer while it runs; with it turned off, an original `<app id>.desktop` in the data folders,
/// which shows none of the app's items.
struct DesktopEntryAnswers: DesktopEntryLookup {
    let bridge: DesktopEntryBridge?
    let dataDirectories: [String]
    let applications: DeferredApplicationIndex?

    func desktopEntry(forApp appID: String) -> (desktopID: String, showsItems: Bool)? {
        if let bridge { return bridge.desktopEntry(forApp: appID) }
        // An installed application (a subfolder's vendor/app.desktop is vendor-app.desktop).
        if let installed = applications?.applications[appID] { return (installed.desktopID, false) }
        let name = "\(appID).desktop"
        for folder in dataDirectories where FileManager.default.fileExists(atPath: "\(folder)/applications/\(name)") {
            return (name, false)
        }
        return nil
    }
}

func desktopEntryLookup(_ bridge: DesktopEntryBridge?) -> DesktopEntryAnswers {
    let home = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "\(NSHomeDirectory())/.local/share"
    let system = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
        .split(separator: ":").map(String.init)
    return DesktopEntryAnswers(bridge: bridge, dataDirectories: [home] + system, applications: provided.applications)
}

func startSearch(lookup: DesktopEntryAnswers) {
    guard searchOptions.any else { return }
    let log = Log(verbose: configuration.verbose)
    // One level type (the model core's LogLevel) for the bridges and the broker's log.
    let searchLog = SearchLog { level, message in log(level, message) }
    Task {
        do {
            // Dock quicklists carry an app's items only where its desktop entry does not.
            let service = try SearchService(
                bus: configuration.bus, options: searchOptions, environment: ProcessInfo.processInfo.environment,
                log: searchLog, desktopEntries: lookup)
            if try await service.start(replace: configuration.replace) {
                searchService.withLock { $0 = service }
                // The bridge's answers settle after it read every app: quicklists follow them.
                lookup.bridge?.onChange { service.refreshQuicklists() }
            } else {
                service.stop()
            }
        } catch {
            log(.error, "cannot start the search bridges: \(error); the broker serves without them")
        }
    }
}
let searchService = Locked<SearchService?>(nil)

// Detached: top-level code is the main actor's, and the main thread stays parked below.
Task.detached {
    do {
        let status = try await broker.run(serving: {
            Task {
                let bridge = await startDesktopEntries(bus: configuration.bus)
                desktopEntries.withLock { $0 = bridge }
                startSearch(lookup: desktopEntryLookup(bridge))
            }
        })
        searchService.withLock { $0?.stop() }
        broker.close()
        exit(status)
    } catch {
        fail("\(error)", status: 1)
    }
}
// The main thread waits for good (nothing runs on the main queue or actor): the task above
// ends the process. Parked in a semaphore, not dispatchMain(), whose parked main thread
// unblocks every signal and would take SIGTERM itself.
DispatchSemaphore(value: 0).wait()
