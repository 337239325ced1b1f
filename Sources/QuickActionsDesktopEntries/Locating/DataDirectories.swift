import Glibc

/// Where desktop entries live (XDG Base Directory Specification): the user's
/// `$XDG_DATA_HOME/applications` (default `~/.local/share/applications`), where the bridge
/// writes, and the `applications` folders of `$XDG_DATA_DIRS` (default
/// `/usr/local/share:/usr/share`), where packages install the originals.
public struct DataDirectories: Sendable, Equatable {
    /// `$XDG_DATA_HOME`.
    public let home: String
    /// `$XDG_DATA_DIRS`, in precedence order, without `home`.
    public let system: [String]

    public init(home: String, system: [String]) {
        self.home = home
        self.system = system.filter { $0 != home }
    }

    /// From the environment; relative entries are ignored, as the specification says.
    public static func resolve(_ environment: [String: String]) -> DataDirectories {
        var home = environment["XDG_DATA_HOME"] ?? ""
        if !home.hasPrefix("/") {
            home = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/") + "/.local/share"
        }
        var dirs = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        if dirs.isEmpty { dirs = ["/usr/local/share", "/usr/share"] }
        return DataDirectories(home: trimmed(home), system: dirs.map(trimmed))
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// `$XDG_DATA_HOME/applications`: the bridge's folder.
    public var userApplications: String { home + "/applications" }

    /// The `applications` folders the originals are in, in precedence order.
    public var systemApplications: [String] { system.map { $0 + "/applications" } }

    /// Where the user's copy of desktop file `id` goes.
    public func userPath(of id: DesktopFileID) -> String { userApplications + "/" + id.rawValue }

    /// The first original of `id` in `$XDG_DATA_DIRS`, or nil. A desktop file id maps to a path
    /// with each `-` possibly a `/` (`foo-bar.desktop` may be `applications/foo/bar.desktop`);
    /// the flat name is tried first.
    /// - Parameter skipping: files to pass over, as if absent.
    public func original(of id: DesktopFileID, skipping: (String) -> Bool = { _ in false }) -> String? {
        for folder in systemApplications {
            if let path = Self.find(id.rawValue[...], in: folder, skipping: skipping) { return path }
        }
        return nil
    }

    private static func find(_ name: Substring, in folder: String, skipping: (String) -> Bool, depth: Int = 0) -> String? {
        let flat = folder + "/" + name
        if isRegularFile(flat) && !skipping(flat) { return flat }
        guard depth < 8 else { return nil }
        var index = name.startIndex
        while let dash = name[index...].firstIndex(of: "-") {
            let subfolder = folder + "/" + name[..<dash]
            if isFolder(subfolder), let found = find(name[name.index(after: dash)...], in: subfolder, skipping: skipping, depth: depth + 1) {
                return found
            }
            index = name.index(after: dash)
        }
        return nil
    }

    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}

/// A desktop file id (`org.gnome.Contacts.desktop`): a file name ending in `.desktop`, of
/// ASCII letters, digits, `.`, `-` and `_`, not starting with a dot, at most 255 bytes.
public struct DesktopFileID: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// `name` with `.desktop` added when missing; nil when it is not a valid id.
    public init?(_ name: String) {
        let full = name.hasSuffix(".desktop") ? name : name + ".desktop"
        guard full.utf8.count <= 255, full.count > ".desktop".count, !full.hasPrefix("."),
              full.unicodeScalars.allSatisfy({ scalar in
                  switch scalar {
                  case "A"..."Z", "a"..."z", "0"..."9", ".", "-", "_": return true
                  default: return false
                  }
              })
        else { return nil }
        rawValue = full
    }

    public var description: String { rawValue }
}
