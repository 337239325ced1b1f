import DBus
import Foundation
import Glibc
import Locking
import QuickActionsDesktopEntries
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// D-Bus activation and systemd scopes, on a private bus with python3 peers
/// (Scripts/fake_application.py) that record every call; never the host's session bus.
@Suite struct ApplicationActivationTests {
    /// A private bus, a connection to it, and the fake peers owning `names`.
    final class Peers: @unchecked Sendable {
        // @unchecked Sendable: set in init, never changed.
        let bus: TestBus
        let connection: Connection
        let log: URL
        private let process: ManagedProcess

        init(_ names: [String]) async throws {
            bus = try await TestBus()
            log = bus.directory.appendingPathComponent("calls.jsonl")
            let script = PackagePaths.root.appendingPathComponent("Tests/QuickActionsDesktopEntriesTests/Scripts/fake_application.py").path
            process = try ManagedProcess("/usr/bin/python3", [script, bus.address, log.path] + names, directory: bus.directory, name: "fake-application")
            connection = try Connection(.address(bus.address))
            let ready = await eventually(.seconds(20)) { process.standardOutput.contains("ready") || !process.isRunning }
            guard ready, process.isRunning else {
                let error = process.standardError
                stop()
                throw TestSupportError("fake_application.py did not start: \(error)")
            }
        }

        deinit { stop() }

        func stop() {
            connection.close()
            process.stop()
            bus.stop()
        }

        struct Call: Decodable, Equatable, Sendable {
            var name: String
            var path: String
            var member: String
            var args: [JSONValue]
        }

        var calls: [Call] {
            guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Call.self, from: Data($0.utf8)) }
        }
    }

    /// Enough of JSON to compare what the peers recorded.
    enum JSONValue: Decodable, Equatable, Sendable {
        case string(String), number(Double), bool(Bool), array([JSONValue]), object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
            else { self = .object(try container.decode([String: JSONValue].self)) }
        }
    }

    static let tokens = LaunchContext(activationToken: "token-1", startupID: "startup-1")
    static let platformData = JSONValue.object(["activation-token": .string("token-1"), "desktop-startup-id": .string("startup-1")])

    static func activatable(_ desktopID: String) -> InstalledApplication {
        LaunchWorld.app(
            exec: "qa-must-not-run", desktopID: desktopID, dbusActivatable: true,
            actions: [
                DesktopAction(id: "new-window", name: "New Window"),
                DesktopAction(id: "fail", name: "Fail"),
            ])
    }

    @Test func activateOpenAndActivateActionGoToTheDesktopIDsNameAndPathWithThePlatformData() async throws {
        let peers = try await Peers(["org.example.my-app"])
        defer { peers.stop() }
        let launcher = ApplicationLauncher(connection: peers.connection, environment: [:], log: { _ in })
        let app = Self.activatable("org.example.my-app.desktop")

        #expect(await launcher.launch(app, action: nil, uris: [], context: Self.tokens) == .succeeded("Started Text Editor"))
        #expect(await launcher.launch(app, action: nil, uris: ["file:///tmp/a%20b.txt"], context: Self.tokens) == .succeeded("Started Text Editor"))
        #expect(await launcher.launch(app, action: "new-window", uris: [], context: Self.tokens) == .succeeded("Started New Window (Text Editor)"))
        #expect(await launcher.launch(app, action: "new-window", uris: [], context: LaunchContext()).success)

        let calls = peers.calls
        #expect(calls.map(\.name) == Array(repeating: "org.example.my-app", count: 4))
        #expect(calls.map(\.path) == Array(repeating: "/org/example/my_app", count: 4))
        #expect(calls.map(\.member) == ["Activate", "Open", "ActivateAction", "ActivateAction"])
        #expect(calls.first?.args == [Self.platformData])
        #expect(calls.dropFirst().first?.args == [.array([.string("file:///tmp/a%20b.txt")]), Self.platformData])
        #expect(calls.dropFirst(2).first?.args == [.string("new-window"), .array([]), Self.platformData])
        #expect(calls.last?.args == [.string("new-window"), .array([]), .object([:])])
    }

    @Test func theApplicationsErrorIsTheFailureWithItsNameAndMessage() async throws {
        let peers = try await Peers(["org.example.Editor"])
        defer { peers.stop() }
        let launcher = ApplicationLauncher(connection: peers.connection, environment: [:], log: { _ in })
        let outcome = await launcher.launch(Self.activatable("org.example.Editor.desktop"), action: "fail", uris: [], context: LaunchContext())
        #expect(!outcome.success)
        #expect(outcome.message.contains("org.example.Error.Refused"))
        #expect(outcome.message.contains("the action fail always fails"))
    }

    @Test func anApplicationNobodyServesIsTheBussError() async throws {
        let peers = try await Peers([])
        defer { peers.stop() }
        let launcher = ApplicationLauncher(connection: peers.connection, environment: [:], log: { _ in })
        let outcome = await launcher.launch(Self.activatable("org.example.Absent.desktop"), action: nil, uris: [], context: LaunchContext())
        #expect(!outcome.success)
        #expect(outcome.message.contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(outcome.message)")
    }

    @Test func underASystemdUserManagerALaunchedAppGetsATransientScopeOfItsOwn() async throws {
        let peers = try await Peers(["org.freedesktop.systemd1"])
        defer { peers.stop() }
        let world = try LaunchWorld()
        defer { world.stop() }
        let logged = LockedLines()
        let launcher = ApplicationLauncher(connection: peers.connection, environment: world.environment, log: logged.append)
        let app = LaunchWorld.app(exec: "qa-app", desktopID: "org.example.my-app.desktop")
        #expect(await launcher.launch(app, action: nil, uris: [], context: LaunchContext()) == .succeeded("Started Text Editor"))
        let record = try #require(await world.records(count: 1).first)
        let call = try #require(peers.calls.first)
        #expect(call.member == "StartTransientUnit")
        #expect(call.args.first == .string("app-quickactions-org.example.my\\x2dapp-\(record.pid).scope"))
        #expect(call.args.dropFirst().first == .string("fail"))
        guard call.args.count > 2, case .array(let properties) = call.args[2] else {
            Issue.record("no properties in \(call.args)")
            return
        }
        #expect(properties.contains(.array([.string("PIDs"), .array([.number(Double(record.pid))])])))
        #expect(properties.contains(.array([.string("CollectMode"), .string("inactive-or-failed")])))
        #expect(call.args.last == .array([]))
        #expect(logged.lines.contains { $0.contains("app-quickactions-") })
    }

    @Test func withoutASystemdUserManagerTheAppIsAPlainDetachedProcess() async throws {
        let peers = try await Peers([])
        defer { peers.stop() }
        let world = try LaunchWorld()
        defer { world.stop() }
        let launcher = ApplicationLauncher(connection: peers.connection, environment: world.environment, log: { _ in })
        #expect(await launcher.launch(LaunchWorld.app(exec: "qa-app"), action: nil, uris: [], context: LaunchContext()).success)
        #expect(await world.records(count: 1).count == 1)
        #expect(peers.calls.isEmpty)
    }
}

/// Log lines gathered from any thread.
final class LockedLines: Sendable {
    private let storage = Locked<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    var append: @Sendable (String) -> Void { { [storage] line in storage.withLock { $0.append(line) } } }
}
