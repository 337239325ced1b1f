import Foundation
import QuickActionsTestSupport

/// The contacts example assembled by `quickactions-bundle`, a real quickactionsd (with its
/// search bridges) on a private bus reading it, and the contacts plugin loaded so its two
/// favorites (Mia Schneider, Emma Wagner) are published.
struct SearchBroker {
    static let contacts = "com.example.contacts"
    static let search = "org.quickactions.Search1"
    static let gnomeShellPath = "/org/quickactions/Search1/GnomeShell"
    static let krunnerPath = "/org/quickactions/Search1/KRunner"

    let plugins: URL
    let harness: BrokerHarness

    init(examples: [String] = ["Contacts"], arguments: [String] = [], environment: [String: String] = [:]) async throws {
        plugins = try TemporaryDirectory.make(prefix: "qa-search-plugins")
        do {
            // No examples (the item providers' tests): an empty plugin folder, nothing assembled.
            guard !examples.isEmpty else {
                harness = try await BrokerHarness(arguments: ["--plugins", plugins.path] + arguments, environment: environment)
                return
            }
            let assembled = try await Command.run(
                PackagePaths.executable("quickactions-bundle").path,
                ["--products", PackagePaths.products.path, "--source", PackagePaths.root.appendingPathComponent("plugins").path,
                 "--output", plugins.path] + examples, timeout: .seconds(120))
            guard assembled.status == 0 else { throw TestSupportError("quickactions-bundle failed: \(assembled)") }
            harness = try await BrokerHarness(arguments: ["--plugins", plugins.path] + arguments, environment: environment)
        } catch {
            try? FileManager.default.removeItem(at: plugins)
            throw error
        }
    }

    func stop() {
        harness.stop()
        try? FileManager.default.removeItem(at: plugins)
    }

    /// Loads the contacts plugin (its first Perform), which publishes the favorites.
    func loadContacts() async throws {
        let result = try await harness.call("Perform", "ssa{sv}", [Self.contacts, "SearchAction", "0"])
        guard result.status == 0 else { throw TestSupportError("Perform SearchAction failed: \(result)") }
        guard try await waitFor({ try await itemIDs(Self.contacts).count == 4 }) else {
            throw TestSupportError("the favorites were not published: \(try await itemIDs(Self.contacts))")
        }
    }

    /// Waits until the bridges own their name.
    func waitForSearch() async throws {
        guard try await waitFor({ try await harness.busctl(["status", Self.search]).status == 0 }) else {
            throw TestSupportError("\(Self.search) has no owner: \(harness.log)")
        }
    }

    /// (id, title) of an app's items in display order, or frecency order.
    func items(_ app: String, frecency: Bool = false) async throws -> [(id: String, title: String, frecency: Double)] {
        let options = frecency ? ["1", "order", "s", "frecency"] : ["0"]
        let result = try await harness.call("GetItems", "sa{sv}", [app] + options)
        guard result.status == 0,
              let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let items = (object["data"] as? [Any])?.first as? [[String: Any]] else {
            throw TestSupportError("GetItems failed: \(result)")
        }
        func field(_ item: [String: Any], _ key: String) -> Any? { (item[key] as? [String: Any])?["data"] }
        return items.map { ((field($0, "id") as? String) ?? "", (field($0, "title") as? String) ?? "",
                            (field($0, "frecency") as? Double) ?? 0) }
    }

    func itemIDs(_ app: String) async throws -> [String] { try await items(app).map(\.id) }

    /// The result id of the contacts item titled `title`: "<app id>/<item id>".
    func resultID(ofTitle title: String) async throws -> String {
        guard let item = try await items(Self.contacts).first(where: { $0.title == title }) else {
            throw TestSupportError("no contacts item titled \(title)")
        }
        return "\(Self.contacts)/\(item.id)"
    }

    /// The titles of the contacts items that have been used (uses in one second score alike,
    /// so their order is not compared).
    func usedTitles() async throws -> Set<String> {
        Set(try await items(Self.contacts, frecency: true).filter { $0.frecency > 0 }.map(\.title))
    }

    /// Runs /usr/bin/python3 with a script from Scripts/ and the bus address first.
    func python(_ script: String, _ arguments: [String], timeout: Duration = .seconds(60)) async throws -> CommandResult {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/\(script)").path
        return try await Command.run("/usr/bin/python3", [path, harness.bus.address] + arguments, timeout: timeout)
    }

    func gdbus(_ arguments: [String]) async throws -> CommandResult {
        try await Command.run("gdbus", ["call", "--address", harness.bus.address, "--dest", Self.search] + arguments)
    }

    func waitFor(timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return try await condition()
    }
}

/// The interface files the bridges implement, as their owners publish them in Debian
/// (scripts/fetch-interfaces.sh downloads and unpacks them into .build/official-interfaces).
enum OfficialInterfaces {
    static func file(package: String, path: String) async throws -> URL {
        let cache = PackagePaths.root.appendingPathComponent(".build/official-interfaces")
        let file = cache.appendingPathComponent(package).appendingPathComponent(path)
        if !FileManager.default.fileExists(atPath: file.path) { try await fetched.value }
        return file
    }

    /// One fetch per test run: tests side by side each ran the script into the same cache, and
    /// one read a package another was still unpacking ("gnome-shell-common has no …").
    private static let fetched = Task {
        let cache = PackagePaths.root.appendingPathComponent(".build/official-interfaces")
        let fetched = try await Command.run(
            PackagePaths.root.appendingPathComponent("scripts/fetch-interfaces.sh").path, [cache.path], timeout: .seconds(300))
        guard fetched.status == 0 else { throw TestSupportError("scripts/fetch-interfaces.sh failed: \(fetched)") }
    }

    static var gnomeShellSearchProvider2: URL {
        get async throws {
            try await file(package: "gnome-shell-common", path: "usr/share/dbus-1/interfaces/org.gnome.ShellSearchProvider2.xml")
        }
    }

    static var krunner1: URL {
        get async throws { try await file(package: "libkf5runner5", path: "usr/share/dbus-1/interfaces/kf5_org.kde.krunner1.xml") }
    }
}
