import Foundation

/// `quickactions status`: the broker's process, version and uptime, the
/// plugin folders it searches, and each app's bundle, load and quarantine state.
struct StatusCommand: CLICommand {
    static let spec = CommandSpec(
        name: "status", abstract: "Show the broker's state: process, version, plugin folders, and each app's.",
        discussion: """
            Shows the broker's process id, version and uptime, the plugin folders it searches
            in order (marking missing ones), and for each app its bundle folder, whether its
            plugin is loaded (and the host process running it: in the broker's own process
            today), whether it is quarantined and why, and its last load error. Read from the
            broker's status properties (PID, StartTime, PluginDirectories, BundlePath, ...).
            Then the item providers that run (installed applications' desktop actions, recent
            documents, media players) and how many apps and items each gives.
            With --json, prints {"pid", "version", "start-time-us", "uptime-seconds",
            "plugin-directories": [{"path", "missing"}], "apps": [{"id", "bundle-path",
            "loaded", "host-pid", "quarantined", "quarantine-reason", "last-load-error"}],
            "providers": [{"name", "apps", "items"}]}.
            """,
        options: [CommonOptions.json],
        examples: [
            Example("quickactions status", "Is the broker running, and why does an app not load?"),
            Example("quickactions status --json | jq '.apps[] | select(.\"last-load-error\" != \"\")'",
                    "The apps whose plugin failed to load."),
        ])

    let json: Bool

    init(parsing arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
        let broker = try context.connect()
        defer { broker.close() }
        let status = try await broker.status()
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
        let uptime = now > status.startTime ? (now - status.startTime) / 1_000_000 : 0
        if json {
            context.console.print(try JSONOutput.text(Self.object(status, uptime: uptime)))
        } else {
            Self.lines(status, uptime: uptime, bus: context.globals.busDescription).forEach(context.console.print)
        }
        return .success
    }

    static func object(_ status: BrokerStatus, uptime: UInt64) -> [String: Any] {
        [
            "pid": Int(status.pid), "version": status.version, "start-time-us": status.startTime,
            "uptime-seconds": uptime,
            "plugin-directories": status.directories.map { ["path": $0.path, "missing": $0.missing] as [String: Any] },
            "apps": status.apps.map { app -> [String: Any] in
                [
                    "id": app.id, "bundle-path": app.bundlePath, "loaded": app.loaded, "host-pid": Int(app.hostPID),
                    "quarantined": app.quarantined, "quarantine-reason": app.quarantineReason,
                    "last-load-error": app.lastLoadError,
                ]
            },
            "providers": status.providers.map { ["name": $0.name, "apps": Int($0.apps), "items": Int($0.items)] as [String: Any] },
        ]
    }

    static func lines(_ status: BrokerStatus, uptime: UInt64, bus: String) -> [String] {
        let started = Date(timeIntervalSince1970: Double(status.startTime) / 1_000_000)
        var lines = [
            "broker:   pid \(status.pid) on \(bus), version \(status.version)",
            "uptime:   \(duration(uptime)) (since \(ISO8601DateFormatter().string(from: started)))",
            "plugin folders, searched in this order:",
        ]
        if status.directories.isEmpty { lines.append("  (none)") }
        for (index, directory) in status.directories.enumerated() {
            lines.append("  \(index + 1). \(DisplayWidth.sanitize(directory.path))\(directory.missing ? " (missing)" : "")")
        }
        lines.append(status.apps.isEmpty ? "apps: none" : "apps:")
        for app in status.apps {
            let loaded = !app.loaded ? "no"
                : app.hostPID == 0 ? "yes, in the broker's process" : "yes, in host process \(app.hostPID)"
            lines += [
                "  \(DisplayWidth.sanitize(app.id))",
                "    bundle:          \(DisplayWidth.sanitize(app.bundlePath))",
                "    loaded:          \(loaded)",
                "    quarantined:     \(app.quarantined ? "yes: \(DisplayWidth.sanitize(app.quarantineReason))" : "no")",
                "    last load error: \(app.lastLoadError.isEmpty ? "none" : DisplayWidth.sanitize(app.lastLoadError))",
            ]
        }
        lines.append(status.providers.isEmpty ? "item providers: none" : "item providers:")
        for provider in status.providers {
            let apps = provider.apps == 1 ? "1 app" : "\(provider.apps) apps"
            let items = provider.items == 1 ? "1 item" : "\(provider.items) items"
            lines.append("  \(DisplayWidth.sanitize(provider.name)): \(apps), \(items)")
        }
        return lines
    }

    /// "2d 3h", "1h 4m", "3m 12s", "42s".
    static func duration(_ seconds: UInt64) -> String {
        let days = seconds / 86_400, hours = seconds % 86_400 / 3_600, minutes = seconds % 3_600 / 60
        if days > 0 { return "\(days)d \(hours)h" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        if minutes > 0 { return "\(minutes)m \(seconds % 60)s" }
        return "\(seconds)s"
    }
}
