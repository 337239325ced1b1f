import Foundation
import Locking
import QuickActionsProviders
import QuickActionsProviding

/// An index of installed applications a test sets by hand; `set` notifies observers.
final class FakeApplications: InstalledApplications {
    private let state = Locked<(apps: [String: InstalledApplication], observers: [UInt64: @Sendable ([String: InstalledApplication]) -> Void], next: UInt64)>(([:], [:], 0))

    init(_ apps: [InstalledApplication] = []) {
        state.withLock { $0.apps = Dictionary(apps.map { ($0.appID, $0) }, uniquingKeysWith: { first, _ in first }) }
    }

    var applications: [String: InstalledApplication] { state.withLock { $0.apps } }

    func observe(_ handler: @escaping @Sendable ([String: InstalledApplication]) -> Void) -> ObservationToken {
        let id = state.withLock { state -> UInt64 in
            state.next += 1
            state.observers[state.next] = handler
            return state.next
        }
        return ObservationToken { [weak self] in _ = self?.state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    func set(_ apps: [InstalledApplication]) {
        let (all, observers) = state.withLock { state in
            state.apps = Dictionary(apps.map { ($0.appID, $0) }, uniquingKeysWith: { first, _ in first })
            return (state.apps, Array(state.observers.values))
        }
        for observer in observers { observer(all) }
    }

    var observerCount: Int { state.withLock { $0.observers.count } }
}

/// A launcher that records what it was asked and answers success.
final class RecordingLauncher: ApplicationLaunching {
    struct Launch: Sendable, Hashable {
        var appID: String
        var action: String?
        var uris: [String]
        var context: LaunchContext
    }

    private let launches = Locked<[Launch]>([])

    var recorded: [Launch] { launches.withLock { $0 } }

    func launch(
        _ app: InstalledApplication, action: String?, uris: [String], context: LaunchContext,
        completion: @escaping @Sendable (ProvidedOutcome) -> Void
    ) {
        launches.withLock { $0.append(Launch(appID: app.appID, action: action, uris: uris, context: context)) }
        completion(.succeeded("Started \(app.name.value)"))
    }
}

/// What a provider published, newest last.
final class Published: Sendable {
    private let sets = Locked<[[ProvidedApp]]>([])

    var publish: @Sendable ([ProvidedApp]) -> Void { { [self] apps in sets.withLock { $0.append(apps) } } }
    var count: Int { sets.withLock { $0.count } }
    var latest: [ProvidedApp]? { sets.withLock { $0.last } }

    /// The latest titles of `appID`'s items ([] when it has none, nil before any publish).
    func titles(_ appID: String) -> [String]? {
        guard let latest else { return nil }
        return latest.first { $0.appID == appID }?.items.map(\.title.value) ?? []
    }
}

/// Log lines a provider wrote.
final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    var log: @Sendable (LogLevel, String) -> Void { { [self] _, line in lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}

import QuickActionsModel

extension InstalledApplication {
    /// A test app: `exec` defaults to `<program> %U`.
    static func make(
        _ appID: String, name: String, exec: String? = nil, dbusActivatable: Bool = false, icon: String? = nil
    ) -> InstalledApplication {
        InstalledApplication(
            desktopID: appID + ".desktop", appID: appID, path: "/usr/share/applications/\(appID).desktop",
            name: LocalizedText(name), icon: icon ?? appID, exec: exec ?? "\(appID) %U", dbusActivatable: dbusActivatable)
    }
}
