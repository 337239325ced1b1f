import DBus
import Foundation
import Locking
import QuickActionsModel
import QuickActionsProviders
import QuickActionsProviding
import QuickActionsTestSupport

/// An index of installed applications a test sets.
final class FakeInstalledApplications: InstalledApplications {
    private let state: Locked<(apps: [String: InstalledApplication], handlers: [UInt64: @Sendable ([String: InstalledApplication]) -> Void], next: UInt64)>

    init(_ apps: [InstalledApplication] = []) {
        state = Locked((Dictionary(apps.map { ($0.appID, $0) }, uniquingKeysWith: { $1 }), [:], 1))
    }

    var applications: [String: InstalledApplication] { state.withLock { $0.apps } }

    func observe(_ handler: @escaping @Sendable ([String: InstalledApplication]) -> Void) -> ObservationToken {
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.handlers[state.next] = handler
            return state.next
        }
        return ObservationToken { [weak self] in _ = self?.state.withLock { $0.handlers.removeValue(forKey: id) } }
    }

    func set(_ apps: [InstalledApplication]) {
        let (all, handlers) = state.withLock { state in
            state.apps = Dictionary(apps.map { ($0.appID, $0) }, uniquingKeysWith: { $1 })
            return (state.apps, Array(state.handlers.values))
        }
        for handler in handlers { handler(all) }
    }

    static func app(_ appID: String, name: String) -> InstalledApplication {
        InstalledApplication(
            desktopID: "\(appID).desktop", appID: appID, path: "/usr/share/applications/\(appID).desktop",
            name: LocalizedText(name), icon: appID, exec: appID)
    }
}

/// Every set a provider published, and its log.
final class PublishedSets: Sendable {
    private let sets = Locked<[[ProvidedApp]]>([])
    private let lines = Locked<[String]>([])

    var count: Int { sets.withLock { $0.count } }
    var latest: [ProvidedApp]? { sets.withLock { $0.last } }
    var log: [String] { lines.withLock { $0 } }

    func publish(_ apps: [ProvidedApp]) { sets.withLock { $0.append(apps) } }
    func record(_ level: LogLevel, _ line: String) { lines.withLock { $0.append("\(level): \(line)") } }

    func app(_ appID: String) -> ProvidedApp? { latest?.first { $0.appID == appID } }
    func itemIDs(_ appID: String) -> [String] { app(appID)?.items.map(\.id) ?? [] }
    func item(_ appID: String, _ id: String) -> ProvidedItem? { app(appID)?.items.first { $0.id == id } }
}

/// A media-players provider on a test bus, with what it published.
struct ProviderUnderTest {
    let provider: MediaPlayersProvider
    let connection: Connection
    let published = PublishedSets()

    init(bus: TestBus, applications: FakeInstalledApplications) throws {
        connection = try Connection(.address(bus.address))
        let published = self.published
        provider = MediaPlayersProvider(
            connection: connection, applications: applications, log: { published.record($0, $1) })
        provider.start { published.publish($0) }
    }

    func stop() {
        provider.stop()
        connection.close()
    }

    func perform(_ appID: String, _ item: ProvidedItem) async -> ProvidedOutcome {
        await withCheckedContinuation { continuation in
            provider.perform(ProvidedPerform(appID: appID, item: item)) { continuation.resume(returning: $0) }
        }
    }
}
