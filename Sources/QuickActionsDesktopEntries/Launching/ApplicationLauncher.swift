import DBus
import Glibc
import QuickActionsProviding

/// Starts installed applications and their actions as the Desktop Entry Specification says
/// (``ApplicationLaunching``):
/// - a `DBusActivatable` entry, when there is a bus connection, through
///   `org.freedesktop.Application` (``ApplicationActivation``): `ActivateAction` for an action,
///   `Open` with files, else `Activate`, with `platform-data` carrying the launch's
///   `activation-token` and `desktop-startup-id`;
/// - otherwise its `Exec` (or the action's) read strictly and expanded as GLib does
///   (``ExecLine``), never through a shell, started detached (``DetachedProcess``: its own
///   session, stdio on /dev/null, reaped, outliving the broker) in `Path=` when set, with the
///   environment plus `XDG_ACTIVATION_TOKEN` / `DESKTOP_STARTUP_ID` when the launch has them
///   (and without them when it has not: the broker's own must not leak); `Terminal=true`
///   through the user's terminal (``TerminalCommand``); under a systemd user manager moved into
///   a transient scope of its own (``TransientScope``).
///
/// `completion` gets "Started New Window (Text Editor)" or "Started Text Editor", or a failure
/// naming the reason: the program not found, a malformed `Exec` (the entry and the text at
/// fault), a missing `Path` folder, no terminal, the D-Bus error's name and message.
public final class ApplicationLauncher: ApplicationLaunching {
    private let connection: Connection?
    private let environment: [String: String]
    private let locale: String
    private let log: @Sendable (String) -> Void
    /// How long a D-Bus activation may take (the bus may have to start the app).
    let activationTimeout: Duration

    /// - Parameters:
    ///   - connection: the session bus, for D-Bus activation and systemd scopes; nil starts
    ///     every entry by its `Exec` and never makes a scope.
    ///   - environment: what launched programs get (plus the launch's tokens); its `PATH`
    ///     finds programs and terminals.
    ///   - locale: the language names are resolved in (`%c`, the messages); by default the
    ///     environment's (`LANGUAGE`'s first, then `LC_ALL`, `LC_MESSAGES`, `LANG`).
    ///   - log: hears what the caller is not told (a scope systemd refused).
    public init(
        connection: Connection?, environment: [String: String], locale: String? = nil,
        activationTimeout: Duration = .seconds(25), log: @escaping @Sendable (String) -> Void
    ) {
        self.connection = connection
        self.environment = environment
        self.locale = locale ?? Self.locale(of: environment)
        self.activationTimeout = activationTimeout
        self.log = log
    }

    /// The language the environment asks for, as gettext reads it.
    static func locale(of environment: [String: String]) -> String {
        if let languages = environment["LANGUAGE"], let first = languages.split(separator: ":").first { return String(first) }
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return "C"
    }

    public func launch(
        _ app: InstalledApplication, action: String?, uris: [String], context: LaunchContext,
        completion: @escaping @Sendable (ProvidedOutcome) -> Void
    ) {
        Task { [self] in
            completion(await launch(app, action: action, uris: uris, context: context))
        }
    }

    /// ``launch(_:action:uris:context:completion:)`` for a caller that can wait.
    public func launch(_ app: InstalledApplication, action: String?, uris: [String], context: LaunchContext) async -> ProvidedOutcome {
        let appName = app.name.resolved(for: locale)
        var desktopAction: DesktopAction?
        if let action {
            guard let found = app.actions.first(where: { $0.id == action }) else {
                return .failed("\(appName) has no action \"\(ValueEscaping.bounded(action))\"")
            }
            desktopAction = found
        }
        let started = desktopAction.map { "Started \($0.name.resolved(for: locale)) (\(appName))" } ?? "Started \(appName)"
        if app.dbusActivatable, let connection {
            do {
                try await ApplicationActivation.activate(
                    app, action: action, uris: uris, context: context, on: connection, timeout: activationTimeout)
                return .succeeded(started)
            } catch {
                return .failed("\(appName) did not start: \(error.name.rawValue): \(error.message)")
            }
        }
        guard let exec = desktopAction.map({ $0.exec }) ?? app.exec else {
            let what = desktopAction.map { "the action \"\(ValueEscaping.bounded($0.id))\" of \(app.path)" } ?? app.path
            return .failed("\(what) has no Exec to run")
        }
        let pids: [pid_t]
        do {
            pids = try start(app, exec: exec, uris: uris, context: context, appName: appName)
        } catch {
            return .failed(error.description)
        }
        if let connection {
            for pid in pids {
                do {
                    if let unit = try await TransientScope.move(pid, desktopID: app.desktopID, appName: appName, on: connection) {
                        log("\(app.desktopID): process \(pid) runs in \(unit)")
                    }
                } catch {
                    log("\(app.desktopID): process \(pid) could not be moved into a scope of its own: \(error)")
                }
            }
        }
        return .succeeded(started)
    }

    /// Why a launch by `Exec` failed; the description is the outcome's message.
    struct LaunchFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts each command line `exec` expands to; their process ids.
    func start(_ app: InstalledApplication, exec: String, uris: [String], context: LaunchContext, appName: String) throws(LaunchFailure) -> [pid_t] {
        let commands = try commandLines(app, exec: exec, uris: uris, appName: appName)
        if let folder = app.workingDirectory, !DataDirectories.isFolder(folder) {
            throw LaunchFailure(description: "\(appName) did not start: its folder \(ValueEscaping.bounded(folder)) (Path= in \(app.path)) does not exist")
        }
        let environment = launchEnvironment(context)
        var pids: [pid_t] = []
        for (executable, arguments) in commands {
            do {
                pids.append(try DetachedProcess.start(
                    executable, arguments: arguments, environment: environment, directory: app.workingDirectory))
            } catch {
                throw LaunchFailure(description: "\(appName) did not start: \(error)")
            }
        }
        return pids
    }

    /// The programs to start and their arguments (argv[0] first), terminal included.
    func commandLines(_ app: InstalledApplication, exec: String, uris: [String], appName: String) throws(LaunchFailure) -> [(String, [String])] {
        let lines: [[String]]
        do {
            let line = try ExecLine(exec, entry: app.path)
            lines = try line.expand(ExecLine.Fields(icon: app.icon, name: appName, entryPath: app.path, uris: uris), entry: app.path)
        } catch {
            throw LaunchFailure(description: "\(appName) did not start: \(error)")
        }
        let searchPath = environment["PATH"]
        var commands: [(String, [String])] = []
        for arguments in lines {
            guard let program = arguments.first, let executable = ProgramLookup.find(program, searchPath: searchPath) else {
                throw LaunchFailure(description: "\(appName) did not start: the program \"\(ValueEscaping.bounded(arguments.first ?? ""))\" was not found")
            }
            if app.terminal {
                do {
                    commands.append(try TerminalCommand.wrap([executable] + arguments.dropFirst(), searchPath: searchPath))
                } catch {
                    throw LaunchFailure(description: "\(appName) did not start: \(error)")
                }
            } else {
                commands.append((executable, arguments))
            }
        }
        return commands
    }

    /// The environment a launched program gets.
    func launchEnvironment(_ context: LaunchContext) -> [String: String] {
        var result = environment
        result["XDG_ACTIVATION_TOKEN"] = context.activationToken
        result["DESKTOP_STARTUP_ID"] = context.startupID
        return result
    }
}
