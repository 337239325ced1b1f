import DBus
import Foundation
import Glibc
import QuickActionsAPI

/// The read-only status properties `quickactions status` shows: the broker's
/// process, start time and plugin folders on the root; each app's bundle
/// path, quarantine, last load error and host process on its object.
/// Documented in dbus/org.quickactions.Broker1.xml and
/// dbus/org.quickactions.Application1.xml.
extension Broker {
    /// The status properties of org.quickactions.Broker1.
    func rootStatusProperties() -> [Property] {
        let directories = configuration.pluginDirectories.map(\.path)
        return [
            Property(MemberName(stringLiteral: BrokerAPI.Property.pid), type: .uint32, changeSignal: .constant,
                     annotations: [.documentation("The broker's process id.")],
                     get: { .uint32(UInt32(clamping: getpid())) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.startTime), type: .uint64, changeSignal: .constant,
                     annotations: [.documentation(
                        "When the broker started, in microseconds since the Unix epoch (CLOCK_REALTIME).")],
                     get: { [startTime = status.startTime] in .uint64(startTime) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.pluginDirectories), type: .array(.string),
                     changeSignal: .constant,
                     annotations: [.documentation(
                        "The plugin folders the broker searches, in search order: an app id found in two is taken from the first.")],
                     get: { .array(.string, directories.map(Value.string)) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.missingPluginDirectories), type: .array(.string),
                     changeSignal: .none,
                     annotations: [.documentation(
                        "Those of PluginDirectories that do not exist, or are not folders, at the time of reading.")],
                     get: { .array(.string, Self.missing(directories).map(Value.string)) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.providers), type: .array(Self.providerType),
                     changeSignal: .none,
                     annotations: [.documentation(
                        "The item providers that run (desktop-actions, recent-documents, media-players), in the order their items follow a plugin's: each one's name, the apps it gives items and the items it gives, at the time of reading.")],
                     get: { [weak self] in
                .array(Self.providerType, (self?.providerCounts() ?? []).map { counted in
                    .structure([.string(counted.name), .uint32(UInt32(clamping: counted.apps)), .uint32(UInt32(clamping: counted.items))])
                })
            }),
        ]
    }

    static let providerType = DBusType.structure([.string, .uint32, .uint32])

    /// The status properties of app `id`'s org.quickactions.Application1.
    func applicationStatusProperties(current: @escaping @Sendable (ObjectPath) throws -> AppSnapshot) -> [Property] {
        [
            Property(MemberName(stringLiteral: BrokerAPI.Property.bundlePath), type: .string,
                     annotations: [.documentation("The app's bundle folder, or \"\" for an app only item providers serve.")],
                     getAt: { .string(try current($0).bundle?.url.path ?? "") }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.quarantined), type: .boolean,
                     annotations: [.documentation(
                        "Whether the app's plugin is refused (PluginFailed) because it crashed the broker; lifted when its library file changes.")],
                     getAt: { [weak self] in .boolean(try self?.quarantineReason(of: current($0)) != nil) }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.quarantineReason), type: .string,
                     annotations: [.documentation("Why the app is quarantined, or an empty string.")],
                     getAt: { [weak self] in .string(try self?.quarantineReason(of: current($0)) ?? "") }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.lastLoadError), type: .string,
                     annotations: [.documentation(
                        "Why the last load of the app's plugin failed, or an empty string (never failed, or loaded since).")],
                     getAt: { [weak self] in .string(self?.status.lastLoadError(of: try Self.appID(at: $0)) ?? "") }),
            Property(MemberName(stringLiteral: BrokerAPI.Property.hostPID), type: .uint32,
                     annotations: [.documentation(
                        "The process id of the host process running the app's plugin while one runs; 0 when none runs or the plugin runs in the broker's own process.")],
                     getAt: { [weak self] path in
                let id = try Self.appID(at: path)
                return .uint32(UInt32(bitPattern: self?.slots.withLock({ $0[id] })?.executor.hostProcessID ?? 0))
            }),
        ]
    }

    /// The names announced with PropertiesChanged when an app's bundle is re-read.
    /// The Application1 properties read from the bundle, announced when it changes.
    static let bundlePropertyNames: [MemberName] = [
        BrokerAPI.Property.name, BrokerAPI.Property.icon, BrokerAPI.Property.version, BrokerAPI.Property.languages,
        BrokerAPI.Property.displayNames, BrokerAPI.Property.desktopEntry,
    ].map { MemberName(stringLiteral: $0) }

    static let bundleStatusPropertyNames: [MemberName] = [
        MemberName(stringLiteral: BrokerAPI.Property.bundlePath),
        MemberName(stringLiteral: BrokerAPI.Property.quarantined),
        MemberName(stringLiteral: BrokerAPI.Property.quarantineReason),
    ]

    /// Why `app` is quarantined for its current library, or nil.
    func quarantineReason(of app: AppSnapshot) -> String? {
        guard let bundle = app.bundle else { return nil }
        let library = Quarantine.fingerprint(bundle.identity.executable)
        guard let crashes = quarantine.withLock({ $0.quarantined(app.id, library: library) }) else { return nil }
        return "it crashed the broker \(crashes) times; replace \(bundle.executableURL.path) to try it again"
    }

    /// Records a load's outcome (`error` nil for success) and announces a
    /// changed LastLoadError.
    func recordLoad(of appID: String, error: String?) {
        guard status.recordLoad(of: appID, error: error) else { return }
        try? connection.emitPropertiesChanged(
            path: BrokerAPI.appPath(appID), interface: Self.applicationInterfaceName,
            names: [MemberName(stringLiteral: BrokerAPI.Property.lastLoadError)])
    }

    /// The folders of `paths` that are not there (or not folders).
    static func missing(_ paths: [String]) -> [String] {
        paths.filter { path in
            var isDirectory: ObjCBool = false
            return !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) || !isDirectory.boolValue
        }
    }
}
