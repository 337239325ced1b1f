import Locking
import QuickActionsAPI
import QuickActionsModel
import QuickActionsProviding

/// Installed applications' desktop actions (issue 33 §3): each `[Desktop Action ID]` an entry
/// names in `Actions=` is a static item of that application, titled by its localised `Name`,
/// with its `Icon` or else the application's. Performing one launches it as the Desktop Entry
/// Specification says (``ApplicationLaunching``: D-Bus activation, or its `Exec` detached).
///
/// Launchers show these actions on the icon already: the desktop-entry bridge never writes
/// them, and dock quicklists leave them out (the items' `provider` key says whose they are).
public final class DesktopActionsProvider: ItemProvider {
    public let name = ItemKey.Provider.desktopActions
    /// The installed applications' entries: read from disk.
    public let readsLocally = true
    /// The items' type prefix: an action `new-window` is the item `new-window` of type
    /// `org.freedesktop.DesktopAction.new-window`.
    public static let typePrefix = "org.freedesktop.DesktopAction."

    private let applications: any InstalledApplications
    private let launcher: any ApplicationLaunching
    /// The observation, and every publish under the same lock: each reads the index's current
    /// set, so the last one out is always the newest.
    private let state = Locked<State>(State())

    private struct State: @unchecked Sendable {
        // @unchecked: only touched under the lock.
        var observation: ObservationToken?
        var publish: (@Sendable ([ProvidedApp]) -> Void)?
    }

    public init(applications: any InstalledApplications, launcher: any ApplicationLaunching) {
        self.applications = applications
        self.launcher = launcher
    }

    public func start(publish: @escaping @Sendable ([ProvidedApp]) -> Void) {
        let token = applications.observe { [weak self] _ in self?.publishCurrent() }
        state.withLock { state in
            state.observation = token
            state.publish = publish
        }
        publishCurrent()
    }

    public func stop() {
        let token = state.withLock { state -> ObservationToken? in
            state.publish = nil
            defer { state.observation = nil }
            return state.observation
        }
        token?.cancel()
    }

    private func publishCurrent() {
        state.withLock { state in
            guard let publish = state.publish else { return }
            publish(Self.apps(applications.applications))
        }
    }

    /// The apps with at least one action, by id.
    static func apps(_ installed: [String: InstalledApplication]) -> [ProvidedApp] {
        installed.values.sorted { $0.appID < $1.appID }.compactMap { app in
            guard !app.actions.isEmpty else { return nil }
            return ProvidedApp(
                appID: app.appID, desktopID: app.desktopID, name: app.name, icon: app.icon,
                items: app.actions.map { action in
                    ProvidedItem(
                        id: action.id, type: typePrefix + action.id, title: action.name, icon: action.icon ?? app.icon,
                        isStatic: true)
                })
        }
    }

    public func perform(_ request: ProvidedPerform, completion: @escaping @Sendable (ProvidedOutcome) -> Void) {
        guard let app = applications.applications[request.appID] else {
            completion(.failed("\(request.appID) is no longer installed"))
            return
        }
        guard app.actions.contains(where: { $0.id == request.item.id }) else {
            completion(.failed("\(app.desktopID) no longer has the action \(request.item.id)"))
            return
        }
        launcher.launch(app, action: request.item.id, uris: [], context: request.launch, completion: completion)
    }
}
