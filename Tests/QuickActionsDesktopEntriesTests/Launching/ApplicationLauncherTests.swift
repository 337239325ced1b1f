import DBus
import Foundation
import Glibc
import QuickActionsDesktopEntries
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// Launching by `Exec`: the right arguments, folder, tokens and standard streams; detached,
/// reaped, outliving the launcher; and failures that say why. Every launched program is the
/// recorder of ``LaunchWorld``, which ends with the test.
@Suite struct ApplicationLauncherTests {
    @Test func aLaunchedProgramGetsItsArgumentsFolderTokensAndDevNullAndOutlivesTheLauncher() async throws {
        let world = try LaunchWorld()
        defer { world.stop() }
        let app = LaunchWorld.app(
            exec: #"qa-app "two words" %F --name=%c %i"#, workingDirectory: world.root + "/work dir",
            actions: [DesktopAction(id: "new-window", name: "New Window", exec: "qa-app --new-window")])
        do {
            let launcher = ApplicationLauncher(connection: nil, environment: world.environment, log: { _ in })
            let outcome = await launcher.launch(
                app, action: nil, uris: ["file:///tmp/a%20b.txt", "file:///tmp/c.txt"],
                context: LaunchContext(activationToken: "token-1", startupID: "startup-1"))
            #expect(outcome == .succeeded("Started Text Editor"))
        }
        // The launcher is gone; the program runs on.
        let record = try #require(await world.records(count: 1).first)
        #expect(record.arguments == ["two words", "/tmp/a b.txt", "/tmp/c.txt", "--name=Text Editor", "--icon", "accessories-text-editor"])
        #expect(record.fields["cwd"] == world.root + "/work dir")
        #expect(record.fields["token"] == "token-1")
        #expect(record.fields["startup"] == "startup-1")
        #expect(record.fields["stdin"] == "/dev/null" && record.fields["stdout"] == "/dev/null" && record.fields["stderr"] == "/dev/null")
        let descriptors = try #require(record.fields["fds"])
        #expect(!descriptors.contains("socket:") && !descriptors.contains("pipe:"), "no descriptor of ours leaks in: \(descriptors)")
        // Its own session, not our child: nothing of ours to reap or to kill it with.
        let stat = record.stat
        #expect(stat.count > 4)
        let parent = pid_t(stat.count > 1 ? stat[1] : "") ?? 0
        let session = pid_t(stat.count > 3 ? stat[3] : "") ?? 0
        #expect(parent != getpid())
        #expect(session != getsid(0) && session != 0)
        #expect(kill(record.pid, 0) == 0, "still running after the launcher is gone")
        #expect(Self.state(of: record.pid) != "Z")
        // The session's leader was the middle process of the double fork: reaped, not our zombie.
        #expect(Self.state(of: session) == nil || Self.parent(of: session) != getpid())
    }

    @Test func anActionStartsItsOwnExecAndNamesItselfAndTheApp() async throws {
        let world = try LaunchWorld()
        defer { world.stop() }
        let app = LaunchWorld.app(
            exec: "qa-app --main", actions: [DesktopAction(id: "new-window", name: LocalizedText("New Window", translations: ["de": "Neues Fenster"]), exec: "qa-app --new-window %k")])
        let launcher = ApplicationLauncher(connection: nil, environment: world.environment, log: { _ in })
        let outcome = await launcher.launch(app, action: "new-window", uris: [], context: LaunchContext())
        #expect(outcome == .succeeded("Started New Window (Text Editor)"))
        let record = try #require(await world.records(count: 1).first)
        #expect(record.arguments == ["--new-window", "/apps/org.example.Editor.desktop"])
        #expect(record.fields["token"] == "<unset>" && record.fields["startup"] == "<unset>")
        let german = ApplicationLauncher(connection: nil, environment: world.environment, locale: "de_DE.UTF-8", log: { _ in })
        #expect(await german.launch(app, action: "new-window", uris: [], context: LaunchContext()) == .succeeded("Started Neues Fenster (Text Editor)"))
        #expect(await world.records(count: 2).count == 2)
    }

    @Test func theBrokersOwnTokensNeverLeakIntoALaunch() async throws {
        let world = try LaunchWorld()
        defer { world.stop() }
        var environment = world.environment
        environment["XDG_ACTIVATION_TOKEN"] = "stale"
        environment["DESKTOP_STARTUP_ID"] = "stale"
        let launcher = ApplicationLauncher(connection: nil, environment: environment, log: { _ in })
        #expect(await launcher.launch(LaunchWorld.app(exec: "qa-app"), action: nil, uris: [], context: LaunchContext()).success)
        let record = try #require(await world.records(count: 1).first)
        #expect(record.fields["token"] == "<unset>" && record.fields["startup"] == "<unset>")
    }

    @Test func aTerminalEntryRunsInTheFirstTerminalFound() async throws {
        let world = try LaunchWorld()
        defer { world.stop() }
        try world.addRecorder(named: "xdg-terminal-exec")
        let launcher = ApplicationLauncher(connection: nil, environment: world.environment, log: { _ in })
        let outcome = await launcher.launch(LaunchWorld.app(exec: "qa-app --in-terminal", terminal: true), action: nil, uris: [], context: LaunchContext())
        #expect(outcome.success)
        let record = try #require(await world.records(count: 1).first)
        #expect(record.arguments == [world.bin + "/qa-app", "--in-terminal"], "the terminal got the command to run")
    }

    struct Failing: Sendable, CustomStringConvertible {
        let description: String
        let app: InstalledApplication
        var action: String?
        var path: String?
        let mentions: [String]
    }

    static let failing: [Failing] = [
        Failing(description: "program not found", app: LaunchWorld.app(exec: "qa-no-such-program --x"), mentions: ["qa-no-such-program", "not found"]),
        Failing(
            description: "malformed Exec", app: LaunchWorld.app(exec: "qa-app $(rm -rf ~)"),
            mentions: ["/apps/org.example.Editor.desktop", "qa-app $(rm -rf ~)", "'$'"]),
        Failing(
            description: "Path missing", app: LaunchWorld.app(exec: "qa-app", workingDirectory: "/nonexistent/qa-folder"),
            mentions: ["/nonexistent/qa-folder", "does not exist"]),
        Failing(
            description: "no terminal", app: LaunchWorld.app(exec: "qa-app", terminal: true), path: "bin-only",
            mentions: ["no terminal found (tried xdg-terminal-exec, x-terminal-emulator, gnome-terminal, konsole, xfce4-terminal, kitty, alacritty, foot, xterm)"]),
        Failing(description: "no such action", app: LaunchWorld.app(exec: "qa-app"), action: "nope", mentions: ["Text Editor", "nope"]),
        Failing(description: "no Exec", app: LaunchWorld.app(exec: nil), mentions: ["/apps/org.example.Editor.desktop", "no Exec"]),
    ]

    @Test(arguments: failing)
    func aFailedLaunchSaysWhy(_ failing: Failing) async throws {
        let world = try LaunchWorld()
        defer { world.stop() }
        var environment = world.environment
        if failing.path == "bin-only" { environment["PATH"] = world.bin }
        let launcher = ApplicationLauncher(connection: nil, environment: environment, log: { _ in })
        let outcome = await launcher.launch(failing.app, action: failing.action, uris: [], context: LaunchContext())
        #expect(!outcome.success)
        for mention in failing.mentions {
            #expect(outcome.message.contains(mention), "\(outcome.message) names \(mention)")
        }
        #expect(world.recordedPIDs().isEmpty, "nothing started")
    }

    @Test func theCompletionFormIsCalledOnce() async throws {
        let world = try LaunchWorld()
        defer { world.stop() }
        let launcher = ApplicationLauncher(connection: nil, environment: world.environment, log: { _ in })
        let outcome: ProvidedOutcome = await withCheckedContinuation { continuation in
            launcher.launch(LaunchWorld.app(exec: "qa-app"), action: nil, uris: [], context: LaunchContext()) { continuation.resume(returning: $0) }
        }
        #expect(outcome == .succeeded("Started Text Editor"))
        _ = await world.records(count: 1)
    }

    static func statFields(of pid: pid_t) -> [String]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ").map(String.init)
    }

    static func state(of pid: pid_t) -> String? { statFields(of: pid)?.first }
    static func parent(of pid: pid_t) -> pid_t? { statFields(of: pid).flatMap { $0.count > 1 ? pid_t($0[1]) : nil } }
}
