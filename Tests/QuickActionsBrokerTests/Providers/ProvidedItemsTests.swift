import DBus
import Foundation
import QuickActionsAPI
import QuickActionsTestSupport
import Synchronization
import Testing

/// Installed applications bring items through the broker's providers (issue 33), served as a
/// plugin's are: listed, performed, announced, merged with a bundle that names the same entry.
/// Each test has its own data folders (no host application is seen) and a recorder program
/// that the launched actions run (``DesktopWorld``).
@Suite struct ProvidedItemsTests {
    static func editor(_ world: DesktopWorld, extraAction: Bool = false) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=Editor
        Name[de]=Bearbeiter
        Icon=accessories-text-editor
        Exec=\(world.recorder.path) %U
        MimeType=text/plain;
        Actions=new-window;\(extraAction ? "private;" : "")

        [Desktop Action new-window]
        Name=New Window
        Name[de]=Neues Fenster
        Exec=\(world.recorder.path) --new-window "a b" "\\\\$(id)" "\\\\`id\\\\`" 100%%

        [Desktop Action private]
        Name=Private Window
        Icon=security-high
        Exec=\(world.recorder.path) --private
        """
    }

    func items(_ proxy: BrokerProxy, _ app: String, locale: String? = nil) async -> [ListedItem]? {
        try? await proxy.items(of: app, locale: locale)
    }

    @Test func anInstalledApplicationsActionsAreItsItemsAndPerformLaunchesThem() async throws {
        let world = try DesktopWorld(prefix: "qa-provided")
        defer { world.remove() }
        try world.entry("org.example.Editor.desktop", Self.editor(world))
        let harness = try await BrokerHarness(environment: world.environment())
        defer { harness.stop() }
        let proxy = BrokerProxy(connection: try Connection(.address(harness.bus.address)))
        #expect(await eventually { await items(proxy, "org.example.Editor")?.isEmpty == false }, "\(harness.log)")
        let listed = try #require(await items(proxy, "org.example.Editor"))
        #expect(listed.map(\.id) == ["new-window"])
        let item = try #require(listed.first)
        #expect(item.title == "New Window")
        #expect(item.icon == "accessories-text-editor", "the action has none: the app's")
        #expect(item.origin == ItemKey.Origin.static)
        #expect(item.provider == ItemKey.Provider.desktopActions)
        #expect(await items(proxy, "org.example.Editor", locale: "de_DE.UTF-8")?.first?.title == "Neues Fenster")
        let apps = try await proxy.applications()
        #expect(apps.first { $0.id == "org.example.Editor" }?.name == "Editor")

        let outcome = try await proxy.perform(appID: "org.example.Editor", type: item.type, itemID: item.id)
        #expect(outcome.success, "\(outcome)")
        #expect(outcome.message == "Started New Window (Editor)")
        // The spec's quoting, never a shell: "$(id)" and the backticks stay words, %% a percent.
        #expect(await eventually { world.recorded() != nil })
        let recorded = try #require(world.recorded())
        #expect(recorded.dropLast() == ["--new-window", "a b", "$(id)", "`id`", "100%"], "\(recorded)")
        // Status counts it.
        let status = try await harness.busctl(["get-property", BrokerHarness.busName, "/org/quickactions/Broker1",
                                               "org.quickactions.Broker1", "Providers"])
        #expect(status.stdout.contains("\"desktop-actions\" 1 1"), "\(status)")
    }

    @Test func entriesAddedEditedAndRemovedChangeTheAppsLive() async throws {
        let world = try DesktopWorld(prefix: "qa-provided")
        defer { world.remove() }
        let harness = try await BrokerHarness(environment: world.environment())
        defer { harness.stop() }
        let proxy = BrokerProxy(connection: try Connection(.address(harness.bus.address)))
        let changes = Counter()
        let subscription = try await proxy.onItemsChanged { app in if app == "org.example.Editor" { changes.add() } }
        defer { subscription.cancel() }
        // Each change is announced. The catalog changes at once and its signals follow from the
        // announcer's thread, which coalesces changes it has not sent yet (issue 33: "coalesced"),
        // so each step waits for its signal before the next.
        try world.entry("org.example.Editor.desktop", Self.editor(world))
        #expect(await eventually { await items(proxy, "org.example.Editor")?.count == 1 }, "\(harness.log)")
        #expect(await eventually { changes.value >= 1 }, "no ItemsChanged for the added app")
        try world.entry("org.example.Editor.desktop", Self.editor(world, extraAction: true))
        #expect(await eventually { await items(proxy, "org.example.Editor")?.map(\.id) == ["new-window", "private"] })
        #expect(await items(proxy, "org.example.Editor")?.last?.icon == "security-high")
        #expect(await eventually { changes.value >= 2 }, "no ItemsChanged for the edit")
        try FileManager.default.removeItem(at: world.applications.appendingPathComponent("org.example.Editor.desktop"))
        #expect(await eventually { (try? await proxy.applications())?.contains { $0.id == "org.example.Editor" } == false })
        #expect(await eventually { changes.value >= 3 }, "\(changes.value) ItemsChanged for the app")
    }

    @Test func aBundleNamingTheEntryIsThatApplicationWithItsPluginsItemsFirst() async throws {
        let world = try DesktopWorld(prefix: "qa-provided")
        defer { world.remove() }
        try world.entry("org.example.swift.desktop", Self.editor(world))
        var bundle = TestBundle(appID: "org.example.swift", name: "Swift Example",
                                items: [TestBundle.item("hello", "Hello")],
                                extraInfo: ["QuickActionsDesktopEntry": "org.example.swift.desktop"])
        bundle.version = "1.0"
        let harness = try await BrokerHarness(bundles: [bundle], environment: world.environment())
        defer { harness.stop() }
        let proxy = BrokerProxy(connection: try Connection(.address(harness.bus.address)))
        let merged = await eventually { await items(proxy, "org.example.swift")?.map(\.id) == ["hello", "new-window"] }
        let now = await items(proxy, "org.example.swift")
        #expect(merged, "\(String(describing: now))")
        let apps = try await proxy.applications()
        #expect(apps.filter { $0.id.hasPrefix("org.example.swift") }.map(\.id) == ["org.example.swift"])
        #expect(apps.first?.name == "Swift Example", "the bundle's name wins")
        let plugin = try await proxy.perform(appID: "org.example.swift", type: "hello", itemID: nil)
        #expect(plugin.success)
    }

    @Test func aProvidedPerformFailsWithTheReasonWhenTheProgramIsGone() async throws {
        let world = try DesktopWorld(prefix: "qa-provided")
        defer { world.remove() }
        try world.entry("org.example.Gone.desktop", """
            [Desktop Entry]
            Type=Application
            Name=Gone
            Exec=\(world.recorder.path)
            Actions=open;shell;

            [Desktop Action open]
            Name=Open
            Exec=/nonexistent/qa-program --open

            [Desktop Action shell]
            Name=Shell
            Exec=\(world.recorder.path) $(touch \(world.root.path)/pwned)
            """)
        let harness = try await BrokerHarness(environment: world.environment())
        defer { harness.stop() }
        let proxy = BrokerProxy(connection: try Connection(.address(harness.bus.address)))
        #expect(await eventually { await items(proxy, "org.example.Gone")?.count == 2 }, "\(harness.log)")
        let outcome = try await proxy.perform(appID: "org.example.Gone", type: "org.freedesktop.DesktopAction.open", itemID: "open")
        #expect(!outcome.success)
        #expect(outcome.message?.contains("/nonexistent/qa-program") == true, "\(outcome)")
        // An unquoted $( is malformed by the specification: refused naming the entry and the text,
        // and nothing runs it.
        let shell = try await proxy.perform(appID: "org.example.Gone", type: "org.freedesktop.DesktopAction.shell", itemID: "shell")
        #expect(!shell.success)
        #expect(shell.message?.contains("org.example.Gone.desktop") == true && shell.message?.contains("$(touch") == true,
                "\(shell)")
        #expect(!FileManager.default.fileExists(atPath: world.root.appendingPathComponent("pwned").path))
        #expect(world.recorded() == nil)
    }

    /// A desktop file id need not be reverse-DNS ("firefox-esr"): such an app is listed,
    /// performed, at its escaped object path, and its usage can be forgotten by that id.
    @Test func anAppIDThatIsNotReverseDNSIsServedLikeAnyOther() async throws {
        let world = try DesktopWorld(prefix: "qa-provided")
        defer { world.remove() }
        try world.entry("texteditor-esr.desktop", Self.editor(world))
        let harness = try await BrokerHarness(environment: world.environment())
        defer { harness.stop() }
        let proxy = BrokerProxy(connection: try Connection(.address(harness.bus.address)))
        #expect(await eventually { await items(proxy, "texteditor-esr")?.count == 1 }, "\(harness.log)")
        let outcome = try await proxy.perform(appID: "texteditor-esr", type: "org.freedesktop.DesktopAction.new-window",
                                              itemID: "new-window")
        #expect(outcome.success, "\(outcome)")
        let name = try await harness.busctl(["get-property", BrokerHarness.busName,
                                             BrokerAPI.appPath("texteditor-esr").rawValue, "org.quickactions.Application1", "Name"])
        #expect(name.stdout.contains("\"Editor\""), "\(name)")
        let forgotten = try await harness.call("ForgetUsage", "s", ["texteditor-esr"])
        #expect(forgotten.status == 0 && forgotten.stdout.contains("\"data\":[1]"), "\(forgotten)")
    }

    @Test func theProvidersCanBeTurnedOffByFlagAndBySettingsFile() async throws {
        let world = try DesktopWorld(prefix: "qa-provided")
        defer { world.remove() }
        try world.entry("org.example.Editor.desktop", Self.editor(world))
        let off = try await BrokerHarness(arguments: ["--no-desktop-actions"], environment: world.environment())
        let status = try await off.busctl(["get-property", BrokerHarness.busName, "/org/quickactions/Broker1",
                                           "org.quickactions.Broker1", "Providers"])
        #expect(!status.stdout.contains("desktop-actions") && status.stdout.contains("recent-documents"), "\(status)")
        off.stop()

        let settings = world.configHome.appendingPathComponent("quickactions")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        try Data("[Providers]\nmedia-players=false\n".utf8).write(to: settings.appendingPathComponent("quickactionsd.conf"))
        let filed = try await BrokerHarness(environment: world.environment())
        let fromFile = try await filed.busctl(["get-property", BrokerHarness.busName, "/org/quickactions/Broker1",
                                               "org.quickactions.Broker1", "Providers"])
        #expect(fromFile.stdout.contains("desktop-actions") && !fromFile.stdout.contains("media-players"), "\(fromFile)")
        filed.stop()
    }
}

/// A count several threads add to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
