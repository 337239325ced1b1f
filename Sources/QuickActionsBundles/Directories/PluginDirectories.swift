import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuickActionsModel

/// Where plugin bundles live, in order of precedence, and how to find the bundles in them.
public enum PluginDirectories {
    /// The plugin directories, most important first:
    ///
    /// 1. `plugins` (each `--plugins DIR`), when there is any;
    /// 2. else `$QUICKACTIONS_PLUGIN_PATH`, colon-separated, empty entries ignored, when it has any;
    /// 3. else `$XDG_DATA_HOME/quickactions/plugins` (default `$HOME/.local/share`), followed by
    ///    `quickactions/plugins` in each of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    ///
    /// As the XDG Base Directory specification says, relative `XDG_*` paths are ignored; with no
    /// usable `XDG_DATA_HOME` and no `HOME`, the user's directory is left out. A directory listed
    /// twice keeps its first place. Pure: reads only `environment`.
    public static func resolve(plugins: [String], environment: [String: String]) -> [URL] {
        var paths: [String]
        if !plugins.isEmpty {
            paths = plugins
        } else if let list = environment["QUICKACTIONS_PLUGIN_PATH"], list.contains(where: { $0 != ":" }) {
            paths = list.split(separator: ":").map(String.init)
        } else {
            paths = []
            if let dataHome = XDGDirectories.base("XDG_DATA_HOME", fallback: ".local/share", environment: environment) {
                paths.append(dataHome + "/quickactions/plugins")
            }
            let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
            for directory in dataDirs.split(separator: ":") where directory.hasPrefix("/") {
                paths.append(XDGDirectories.trimmingSlash(String(directory)) + "/quickactions/plugins")
            }
        }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// True when `resolve` takes the directories from `plugins` or `$QUICKACTIONS_PLUGIN_PATH`
    /// (someone chose them, so a missing one deserves a warning), false for the XDG defaults.
    public static func areChosen(plugins: [String], environment: [String: String]) -> Bool {
        !plugins.isEmpty || environment["QUICKACTIONS_PLUGIN_PATH"].map { $0.contains { $0 != ":" } } == true
    }

    /// The result of scanning plugin directories.
    public struct Scan: Sendable {
        /// The bundles that won, sorted by app id.
        public var bundles: [PluginBundle]
        /// Everything worth reporting: broken bundles, skipped items, duplicates.
        public var diagnostics: [Diagnostic]
        /// The directories that could not be listed (missing, not a folder, EACCES, EMFILE, …),
        /// in the order given. Their bundles are unknown: neither present nor absent.
        public var unlisted: [Unlisted]
        /// Bundle folders whose `Info.plist` exists but could not be read for a system reason
        /// (EMFILE, EIO, …): whose bundle they hold is unknown.
        public var unreadableBundles: [URL]

        public init(bundles: [PluginBundle], diagnostics: [Diagnostic], unlisted: [Unlisted] = [],
                    unreadableBundles: [URL] = []) {
            self.bundles = bundles
            self.diagnostics = diagnostics
            self.unlisted = unlisted
            self.unreadableBundles = unreadableBundles
        }

        /// True when every directory was listed and every bundle folder in them read: only then
        /// does an app missing from `bundles` count as "not seen".
        public var isComplete: Bool { unlisted.isEmpty && unreadableBundles.isEmpty }
    }

    /// A plugin directory that could not be listed, and why.
    public struct Unlisted: Error, Sendable, Hashable, CustomStringConvertible {
        public var directory: URL
        /// `strerror` of the failure, or "not a folder".
        public var reason: String
        /// The directory does not exist (ENOENT), which is normal for the default XDG folders.
        public var missing: Bool

        public init(directory: URL, reason: String, missing: Bool) {
            self.directory = directory
            self.reason = reason
            self.missing = missing
        }

        public var description: String { "\(directory.path): cannot list the plugin directory: \(reason)" }
    }

    /// Reads every bundle folder directly inside `directories` (hidden entries and non-folders
    /// are skipped). A directory that cannot be listed, missing included, is reported in
    /// `unlisted`. Directories are taken in order, the folders of each in name order; the first
    /// bundle with a given app id wins and each later one is reported as a warning naming both.
    /// `willRead` gets each bundle folder, and each of its `.lproj` folders, just before it is
    /// read (see `BundleReader.read(bundleAt:willRead:)`): a folder watch added there misses no
    /// change made after the read.
    public static func scan(_ directories: [URL], willRead: (URL) -> Void = { _ in }) -> Scan {
        var winners: [AppID: PluginBundle] = [:]
        var diagnostics: [Diagnostic] = []
        var unlisted: [Unlisted] = []
        var unreadable: [URL] = []
        for directory in directories {
            let folders: [URL]
            switch listBundleFolders(in: directory) {
            case .success(let listed): folders = listed
            case .failure(let failure):
                unlisted.append(failure)
                continue
            }
            for folder in folders {
                let result = BundleReader.read(bundleAt: folder, willRead: willRead)
                diagnostics += result.diagnostics
                if result.systemFailure { unreadable.append(folder) }
                guard let bundle = result.bundle else { continue }
                if let winner = winners[bundle.appID] {
                    diagnostics.append(Diagnostic(
                        file: folder.path,
                        reason: "duplicate app id \(bundle.appID): ignored, \(winner.url.path) comes first",
                        severity: .warning
                    ))
                } else {
                    winners[bundle.appID] = bundle
                }
            }
        }
        return Scan(bundles: winners.values.sorted { $0.appID < $1.appID }, diagnostics: diagnostics,
                    unlisted: unlisted, unreadableBundles: unreadable)
    }

    /// The non-hidden folders directly inside `directory` (following symbolic links), by name.
    /// A directory that cannot be listed gives none, with a warning (none when it is missing).
    public static func bundleFolders(in directory: URL, diagnostics: inout [Diagnostic]) -> [URL] {
        switch listBundleFolders(in: directory) {
        case .success(let folders):
            return folders
        case .failure(let failure):
            if !failure.missing {
                diagnostics.append(Diagnostic(file: directory.path, reason: "cannot list the plugin directory: \(failure.reason)",
                                              severity: .warning))
            }
            return []
        }
    }

    /// The non-hidden folders directly inside `directory`, by name, or why it cannot be listed
    /// (`FolderNames`: every failure, EMFILE included, is seen with its errno).
    static func listBundleFolders(in directory: URL) -> Result<[URL], Unlisted> {
        let names: [String]
        switch FolderNames.list(directory.path) {
        case .success(let all): names = all.filter { !$0.hasPrefix(".") }
        case .failure(let failure):
            let code = failure.errno
            return .failure(Unlisted(directory: directory,
                                     reason: code == ENOTDIR ? "not a folder" : String(cString: strerror(code)),
                                     missing: failure.call == "opendir" && code == ENOENT))
        }
        let folders = names.sorted().compactMap { name -> URL? in
            let url = directory.appendingPathComponent(name, isDirectory: true)
            var status = stat()
            guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
            return url
        }
        return .success(folders)
    }
}

/// The XDG Base Directory rules shared by the plugin and state directories.
enum XDGDirectories {
    /// `$variable` when it is an absolute path, else `$HOME/<fallback>`, else nil.
    static func base(_ variable: String, fallback: String, environment: [String: String]) -> String? {
        if let value = environment[variable], value.hasPrefix("/") {
            return trimmingSlash(value)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return trimmingSlash(home) + "/" + fallback
        }
        return nil
    }

    /// `/a/b/` → `/a/b`; `/` becomes the empty string, ready for `+ "/name"`.
    static func trimmingSlash(_ path: String) -> String {
        var path = path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
