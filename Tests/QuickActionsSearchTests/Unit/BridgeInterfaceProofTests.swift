import DBus
import Foundation
import QuickActionsAPI
import QuickActionsSearch
import QuickActionsTestSupport
import Testing

/// For every method the search bridges export, its introspection (as GDBus
/// reads it), its declared signature and what its handler decodes are one
/// (InterfaceProof); and the declarations are the interfaces exactly as
/// their owners publish them (KDE's org.kde.krunner1 and gnome-shell's
/// SearchProvider2 files in .build/official-interfaces).
@Suite struct BridgeInterfaceProofTests {
    struct Bridge: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable (Connection) -> Interface
        var testDescription: String { name }
    }

    static let bridges: [Bridge] = [
        Bridge(name: "KRunner org.kde.krunner1") { connection in
            KRunnerRunner(catalog: SearchCatalog(proxy: BrokerProxy(connection: connection)),
                          matcher: SearchMatcher(locale: Locale(identifier: "en_US")),
                          notifier: DesktopNotifier(connection: connection, log: .silent), log: .silent).interface()
        },
        Bridge(name: "GNOME Shell org.gnome.Shell.SearchProvider2") { connection in
            GnomeShellSearchProvider(catalog: SearchCatalog(proxy: BrokerProxy(connection: connection)),
                                     matcher: SearchMatcher(locale: Locale(identifier: "en_US")), log: .silent).interface()
        },
        Bridge(name: "dock com.canonical.dbusmenu") { connection in
            DbusMenu(path: "/org/quickactions/Proof/Menu", connection: connection) { _, _ in }.interface()
        },
    ]

    @Test(arguments: bridges)
    func everyMethodIsTypedAndAgreesWithItsIntrospection(_ bridge: Bridge) async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let connection = try Connection(.address(bus.address))
        defer { connection.close() }
        let interface = bridge.make(connection)
        #expect(!interface.methods.isEmpty)
        let problems = try await InterfaceProof.problems(interface, bus: bus)
        #expect(problems == [], "\(interface.name.rawValue)")
    }

    /// Each declared method as "method Name(in s query, out a(sssida{sv}) matches)", the form
    /// InterfaceMembers reads from an interface file.
    static func declaredMethods(_ interface: Interface) -> Set<String> {
        Set(interface.methods.map { method in
            let arguments = method.inputs.map { "in \($0.type.signature) \($0.name)" }
                + method.outputs.map { "out \($0.type.signature) \($0.name)" }
            return "method \(method.name.rawValue)(\(arguments.joined(separator: ", ")))"
        })
    }

    static func officialMethods(_ name: String, in file: URL) throws -> Set<String> {
        try InterfaceMembers.of(name, inXML: try String(contentsOf: file, encoding: .utf8)).filter { $0.hasPrefix("method ") }
    }

    @Test func theKRunnerDeclarationIsKDEsInterface() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let connection = try Connection(.address(bus.address))
        defer { connection.close() }
        let declared = Self.declaredMethods(try #require(Self.bridges.first).make(connection))
        let kf5 = try Self.officialMethods("org.kde.krunner1", in: try await OfficialInterfaces.krunner1)
        #expect(kf5.count == 5, "\(kf5)")
        // KF5's file spells Config's a{sv} (QVariantMap) as "{sv}", which is no D-Bus type;
        // SetActivationToken is Plasma 6's one addition.
        let expected = Set(kf5.map { $0.replacingOccurrences(of: "out {sv} config", with: "out a{sv} config") })
            .union(["method SetActivationToken(in s token)"])
        #expect(declared == expected,
                "declared only: \(declared.subtracting(expected)); KDE's only: \(expected.subtracting(declared))")
    }

    @Test func theGnomeShellDeclarationIsGnomeShellsInterface() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let connection = try Connection(.address(bus.address))
        defer { connection.close() }
        let declared = Self.declaredMethods(Self.bridges[1].make(connection))
        let official = try Self.officialMethods(
            "org.gnome.Shell.SearchProvider2", in: try await OfficialInterfaces.gnomeShellSearchProvider2)
        #expect(official.count == 5, "\(official)")
        #expect(declared == official,
                "declared only: \(declared.subtracting(official)); gnome-shell's only: \(official.subtracting(declared))")
    }
}
