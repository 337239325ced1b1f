import Foundation

/// KRunner's runner file for the bridge: where KRunner (Plasma 5 and 6) looks for D-Bus
/// runners, per user in `$XDG_DATA_HOME/krunner/dbusplugins/` (written by the broker at each
/// start, see ``installForUser(environment:)``) and system-wide in
/// `$(PREFIX)/share/krunner/dbusplugins/` (`make install`, from desktop/ in the source tree,
/// which holds exactly ``contents``).
///
/// `X-Plasma-API=DBus2` makes KF5 call Config; `X-Plasma-API-Minimum-Version=2.0` is KF6's
/// spelling of the same. The service is `org.quickactions.Search1`, which D-Bus activates.
public enum KRunnerMetadata {
    public static let fileName = "org.quickactions.Search1.desktop"

    public static let contents = """
        [Desktop Entry]
        Type=Service
        Name=Quick Actions
        Comment=Every app's quick actions, most used first
        Icon=system-run
        X-KDE-ServiceTypes=Plasma/Runner
        X-KDE-PluginInfo-Name=org.quickactions.Search1
        X-KDE-PluginInfo-Author=QuickActions
        X-KDE-PluginInfo-Version=1.0
        X-KDE-PluginInfo-License=MIT
        X-KDE-PluginInfo-EnabledByDefault=true
        X-Plasma-API=DBus2
        X-Plasma-API-Minimum-Version=2.0
        X-Plasma-DBusRunner-Service=\(SearchNames.busName.rawValue)
        X-Plasma-DBusRunner-Path=\(SearchNames.krunnerPath.rawValue)
        X-Plasma-Request-Actions-Once=true

        """

    /// `$XDG_DATA_HOME/krunner/dbusplugins` (an absolute XDG_DATA_HOME), else
    /// `$HOME/.local/share/krunner/dbusplugins`; nil when neither is absolute.
    public static func userDirectory(environment: [String: String]) -> URL? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("krunner/dbusplugins", isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".local/share/krunner/dbusplugins", isDirectory: true)
        }
        return nil
    }

    /// Writes the runner file for the user unless it already holds ``contents`` (atomically:
    /// a temporary file renamed over it). Returns its path.
    @discardableResult
    public static func installForUser(environment: [String: String]) throws -> URL {
        guard let directory = userDirectory(environment: environment) else {
            throw KRunnerMetadataError(description: "neither XDG_DATA_HOME nor HOME is an absolute path")
        }
        let file = directory.appendingPathComponent(fileName)
        if let current = try? Data(contentsOf: file), current == Data(contents.utf8) { return file }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file, options: .atomic)
        return file
    }
}

public struct KRunnerMetadataError: Error, CustomStringConvertible {
    public let description: String
}
