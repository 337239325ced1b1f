import DBus
import Foundation
import Locking
import QuickActionsAPI

/// The search bridges of one quickactionsd: their own connection to the broker's bus, the
/// well-known name ``SearchNames/busName`` and the objects of every bridge turned on.
///
/// Started after the broker serves its name. When another connection owns the name already
/// (a second broker's bridges), the bridges do not serve and say so, unless `replace` is set
/// (quickactionsd's --replace), which takes the name as the broker takes its own.
public final class SearchService: Sendable {
    public let connection: Connection
    public let catalog: SearchCatalog
    let options: SearchOptions
    let log: SearchLog
    let matcher: SearchMatcher
    let environment: [String: String]
    let desktopEntries: (any DesktopEntryLookup)?
    private let dock = Locked<DockQuicklists?>(nil)

    /// `desktopEntries` tells the dock bridge which desktop entry is each app's; without it
    /// there are no quicklists (a dock could not tell which icon an app is).
    public init(
        bus: Connection.Bus, options: SearchOptions, environment: [String: String], log: SearchLog,
        desktopEntries: (any DesktopEntryLookup)? = nil
    ) throws(DBusError) {
        self.environment = environment
        self.desktopEntries = desktopEntries
        connection = try Connection(bus)
        catalog = SearchCatalog(proxy: BrokerProxy(connection: connection))
        self.options = options
        self.log = log
        matcher = SearchMatcher(environment: environment)
    }

    /// Exports the bridges and takes the name. Returns false when the name is another's.
    @discardableResult
    public func start(replace: Bool = false) async throws(DBusError) -> Bool {
        try await catalog.start()
        if options.gnomeShell {
            let provider = GnomeShellSearchProvider(catalog: catalog, matcher: matcher, log: log)
            try connection.export([provider.interface()], at: SearchNames.gnomeShellPath)
        }
        if options.krunner {
            let runner = KRunnerRunner(catalog: catalog, matcher: matcher,
                                       notifier: DesktopNotifier(connection: connection, log: log), log: log)
            try connection.export([runner.interface()], at: SearchNames.krunnerPath)
            do {
                let file = try KRunnerMetadata.installForUser(environment: environment)
                log(.debug, "KRunner's runner file is \(file.path)")
            } catch {
                log(.warning, "cannot write KRunner's runner file: \(error); KRunner finds the runner only if it is installed system-wide")
            }
        }
        var flags: Connection.NameFlags = [.allowReplacement, .doNotQueue]
        if replace { flags.insert(.replaceExisting) }
        let answer = try await connection.requestName(SearchNames.busName, flags: flags)
        guard answer == .primaryOwner || answer == .alreadyOwner else {
            let owner = (try? await connection.owner(of: SearchNames.busName)) ?? nil
            log(.warning, "\(SearchNames.busName.rawValue) is owned by \(owner ?? "another connection"); "
                + "the search bridges of this broker do not serve (start it with --replace to take over)")
            return false
        }
        // Quicklists only once the name is ours, so a second broker never announces them twice.
        if options.dock {
            if let desktopEntries {
                let quicklists = DockQuicklists(connection: connection, catalog: catalog, lookup: desktopEntries,
                                                notifier: DesktopNotifier(connection: connection, log: log), log: log)
                try await quicklists.start()
                dock.withLock { $0 = quicklists }
            } else {
                log(.info, "dock quicklists are off: no desktop-entry lookup tells which desktop entry is each app's")
            }
        }
        log(.info, "serving \(SearchNames.busName.rawValue) as \(connection.uniqueName):" + enabled)
        return true
    }

    private var enabled: String {
        [options.gnomeShell ? " GNOME Shell search" : nil, options.krunner ? " KRunner" : nil,
         options.dock ? " dock quicklists" : nil].compactMap { $0 }.joined(separator: ",")
    }

    /// Re-reads every app's desktop entry and re-announces the quicklists, after the
    /// desktop-entry lookup's answers changed.
    public func refreshQuicklists() {
        guard let quicklists = dock.withLock({ $0 }) else { return }
        Task { await quicklists.refresh() }
    }

    /// Stops following the broker and closes the connection (the bus drops the name).
    public func stop() {
        dock.withLock { $0?.stop() }
        catalog.stop()
        connection.close()
    }
}
