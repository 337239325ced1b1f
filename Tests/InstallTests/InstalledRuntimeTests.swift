import Foundation
import QuickActionsTestSupport
import Testing

/// What a packager checks after `make install` (issue 18, "Packagers"): the
/// installed programs run without the Swift toolchain, share one Swift
/// runtime with the plugins they load, and the systemd unit and the D-Bus
/// activation file start them with the environment they need.
@Suite(.serialized)
struct InstalledRuntimeTests {
    /// The toolchain's folder of Swift runtime libraries, where the products
    /// built here load libswiftCore.so from.
    static func toolchainRuntimeFolder() async throws -> String {
        let listing = try await Command.run("ldd", [PackagePaths.executable("quickactionsd").path])
        let core = listing.stdout.split(separator: "\n").first { $0.contains("libswiftCore.so =>") }
        let path = try #require(core?.split(separator: " ").dropFirst(2).first, "\(listing)")
        return (String(path) as NSString).deletingLastPathComponent
    }

    /// `command` run in a mount namespace where `folder` is an empty folder.
    static func hiding(_ folder: String, empty: URL, _ command: [String]) -> [String] {
        ["-m", "/bin/sh", "-c", "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\"", "sh", empty.path, folder] + command
    }

    @Test(.enabled(if: getuid() == 0, "hiding the toolchain takes a mount namespace (root)"))
    func theInstalledBrokerAndCLIRunWithTheToolchainHidden() async throws {
        let destination = try TemporaryDirectory.make(prefix: "qa-install")
        defer { try? FileManager.default.removeItem(at: destination) }
        let install = try await make(["install", "DESTDIR=\(destination.path)", "PREFIX=/usr",
                                      "PRODUCTS=\(PackagePaths.products.path)"])
        try #require(install.status == 0, "make install failed: \(install)")
        let toolchain = try await Self.toolchainRuntimeFolder()
        let runtime = destination.path + "/usr/lib/quickactions/swift/"

        // ldd, with no LD_LIBRARY_PATH to help: every Swift library comes from beside the program.
        for binary in ["quickactionsd", "quickactions", "quickactions-bundle"] {
            let path = destination.path + "/usr/bin/" + binary
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let listing = try await Command.run("ldd", [path], environment: ["LD_LIBRARY_PATH": "", "PATH": "/usr/bin:/bin"])
            #expect(listing.status == 0, "\(listing)")
            #expect(!listing.stdout.contains(toolchain), "\(binary) still loads from the toolchain: \(listing.stdout)")
            #expect(!listing.stdout.contains("not found"), "\(listing.stdout)")
            #expect(listing.stdout.contains("libswiftCore.so => \(destination.path)/usr/bin/../lib/quickactions/swift/libswiftCore.so"),
                    "\(listing.stdout)")
        }

        // With the toolchain's folder hidden, what was built here no longer starts: the hiding works.
        let empty = destination.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let uninstalled = try await Command.run(
            "unshare", Self.hiding(toolchain, empty: empty, [PackagePaths.executable("quickactionsd").path, "--version"]))
        #expect(uninstalled.status != 0, "\(uninstalled)")

        // The installed broker serves the installed examples, and the installed CLI performs a
        // Swift plugin's item through it: both with the toolchain hidden.
        let bus = try await TestBus()
        defer { bus.stop() }
        let broker = try ManagedProcess(
            "unshare", Self.hiding(toolchain, empty: empty, [
                destination.path + "/usr/bin/quickactionsd", "--address", bus.address,
                "--plugins", destination.path + "/usr/share/quickactions/plugins",
                "--state-dir", destination.appendingPathComponent("state").path,
            ]),
            // Every XDG folder the test's own: the host's installed applications are not read,
            // and neither its entries nor its cache written.
            environment: bus.environment([
                "HOME": destination.appendingPathComponent("home").path,
                "XDG_CONFIG_HOME": destination.appendingPathComponent("home/config").path,
                "XDG_STATE_HOME": destination.appendingPathComponent("home/state").path,
                "XDG_DATA_DIRS": destination.path + "/usr/share",
            ]),
            directory: destination, name: "broker")
        defer { broker.stop() }
        var serving = false
        for _ in 0..<1000 where !serving && broker.isRunning {
            serving = try await Command.run("busctl", ["--address=\(bus.address)", "status", "org.quickactions.Broker1"])
                .status == 0
            if !serving { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(serving, "the installed broker did not start: \(broker.standardError)")
        let invoked = try await Command.run("unshare", Self.hiding(toolchain, empty: empty, [
            destination.path + "/usr/bin/quickactions", "--address", bus.address,
            "invoke", "com.example.contacts", "SearchAction",
        ]))
        #expect(invoked.status == 0, "\(invoked)\nbroker: \(broker.standardError)")
        #expect(invoked.stdout.contains("SearchAction triggered"), "\(invoked)")

        // One Swift runtime in the broker, its plugin's included: the one installed beside it.
        let pid = try #require(broker.pid)
        // The broker and its plugin host (the example plugin runs there). (procfs files have no
        // size: read them to their end with cat.)
        var processes = [pid]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry),
                  let status = try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8),
                  status.contains("\nPPid:\t\(pid)\n") else { continue }
            processes.append(child)
        }
        var maps = ""
        for process in processes {
            maps += try await Command.run("cat", ["/proc/\(process)/maps"]).stdout
        }
        let cores = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
                  path.hasSuffix("/libswiftCore.so") else { return nil }
            return String(path)
        })
        #expect(cores == [runtime + "libswiftCore.so"], "one Swift runtime, the installed one: \(cores)")
        #expect(maps.contains("libQuickActionsExampleContacts.so"), "the Swift example plugin was loaded")

        broker.stop()
        let uninstall = try await make(["uninstall", "DESTDIR=\(destination.path)", "PREFIX=/usr"])
        #expect(uninstall.status == 0, "\(uninstall)")
    }

    @Test func theInstalledUnitPassesSystemdAnalyzeAndActivationStartsTheBrokerWithItsEnvironment() async throws {
        // A live install (no DESTDIR) into a private PREFIX, so the paths the
        // unit and the activation file name are the real ones.
        let prefix = try TemporaryDirectory.make(prefix: "qa-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let variables = ["PREFIX=\(prefix.path)", "PRODUCTS=\(PackagePaths.products.path)"]
        let install = try await make(["install"] + variables)
        try #require(install.status == 0, "make install failed: \(install)")

        // systemd-analyze verify --user needs a runtime folder, not a running systemd;
        // with MANPATH on the installed pages it also checks Documentation=man:quickactionsd(1).
        let runtimeDirectory = prefix.appendingPathComponent("run")
        try FileManager.default.createDirectory(
            at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let unit = prefix.path + "/lib/systemd/user/quickactionsd.service"
        let verify = try await Command.run("systemd-analyze", ["verify", "--user", unit], environment: [
            "XDG_RUNTIME_DIR": runtimeDirectory.path, "MANPATH": prefix.path + "/share/man",
            "PATH": "/usr/bin:/bin", "HOME": prefix.path,
        ])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stderr.isEmpty && verify.stdout.isEmpty, "systemd-analyze had something to say: \(verify)")

        // The activation file as installed starts the installed broker, with
        // the production environment, on a private bus whose activation
        // environment points every XDG folder into the test's own.
        let bus = try await TestBus()
        defer { bus.stop() }
        try FileManager.default.copyItem(
            atPath: prefix.path + "/share/dbus-1/services/org.quickactions.Broker1.service",
            toPath: bus.serviceDirectory.appendingPathComponent("org.quickactions.Broker1.service").path)
        let home = prefix.appendingPathComponent("home").path
        let folders = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state",
                       "XDG_DATA_DIRS": prefix.path + "/share", "XDG_CONFIG_HOME": home + "/config",
                       // What the bus would pass on by itself: the activation file must override it.
                       "SWIFT_BACKTRACE": "enable=yes"]
        let update = try await Command.run("busctl", [
            "--address=\(bus.address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "UpdateActivationEnvironment", "a{ss}", "\(folders.count)",
        ] + folders.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
        try #require(update.status == 0, "\(update)")
        let listed = try await Command.run("busctl", [
            "--address=\(bus.address)", "call", "org.quickactions.Broker1", "/org/quickactions/Broker1",
            "org.quickactions.Broker1", "ListApplications",
        ], timeout: .seconds(60))
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("com.example.contacts"), "the installed examples: \(listed)")
        let status = try await Command.run("busctl", ["--address=\(bus.address)", "status", "org.quickactions.Broker1"])
        let pidLine = status.stdout.split(separator: "\n").first { $0.hasPrefix("PID=") }
        let pid = try #require(pidLine.flatMap { Int32($0.dropFirst(4)) }, "\(status)")
        defer { kill(pid, SIGTERM) }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(executable == prefix.path + "/bin/quickactionsd")
        let environ = try await Command.run("cat", ["/proc/\(pid)/environ"]).stdout
        let environment = environ.split(separator: "\u{0}").map(String.init)
        #expect(environment.filter { $0.hasPrefix("SWIFT_BACKTRACE=") } == ["SWIFT_BACKTRACE=enable=no"], "\(environment)")

        let uninstall = try await make(["uninstall"] + ["PREFIX=\(prefix.path)"])
        #expect(uninstall.status == 0, "\(uninstall)")
    }

    func make(_ arguments: [String]) async throws -> CommandResult {
        try await Command.run("make", ["-C", PackagePaths.root.path, "--no-print-directory"] + arguments,
                              timeout: .seconds(300))
    }
}
