import Foundation
import QuickActionsTestSupport

/// Replays one scenario of a ``GuideDocument`` as a reader would, on a
/// private bus, and reports the first step whose outcome differs from what
/// the document shows.
///
/// The reader's world, and how the runner stands in for it:
/// - The scenario starts in an empty folder that holds only `QuickActions`, a
///   link to this package (the reader's checkout).
/// - Commands run with `sh` in the current folder, with this package's built
///   executables (`quickactionsd`, `quickactions`) first on PATH,
///   `DBUS_SESSION_BUS_ADDRESS` set to the private bus, and `XDG_STATE_HOME`,
///   `XDG_DATA_HOME` and `XDG_CONFIG_HOME` inside the scenario's folder, so
///   nothing touches the real session or home.
/// - Two rewrites, and only these: `busctl --user` becomes `busctl
///   --address=<private bus>`, and `swift build` gets `--scratch-path` in a
///   cache folder (below), as does `SWIFT_BUILD_FLAGS` for the templates'
///   Makefiles, so a nested build never waits for the lock of the
///   `.build` that the running `swift test` holds, and is incremental from
///   one test run to the next.
///
/// Folders: `<package>/.build-doctests/<id>/work` is the scenario's folder,
/// made afresh each run and removed afterwards (kept on failure, for
/// inspection); `…/scratch` keeps the nested builds between runs.
final class GuideRunner {
    let id: String
    let base: URL
    let work: URL
    let scratch: URL
    let logs: URL
    private let bus: TestBus
    private var directory: URL
    private var broker: ManagedProcess?
    private var brokerCount = 0

    init(id: String) async throws {
        self.id = id
        base = PackagePaths.root.appendingPathComponent(".build-doctests").appendingPathComponent(id)
        work = base.appendingPathComponent("work")
        scratch = base.appendingPathComponent("scratch")
        logs = base.appendingPathComponent("logs")
        let files = FileManager.default
        for folder in [work, logs] {
            try? files.removeItem(at: folder)
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        try files.createSymbolicLink(
            at: work.appendingPathComponent("QuickActions"), withDestinationURL: PackagePaths.root)
        // A failed run keeps its folders for inspection: start from empty ones.
        for name in ["state", "data", "config"] {
            let folder = base.appendingPathComponent("home-\(name)")
            try? files.removeItem(at: folder)
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        bus = try await TestBus()
        directory = work
    }

    /// Stops the broker and the bus; removes the scenario's folders unless `keep`.
    func finish(keep: Bool) {
        broker?.stop()
        broker = nil
        bus.stop()
        if !keep {
            for folder in [work, logs] { try? FileManager.default.removeItem(at: folder) }
            for name in ["state", "data", "config"] {
                try? FileManager.default.removeItem(at: base.appendingPathComponent("home-\(name)"))
            }
        }
    }

    /// The broker's log so far (empty when none runs).
    var brokerLog: String { broker?.standardError ?? "" }

    /// Replays every step; throws at the first that differs from the document.
    func run(_ scenario: GuideDocument.Scenario) async throws {
        for located in scenario.steps {
            do {
                try await run(located.step)
            } catch {
                throw GuideFailure(
                    "\(scenario.name), block at line \(located.line) (in \(directory.path)): \(error)"
                        + (brokerLog.isEmpty ? "" : "\n--- broker log ---\n\(brokerLog)"))
            }
        }
    }

    private func run(_ step: GuideDocument.Step) async throws {
        switch step {
        case .file(let path, let content):
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        case .run(let script):
            let cwdFile = logs.appendingPathComponent("cwd")
            let result = try await shell(
                "set -e\ncd \(quote(directory.path))\n\(rewrite(script))\npwd > \(quote(cwdFile.path))",
                timeout: .seconds(900))
            guard result.status == 0 else { throw GuideFailure("the commands failed: \(result)") }
            let cwd = try String(contentsOf: cwdFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            directory = URL(fileURLWithPath: cwd, isDirectory: true)
        case .broker(let command):
            try await startBroker(command)
        case .brokerLog(let lines):
            // Log lines are written as events happen: give the last ones a moment.
            let deadline = ContinuousClock.now + .seconds(5)
            while !OutputPattern.containsInOrder(lines, in: brokerLog), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            guard OutputPattern.containsInOrder(lines, in: brokerLog) else {
                throw GuideFailure("the broker's log does not hold, in this order:\n\(lines.joined(separator: "\n"))")
            }
        case .console(let commands, let fails):
            for command in commands {
                let result = try await shell("cd \(quote(directory.path)) && \(rewrite(command.command))",
                                             timeout: .seconds(120))
                let output = result.stdout + result.stderr
                if fails ? result.status == 0 : result.status != 0 {
                    throw GuideFailure("`\(command.command)` should \(fails ? "fail" : "succeed"): \(result)")
                }
                let pattern = OutputPattern(command.expectedOutput)
                guard pattern.matches(output) else {
                    throw GuideFailure("""
                        `\(command.command)` printed
                        \(output)
                        but the guide shows
                        \(command.expectedOutput.joined(separator: "\n"))
                        """)
                }
            }
        }
    }

    private func startBroker(_ command: String) async throws {
        broker?.stop()
        brokerCount += 1
        let process = try ManagedProcess(
            "/bin/sh", ["-c", "cd \(quote(directory.path)) && exec \(rewrite(command))"],
            environment: environment, directory: logs, name: "broker-\(brokerCount)")
        broker = process
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let status = try await Command.run(
                "busctl", ["--address=\(bus.address)", "status", "org.quickactions.Broker1"], timeout: .seconds(5))
            if status.status == 0 { return }
            if !process.isRunning {
                throw GuideFailure("the broker exited (\(process.exitStatus ?? -1)): \(process.standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw GuideFailure("the broker did not take org.quickactions.Broker1 within 30 s")
    }

    /// The environment every command gets (see the type's documentation).
    var environment: [String: String] {
        var env = bus.environment([
            "XDG_STATE_HOME": base.appendingPathComponent("home-state").path,
            "XDG_DATA_HOME": base.appendingPathComponent("home-data").path,
            "XDG_CONFIG_HOME": base.appendingPathComponent("home-config").path,
            "XDG_DATA_DIRS": base.appendingPathComponent("home-data").path,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "NO_COLOR": "1",
        ])
        env["PATH"] = PackagePaths.products.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        // The templates' Makefiles pass this to `swift build`: the same cache as the rewrite below.
        env["SWIFT_BUILD_FLAGS"] = "--scratch-path " + quote(scratch.appendingPathComponent("make").path)
        // A reader types these commands at a shell, not inside `make test`:
        // an inherited MAKELEVEL would make make say "make[1]:" instead of "make:".
        for key in ["MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES"] {
            env.removeValue(forKey: key)
        }
        return env
    }

    /// The two rewrites from the reader's session bus and build folder to the test's.
    func rewrite(_ command: String) -> String {
        let packageScratch = scratch.appendingPathComponent(directory.lastPathComponent).path
        return command
            .replacingOccurrences(of: "busctl --user", with: "busctl --address=\(quote(bus.address))")
            .replacingOccurrences(of: "swift build", with: "swift build --scratch-path \(quote(packageScratch))")
    }

    private func shell(_ script: String, timeout: Duration) async throws -> CommandResult {
        try await Command.run("/bin/sh", ["-c", script], environment: environment, timeout: timeout)
    }
}

/// Single-quotes `text` for sh.
func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

struct GuideFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
