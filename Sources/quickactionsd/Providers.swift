import DBus
import Foundation
import QuickActionsBroker
import QuickActionsDesktopEntries
import QuickActionsProviders
import Locking
import QuickActionsProviding

/// Which item providers run (issue 33): each on unless `--no-desktop-actions`,
/// `--no-recent-documents`, `--no-media-players`, the settings file
/// (`ProviderSettings`) or `QUICKACTIONS_PROVIDERS=0` (for test rigs, as
/// `QUICKACTIONS_DESKTOP_ENTRIES=0` is for the desktop-entry bridge) turns it off.
struct ProviderChoice {
    static let flags = ["--no-desktop-actions", "--no-recent-documents", "--no-media-players"]

    var settings: ProviderSettings

    /// The settings file applied, then the flags in `arguments` (which win).
    /// - Throws: `UsageError` naming the settings file's line at fault.
    init(arguments: [String], environment: [String: String]) throws {
        settings = ProviderSettings()
        if let path = ProviderSettings.path(environment: environment),
           let data = FileManager.default.contents(atPath: path) {
            guard let text = String(data: data, encoding: .utf8) else {
                throw UsageError(description: "\(path): not UTF-8 text")
            }
            do {
                settings = try settings.applying(text, path: path)
            } catch {
                throw UsageError(description: "\(error)")
            }
        }
        if arguments.contains("--no-desktop-actions") { settings.desktopActions = false }
        if arguments.contains("--no-recent-documents") { settings.recentDocuments = false }
        if arguments.contains("--no-media-players") { settings.mediaPlayers = false }
        if environment["QUICKACTIONS_PROVIDERS"] == "0" {
            settings.desktopActions = false
            settings.recentDocuments = false
            settings.mediaPlayers = false
        }
    }

    var any: Bool { settings.desktopActions || settings.recentDocuments || settings.mediaPlayers }

    /// The providers chosen, in the order their items follow a plugin's, sharing one index of
    /// the installed applications and one connection to `bus` of their own (a player flooding
    /// its signals costs that connection, not the broker's).
    func make(
        bus: Connection.Bus, environment: [String: String], log: Log
    ) -> (providers: [any ItemProvider], applications: DeferredApplicationIndex?) {
        guard any else { return ([], nil) }
        let connection: Connection?
        do {
            connection = try Connection(bus)
        } catch {
            log(.warning, "item providers: no bus connection of their own (\(error)); launching without D-Bus activation, no media players")
            connection = nil
        }
        let index = DeferredApplicationIndex(environment: environment) { message in log(.info, "applications: \(message)") }
        index.startReading()
        let launcher = ApplicationLauncher(connection: connection, environment: environment) { message in
            log(.info, "launching: \(message)")
        }
        var providers: [any ItemProvider] = []
        if settings.desktopActions {
            providers.append(DesktopActionsProvider(applications: index, launcher: launcher))
        }
        if settings.recentDocuments {
            providers.append(RecentDocumentsProvider(
                applications: index, launcher: launcher, connection: connection,
                settings: RecentDocumentsProvider.Settings(
                    limit: settings.recentDocumentsLimit, log: { level, message in log(level, "recent documents: \(message)") }),
                environment: environment))
        }
        if settings.mediaPlayers, let connection {
            providers.append(MediaPlayersProvider(
                connection: connection, applications: index, log: { level, message in log(level, "media players: \(message)") }))
        }
        return (providers, index)
    }
}

/// The installed applications, read on a thread of their own from the moment the providers
/// are made: reading 1,000 entries costs tens of milliseconds, which overlap the broker's own
/// start (connecting, reading its plugin folders). The providers first ask once they start,
/// just before the broker exports its objects (Broker.run), and wait only for what is left of
/// the read.
final class DeferredApplicationIndex: InstalledApplications {
    private let environment: [String: String]
    private let log: @Sendable (String) -> Void
    private let index = Locked<InstalledApplicationIndex?>(nil)

    init(environment: [String: String], log: @escaping @Sendable (String) -> Void) {
        self.environment = environment
        self.log = log
    }

    /// Starts reading now, off the caller's thread.
    func startReading() {
        DispatchQueue.global(qos: .utility).async { _ = self.made }
    }

    private var made: InstalledApplicationIndex {
        index.withLock { index in
            if let index { return index }
            let made = InstalledApplicationIndex(environment: environment, log: log)
            index = made
            return made
        }
    }

    var applications: [String: InstalledApplication] { made.applications }

    func observe(_ handler: @escaping @Sendable ([String: InstalledApplication]) -> Void) -> ObservationToken {
        made.observe(handler)
    }
}
