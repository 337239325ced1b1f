import DBus
import Foundation
import Glibc
import QuickActionsTestSupport

/// A broker among installed applications (issue 33 §6): a private HOME, XDG_DATA_HOME,
/// XDG_CONFIG_HOME, XDG_STATE_HOME and XDG_CACHE_HOME in the work folder, and an XDG_DATA_DIRS
/// of one folder holding `entries` generated desktop entries (``InstalledEntriesGenerator``),
/// so nothing of the host's is read. Brokers start with no plugin bundles and no
/// desktop-entry bridge, with the item providers on or (`QUICKACTIONS_PROVIDERS=0`) off.
struct ProviderRig {
    let benchmark: BrokerBenchmark
    let entries: Int
    /// Bookmarks in `$XDG_DATA_HOME/recently-used.xbel` (0: no file).
    let bookmarks: Int
    let root: URL

    init(benchmark: BrokerBenchmark, entries: Int, bookmarks: Int) throws(BenchError) {
        self.benchmark = benchmark
        self.entries = entries
        self.bookmarks = bookmarks
        root = benchmark.work.appendingPathComponent("providers-\(entries)-\(bookmarks)", isDirectory: true)
        guard !FileManager.default.fileExists(atPath: root.path) else { return }
        for folder in [home, configHome, stateHome, cacheHome, dataHome, plugins] { try benchmark.makeFolder(folder) }
        benchmark.progress("providers: writing \(entries) desktop entries"
            + (bookmarks > 0 ? " and \(bookmarks) bookmarks" : ""))
        try InstalledEntriesGenerator.write(count: entries, into: dataDirs)
        if bookmarks > 0 {
            try InstalledEntriesGenerator.writeBookmarks(
                count: bookmarks, apps: entries, documents: home.appendingPathComponent("Documents", isDirectory: true),
                to: dataHome.appendingPathComponent("recently-used.xbel"))
        }
    }

    var home: URL { root.appendingPathComponent("home", isDirectory: true) }
    var dataHome: URL { home.appendingPathComponent(".local/share", isDirectory: true) }
    var configHome: URL { home.appendingPathComponent(".config", isDirectory: true) }
    var stateHome: URL { home.appendingPathComponent(".local/state", isDirectory: true) }
    var cacheHome: URL { home.appendingPathComponent(".cache", isDirectory: true) }
    var dataDirs: URL { root.appendingPathComponent("data-dirs", isDirectory: true) }
    /// An empty plugin folder: the apps are the providers' alone.
    var plugins: URL { root.appendingPathComponent("plugins", isDirectory: true) }

    func environment(providers: Bool) -> [String: String] {
        var environment = benchmark.bus.environment([
            "HOME": home.path,
            "XDG_DATA_HOME": dataHome.path,
            "XDG_CONFIG_HOME": configHome.path,
            "XDG_STATE_HOME": stateHome.path,
            "XDG_CACHE_HOME": cacheHome.path,
            "XDG_DATA_DIRS": dataDirs.path,
        ])
        environment.removeValue(forKey: "XDG_CURRENT_DESKTOP")
        if providers {
            environment.removeValue(forKey: "QUICKACTIONS_PROVIDERS")
        } else {
            environment["QUICKACTIONS_PROVIDERS"] = "0"
        }
        return environment
    }

    /// Spawns a broker; the caller waits for its name.
    func spawn(providers: Bool, label: String) throws(BenchError) -> ManagedProcess {
        let command = try benchmark.brokerCommand(plugins: [plugins], label: label)
        do {
            return try ManagedProcess(command[0], Array(command.dropFirst()), environment: environment(providers: providers),
                                      directory: benchmark.work, name: label)
        } catch {
            throw .subject(name: label, reason: "cannot start \(command[0]): \(error)")
        }
    }

    /// Calls GetAllItems until the reply lists `apps` apps (every 2 ms, up to `timeout`) and
    /// returns when that reply arrived (monotonicNanoseconds) and its app and item counts.
    func waitUntilListed(
        apps: Int, process: ManagedProcess, label: String, timeout: Duration = .seconds(60)
    ) throws(BenchError) -> (at: UInt64, apps: Int, items: Int) {
        let template = CallTemplate.getAllItems(destination: BrokerBenchmark.busName)
        let deadline = ContinuousClock.now + timeout
        var last = (apps: 0, items: 0)
        while true {
            let message = try benchmark.connection.blockingReply(template, label: "\(label) GetAllItems")
            let arrived = monotonicNanoseconds()
            let reply: [Value]
            do {
                reply = try message.arguments()
            } catch {
                throw .calls(subject: "\(label) GetAllItems", reason: "cannot read the reply: \(error)")
            }
            let listed = reply.first?.array ?? []
            last = (listed.count, listed.reduce(0) { $0 + ($1.structure?.last?.array?.count ?? 0) })
            if last.apps >= apps { return (arrived, last.apps, last.items) }
            if let status = process.exitStatus {
                throw .subject(name: label, reason: "exited with status \(status): \(process.standardError.suffix(2000))")
            }
            if ContinuousClock.now > deadline {
                throw .calls(subject: "\(label) GetAllItems", reason: "listed \(last.apps) apps of \(apps) after \(timeout)")
            }
            usleep(2_000)
        }
    }
}
