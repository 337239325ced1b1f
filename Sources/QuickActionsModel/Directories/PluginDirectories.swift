import Foundation

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

    /// The result of scanning plugin directories.
    public struct Scan: Sendable {
        /// The bundles that won, sorted by app id.
        public var bundles: [PluginBundle]
        /// Everything worth reporting: broken bundles, skipped items, duplicates, unreadable folders.
        public var diagnostics: [Diagnostic]

        public init(bundles: [PluginBundle], diagnostics: [Diagnostic]) {
            self.bundles = bundles
            self.diagnostics = diagnostics
        }
    }

    /// Reads every bundle folder directly inside `directories` (hidden entries and non-folders
    /// are skipped; a missing directory is no error). Directories are taken in order, the
    /// folders of each in name order; the first bundle with a given app id wins and each later one
    /// is reported as a warning naming both.
    public static func scan(_ directories: [URL]) -> Scan {
        var winners: [AppID: PluginBundle] = [:]
        var diagnostics: [Diagnostic] = []
        for directory in directories {
            for folder in bundleFolders(in: directory, diagnostics: &diagnostics) {
                let result = BundleReader.read(bundleAt: folder)
                diagnostics += result.diagnostics
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
        return Scan(bundles: winners.values.sorted { $0.appID < $1.appID }, diagnostics: diagnostics)
    }

    /// The non-hidden folders directly inside `directory` (following symbolic links), by name.
    public static func bundleFolders(in directory: URL, diagnostics: inout [Diagnostic]) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
                diagnostics.append(Diagnostic(
                    file: directory.path, reason: "cannot list the plugin directory: \(error.localizedDescription)",
                    severity: .warning
                ))
            }
            return []
        }
        return names.sorted().compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            let url = directory.appendingPathComponent(name, isDirectory: true)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return nil
            }
            return url
        }
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
