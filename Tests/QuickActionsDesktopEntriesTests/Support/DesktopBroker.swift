import Foundation
import QuickActionsTestSupport

/// A real `quickactionsd` on a private bus, with its desktop-entry bridge writing into
/// temporary XDG data folders: `home` ($XDG_DATA_HOME) and `system` ($XDG_DATA_DIRS, where
/// tests install "package" originals). The Contacts example is assembled by
/// `quickactions-bundle` as `make plugins` does; test bundles go beside it.
final class DesktopBroker: @unchecked Sendable {
    // @unchecked Sendable: the stored properties are set in init and never change.
    static let contacts = "com.example.contacts"
    static let titles = "org.example.titles"

    let root: URL
    let home: URL
    let system: URL
    let examples: URL
    let harness: BrokerHarness

    /// - Parameters:
    ///   - bundles: test bundles beside the Contacts example.
    ///   - originals: desktop file name → text, installed in `system/applications` first.
    ///   - userFiles: desktop file name → text, in `home/applications` before the broker starts
    ///     (a name with a folder, such as `.quickactions/x`, makes the folder).
    ///   - homeAlsoInDataDirs: lists a symlink to `home` first in $XDG_DATA_DIRS, as some
    ///     sessions do, so the bridge meets its own copies there.
    ///   - arguments, environment: for quickactionsd.
    init(
        bundles: [TestBundle] = [], originals: [String: String] = [:], userFiles: [String: String] = [:],
        homeAlsoInDataDirs: Bool = false, arguments: [String] = [],
        environment: [String: String] = [:]
    ) async throws {
        root = try TemporaryDirectory.make(prefix: "qa-desktop")
        home = root.appendingPathComponent("home")
        system = root.appendingPathComponent("system")
        examples = root.appendingPathComponent("examples")
        do {
            try FileManager.default.createDirectory(at: system.appendingPathComponent("applications"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: home.appendingPathComponent("applications"), withIntermediateDirectories: true)
            for (name, text) in userFiles {
                let file = home.appendingPathComponent("applications/\(name)")
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
            for (name, text) in originals { try Self.install(name, text, in: system) }
            let assembled = try await Command.run(
                PackagePaths.executable("quickactions-bundle").path,
                ["--products", PackagePaths.products.path, "--source", PackagePaths.root.appendingPathComponent("plugins").path,
                 "--output", examples.path, "Contacts"], timeout: .seconds(120))
            guard assembled.status == 0 else { throw TestSupportError("quickactions-bundle failed: \(assembled)") }
            var env = environment
            env["XDG_DATA_HOME"] = home.path
            env["XDG_DATA_DIRS"] = system.path
            if homeAlsoInDataDirs {
                let alias = root.appendingPathComponent("home-alias")
                try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: home)
                env["XDG_DATA_DIRS"] = alias.path + ":" + system.path
            }
            // Empty is as good as unset (the bridge is on by default); naming it keeps the
            // harness from turning the bridge off.
            if env["QUICKACTIONS_DESKTOP_ENTRIES"] == nil { env["QUICKACTIONS_DESKTOP_ENTRIES"] = "" }
            // The search bridges have connections of their own; these tests count the broker's.
            harness = try await BrokerHarness(
                bundles: bundles, arguments: ["--plugins", examples.path, "--no-search"] + arguments, environment: env)
        } catch {
            try? FileManager.default.removeItem(at: root)
            throw error
        }
    }

    func stop() {
        harness.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// Writes an original as a package would: a new file renamed over the old.
    func installOriginal(_ name: String, _ text: String) throws {
        try Self.install(name, text, in: system)
    }

    private static func install(_ name: String, _ text: String, in system: URL) throws {
        try text.write(to: system.appendingPathComponent("applications/\(name)"), atomically: true, encoding: .utf8)
    }

    func removeOriginal(_ name: String) throws {
        try FileManager.default.removeItem(at: system.appendingPathComponent("applications/\(name)"))
    }

    /// The user's copy of desktop file `name`.
    func userPath(_ name: String) -> String { home.appendingPathComponent("applications/\(name)").path }

    func userFile(_ name: String) -> String? { try? String(contentsOfFile: userPath(name), encoding: .utf8) }

    /// An environment for GLib in python: these folders, this bus, the built CLI on PATH.
    func gioEnvironment(language: String = "C") -> [String: String] {
        let path = PackagePaths.products.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return EntryTools.environment(home: home.path, dirs: [system.path], language: language, bus: harness.bus.address, path: path)
    }

    /// Perform(app, type, {arguments}) through busctl; the reply as busctl prints it.
    @discardableResult
    func perform(_ app: String, _ type: String, arguments: [(String, String, String)] = []) async throws -> CommandResult {
        let options = arguments.isEmpty ? ["0"] : ["1", "arguments", "a{sv}", "\(arguments.count)"] + arguments.flatMap { [$0.0, $0.1, $0.2] }
        let result = try await harness.call("Perform", "ssa{sv}", [app, type] + options)
        guard result.status == 0 else { throw TestSupportError("Perform \(app) \(type) failed: \(result)") }
        return result
    }

    /// How many connections the broker's process has on the bus (busctl list, by pid).
    func connectionsOfTheBroker() async throws -> Int {
        guard let pid = harness.process.pid else { throw TestSupportError("the broker has no pid") }
        let result = try await harness.busctl(["list", "--json=short", "--unique"])
        guard result.status == 0, let peers = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw TestSupportError("busctl list: \(result)")
        }
        return peers.filter { ($0["pid"] as? Int) == Int(pid) }.count
    }

    /// The icons of an app's items as GetItems lists them (busctl), in order.
    func listedIcons(_ app: String) async throws -> [String?] {
        let result = try await harness.call("GetItems", "sa{sv}", [app, "0"])
        guard result.status == 0,
              let reply = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let items = (reply["data"] as? [Any])?.first as? [[String: Any]]
        else { throw TestSupportError("GetItems: \(result)") }
        return items.map { ($0["icon"] as? [String: Any])?["data"] as? String }
    }

    /// Makes the Titles plugin publish one dynamic item per title.
    func setTitles(_ titles: [String]) async throws {
        let json = String(decoding: try JSONEncoder().encode(titles), as: UTF8.self)
        try await perform(Self.titles, "set", arguments: [("titles", "s", json)])
    }

    /// Waits (polling, at most `timeout`) until `condition` holds; throws with `what` otherwise.
    func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw TestSupportError("timed out waiting until \(what); the broker's log:\n\(harness.log)")
    }

    /// Waits until the user's copy of `name` exists and satisfies `condition`; returns its text.
    @discardableResult
    func waitForFile(_ name: String, _ what: String, _ condition: (String) -> Bool = { _ in true }) async throws -> String {
        try await waitUntil("\(name) \(what)") { userFile(name).map(condition) ?? false }
        return userFile(name) ?? ""
    }

    /// The Titles test bundle: static item "set", hostile dynamic items, a German table.
    static func titlesBundle(desktopEntry: String? = nil) -> TestBundle {
        var bundle = TestBundle(
            appID: titles, library: "QATestTitles", name: "Titles", items: [TestBundle.item("set", "Set titles")],
            strings: ["de": "\"Set titles\" = \"Titel setzen\";\n"])
        if let desktopEntry { bundle.extraInfo["QuickActionsDesktopEntry"] = desktopEntry }
        return bundle
    }

    /// An original as a package installs it.
    static func original(name: String, extra: String = "") -> String {
        """
        # Installed by a package.
        [Desktop Entry]
        Type=Application
        Name=\(name)
        Comment=An application
        Exec=true %U
        Icon=applications-other
        Categories=Utility;
        \(extra)
        """
    }
}
