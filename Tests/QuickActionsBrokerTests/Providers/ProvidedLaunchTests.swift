import DBus
import Foundation
import Glibc
import QuickActionsAPI
import QuickActionsTestSupport
import Testing

/// What a provider's Perform starts, seen from outside the broker (issue 33): a launched app
/// is detached and outlives the broker; a recent document reaches its app as a `file://` URI,
/// and the two ways that cannot work fail saying why.
@Suite struct ProvidedLaunchTests {
    func items(_ proxy: BrokerProxy, _ app: String) async -> [ListedItem] {
        (try? await proxy.items(of: app)) ?? []
    }

    /// The session id of `pid` (getsid), nil when it is gone. (A double-forked launch is in the
    /// session its first child made, so it is not the session's leader itself.)
    static func session(of pid: pid_t) -> pid_t? {
        let sid = getsid(pid)
        return sid < 0 ? nil : sid
    }

    /// Whether `pid` runs and is not a zombie.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0,
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// The parent pid of `pid` from /proc/<pid>/stat.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    @Test func aLaunchedAppOutlivesTheBrokerInASessionOfItsOwn() async throws {
        let world = try DesktopWorld(prefix: "qa-outlives")
        defer { world.remove() }
        try world.entry("org.example.Long.desktop", world.editor(name: "Long", actionExec: world.longRunner.path))
        let harness = try await BrokerHarness(environment: world.environment())
        var brokerStopped = false
        defer { if !brokerStopped { harness.stop() } }
        // Whatever happens below, the launched app does not outlive the test.
        defer { if let pid = world.longRunnerPID() { kill(pid, SIGKILL) } }
        let proxy = BrokerProxy(connection: try Connection(.address(harness.bus.address)))
        #expect(await eventually { await items(proxy, "org.example.Long").contains { $0.id == "new-window" } },
                "\(harness.log)")
        let outcome = try await proxy.perform(
            appID: "org.example.Long", type: "org.freedesktop.DesktopAction.new-window", itemID: "new-window")
        #expect(outcome.success, "\(outcome)")
        #expect(await eventually { world.longRunnerPID() != nil }, "the long runner never wrote its pid: \(harness.log)")
        let launched = try #require(world.longRunnerPID())
        let broker = try #require(harness.process.pid)
        let brokerSession = try #require(Self.session(of: broker))
        #expect(Self.session(of: launched) != brokerSession, "the launched app is in the broker's session")
        #expect(Self.parent(of: launched) != broker, "the launched app is the broker's child")

        proxy.connection.close()
        harness.process.stop()
        #expect(harness.process.waitForExit() != nil, "the broker did not stop")
        #expect(!Self.isAlive(broker))
        #expect(Self.isAlive(launched), "the launched app (pid \(launched)) went with the broker")
        harness.stop()
        brokerStopped = true
        #expect(Self.isAlive(launched), "the launched app (pid \(launched)) went with the bus")
    }

    /// The editor (`Exec=<recorder> %U`), a tool whose Exec takes no file, and two documents
    /// both used by the recorder program, written to recently-used.xbel by GLib.
    struct Documents {
        let world: DesktopWorld
        let harness: BrokerHarness
        let proxy: BrokerProxy
        let notes: URL
        let draft: URL

        init() async throws {
            world = try DesktopWorld(prefix: "qa-recent-perform")
            do {
                try world.entry("org.example.Editor.desktop", world.editor())
                // Its Exec names the same program, so the bookmarks are its too; it takes no file.
                try world.entry("org.example.Tool.desktop", """
                    [Desktop Entry]
                    Type=Application
                    Name=Tool
                    Exec=\(world.recorder.path) --tool

                    """)
                notes = try world.document("notes.txt")
                draft = try world.document("draft.txt")
                harness = try await BrokerHarness(environment: world.environment())
            } catch {
                world.remove()
                throw error
            }
            proxy = BrokerProxy(connection: try Connection(.address(harness.bus.address)))
            try await world.recentlyUsed([notes, draft], by: world.recorder.path, name: "Recorder", into: harness.bus.dataHome)
        }

        func stop() {
            proxy.connection.close()
            harness.stop()
            world.remove()
        }

        func documents(_ app: String) async -> [ListedItem] {
            ((try? await proxy.items(of: app)) ?? []).filter { $0.provider == ItemKey.Provider.recentDocuments }
        }
    }

    @Test func aRecentDocumentsPerformGivesItsAppTheFileURI() async throws {
        let fixture = try await Documents()
        defer { fixture.stop() }
        #expect(await eventually { await fixture.documents("org.example.Editor").count == 2 }, "\(fixture.harness.log)")
        let listed = await fixture.documents("org.example.Editor")
        #expect(listed.map(\.title) == ["notes.txt", "draft.txt"], "most recent first: \(listed)")
        #expect(listed.first?.subtitle == "~/Documents", "\(listed)")
        let notes = try #require(listed.first)
        let outcome = try await fixture.proxy.perform(appID: "org.example.Editor", type: notes.type, itemID: notes.id)
        #expect(outcome.success, "\(outcome)")
        #expect(await eventually { fixture.world.recorded() != nil })
        let recorded = try #require(fixture.world.recorded())
        #expect(recorded.dropLast() == [fixture.notes.absoluteString], "\(recorded)")
        #expect(recorded.first?.hasPrefix("file:///") == true, "%U is a URI: \(recorded)")
    }

    @Test func aDocumentDeletedSinceListingFailsNamingIt() async throws {
        let fixture = try await Documents()
        defer { fixture.stop() }
        #expect(await eventually { await fixture.documents("org.example.Editor").count == 2 }, "\(fixture.harness.log)")
        let draft = try #require(await fixture.documents("org.example.Editor").first { $0.title == "draft.txt" })
        try FileManager.default.removeItem(at: fixture.draft)
        let outcome = try await fixture.proxy.perform(appID: "org.example.Editor", type: draft.type, itemID: draft.id)
        // The item may be gone already (the provider may have noticed): then UnknownItem; else a failure naming it.
        #expect(!outcome.success, "\(outcome)")
        #expect(outcome.message?.contains("draft.txt") == true, "\(outcome)")
        #expect(fixture.world.recorded() == nil, "nothing was launched")
    }

    @Test func anAppWhoseExecTakesNoFileFailsSayingSo() async throws {
        let fixture = try await Documents()
        defer { fixture.stop() }
        #expect(await eventually { await fixture.documents("org.example.Tool").count == 2 }, "\(fixture.harness.log)")
        let notes = try #require(await fixture.documents("org.example.Tool").first)
        let outcome = try await fixture.proxy.perform(appID: "org.example.Tool", type: notes.type, itemID: notes.id)
        #expect(!outcome.success, "\(outcome)")
        #expect(outcome.message == "Tool does not open files (its Exec has no %f, %F, %u or %U)", "\(outcome)")
        #expect(fixture.world.recorded() == nil, "nothing was launched")
    }
}
