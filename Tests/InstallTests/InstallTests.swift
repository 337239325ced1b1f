import Foundation
import QuickActionsTestSupport
import Testing

/// `make install` and `make uninstall` into a temporary DESTDIR, as a
/// packager runs them.
///
/// The test passes `PRODUCTS=` the debug products `swift test` has just
/// built: `make install` then copies those instead of running a release
/// build, which would take minutes and would nest a `swift build` inside
/// this `swift test` (a release build without PRODUCTS uses its own
/// `.build-release` scratch folder, so it could not deadlock on `.build`'s
/// lock either, but it would still double the build). What is checked here,
/// the layout, does not depend on the build configuration.
@Suite(.serialized)
struct InstallTests {
    /// Every file install must lay out under PREFIX=/usr, from the source tree.
    static func expectedFiles() throws -> Set<String> {
        let root = PackagePaths.root
        let files = FileManager.default
        var expected: Set<String> = [
            "/usr/bin/quickactionsd",
            "/usr/bin/quickactions",
            "/usr/libexec/quickactions/quickactions-host",
            "/usr/share/dbus-1/services/org.quickactions.Broker1.service",
            "/usr/share/dbus-1/services/org.quickactions.Search1.service",
            "/usr/share/gnome-shell/search-providers/org.quickactions.Search1.search-provider.ini",
            "/usr/share/applications/org.quickactions.QuickActions.desktop",
            "/usr/share/krunner/dbusplugins/org.quickactions.Search1.desktop",
            "/usr/lib/systemd/user/quickactionsd.service",
            "/usr/share/dbus-1/interfaces/org.quickactions.Broker1.xml",
            "/usr/share/dbus-1/interfaces/org.quickactions.Application1.xml",
            "/usr/share/dbus-1/interfaces/org.quickactions.Host1.xml",
            "/usr/include/quickactions/quickactions_plugin.h",
            "/usr/share/man/man1/quickactionsd.1",
            "/usr/share/man/man1/quickactions.1",
        ]
        if files.fileExists(atPath: root.appendingPathComponent("Sources/quickactions-bundle/main.swift").path) {
            expected.insert("/usr/bin/quickactions-bundle")
        }
        if files.fileExists(atPath: root.appendingPathComponent("Sources/QuickActionsCLI/Completion").path) {
            expected.formUnion([
                "/usr/share/bash-completion/completions/quickactions",
                "/usr/share/zsh/site-functions/_quickactions",
                "/usr/share/fish/vendor_completions.d/quickactions.fish",
            ])
        }
        return expected
    }

    /// The example plugins' folders in the source tree (plugins/<Name>/Bundle).
    static func exampleBundles() -> [String] {
        let plugins = PackagePaths.root.appendingPathComponent("plugins")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: plugins.path)) ?? []
        return names.filter {
            FileManager.default.fileExists(atPath: plugins.appendingPathComponent("\($0)/Bundle/Info.plist").path)
        }.sorted()
    }

    @Test func installLaysOutEveryFileAndUninstallLeavesNothingBehind() async throws {
        let destination = try TemporaryDirectory.make(prefix: "qa-install")
        defer { try? FileManager.default.removeItem(at: destination) }
        let variables = ["DESTDIR=\(destination.path)", "PREFIX=/usr", "PRODUCTS=\(PackagePaths.products.path)"]

        let install = try await make(["install"] + variables)
        try #require(install.status == 0, "make install failed: \(install)")
        let installed = try tree(destination)
        let files = Set(installed.filter { !$0.isDirectory }.map(\.path))

        // Every file listed, and in plugins/ only whole bundles of the examples.
        let expected = try Self.expectedFiles()
        #expect(expected.subtracting(files).isEmpty, "missing: \(expected.subtracting(files).sorted())")
        let unexpected = files.subtracting(expected).filter {
            !$0.hasPrefix("/usr/share/quickactions/plugins/") && !$0.hasPrefix(Self.runtimeFolder)
        }
        #expect(unexpected.isEmpty, "unexpected: \(unexpected.sorted())")
        // The Swift runtime the executables and plugins load, beside them, shared libraries only.
        #expect(files.contains(Self.runtimeFolder + "libswiftCore.so"), "\(files.sorted())")
        #expect(files.filter { $0.hasPrefix(Self.runtimeFolder) }.allSatisfy { $0.hasSuffix(".so") })
        for bundle in Self.exampleBundles() {
            let folder = "/usr/share/quickactions/plugins/\(bundle).bundle/"
            #expect(files.contains(folder + "Info.plist"), "no Info.plist installed for plugins/\(bundle)")
            #expect(files.contains { $0.hasPrefix(folder) && $0.hasSuffix(".so") }, "no library installed for plugins/\(bundle)")
        }

        // The broker is started from its installed path, by D-Bus and by systemd.
        let service = try String(
            contentsOf: destination.appendingPathComponent("usr/share/dbus-1/services/org.quickactions.Broker1.service"),
            encoding: .utf8)
        // With the environment it needs in production: a crash ends the broker at once.
        #expect(service.contains("\nExec=/usr/bin/env SWIFT_BACKTRACE=enable=no /usr/bin/quickactionsd\n"),
                "service file: \(service)")
        #expect(service.contains("\nName=org.quickactions.Broker1\n"))
        #expect(!service.contains("@bindir@"))
        let unit = try String(
            contentsOf: destination.appendingPathComponent("usr/lib/systemd/user/quickactionsd.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/quickactionsd\n"), "unit: \(unit)")
        #expect(unit.contains("\nBusName=org.quickactions.Broker1\n"))
        #expect(unit.contains("\nEnvironment=SWIFT_BACKTRACE=enable=no\n"), "unit: \(unit)")

        // Modes: executables and plugin libraries 0755, everything else 0644, nothing group- or world-writable.
        for entry in installed {
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: destination.path + entry.path)[.posixPermissions] as? Int)
            #expect(mode & 0o022 == 0, "\(entry.path) is writable by others: \(String(mode, radix: 8))")
            if entry.isDirectory { continue }
            let executable = entry.path.hasPrefix("/usr/bin/") || entry.path.hasPrefix("/usr/libexec/")
                || entry.path.hasSuffix(".so")
            #expect(mode == (executable ? 0o755 : 0o644), "\(entry.path) has mode \(String(mode, radix: 8))")
        }

        // The installed broker starts and reports its version.
        let version = try await Command.run(destination.path + "/usr/bin/quickactionsd", ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("quickactionsd "), "\(version)")

        // The manifest lists exactly what is there, and is no part of the staged payload.
        #expect(!files.contains { $0.hasSuffix("install-manifest.txt") }, "\(files.sorted())")
        let manifestFile = try #require(Self.manifestFile(install), "\(install)")
        #expect(!manifestFile.hasPrefix(destination.path), "\(manifestFile)")
        let manifest = try String(contentsOfFile: manifestFile, encoding: .utf8)
        let listed = Set(manifest.split(separator: "\n").filter { $0.hasPrefix("f ") }.map { String($0.dropFirst(2)) })
        #expect(listed == files)

        // Stripped: no symbol table left in the executables.
        for binary in files where binary.hasPrefix("/usr/bin/") {
            let symbols = try await Command.run("nm", [destination.path + binary])
            #expect(symbols.stderr.contains("no symbols"), "\(binary) is not stripped: \(symbols.stdout.prefix(200))")
        }

        // Installing again over an install replaces it: same files.
        let again = try await make(["install"] + variables)
        try #require(again.status == 0, "the second make install failed: \(again)")
        #expect(try tree(destination) == installed)

        let uninstall = try await make(["uninstall"] + variables)
        try #require(uninstall.status == 0, "make uninstall failed: \(uninstall)")
        let left = try tree(destination)
        #expect(left.isEmpty, "left behind: \(left.map(\.path))")
        #expect(!FileManager.default.fileExists(atPath: manifestFile), "uninstall removes the manifest too")
    }

    @Test func uninstallKeepsFilesItDidNotInstall() async throws {
        let destination = try TemporaryDirectory.make(prefix: "qa-install")
        defer { try? FileManager.default.removeItem(at: destination) }
        let variables = ["DESTDIR=\(destination.path)", "PREFIX=/opt/qa", "PRODUCTS=\(PackagePaths.products.path)"]
        let install = try await make(["install"] + variables)
        try #require(install.status == 0, "make install failed: \(install)")
        // Someone else's file in a folder install created, and one beside the installed binaries.
        let own = destination.appendingPathComponent("opt/qa/share/man/man1/other.1")
        try Data("other".utf8).write(to: own)
        let beside = destination.appendingPathComponent("opt/qa/bin/other-tool")
        try Data("tool".utf8).write(to: beside)

        let uninstall = try await make(["uninstall"] + variables)
        try #require(uninstall.status == 0, "make uninstall failed: \(uninstall)")
        let left = Set(try tree(destination).filter { !$0.isDirectory }.map(\.path))
        #expect(left == ["/opt/qa/share/man/man1/other.1", "/opt/qa/bin/other-tool"])
        #expect(uninstall.stderr.contains("kept"), "uninstall should say which folders it kept: \(uninstall.stderr)")
    }

    @Test func uninstallWithoutAnInstallSaysSoAndFails() async throws {
        let destination = try TemporaryDirectory.make(prefix: "qa-install")
        defer { try? FileManager.default.removeItem(at: destination) }
        let result = try await make(["uninstall", "DESTDIR=\(destination.path)", "PREFIX=/usr"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("no install manifest at "), "\(result)")
        #expect(result.stderr.contains("nothing was installed there with these DESTDIR and PREFIX"), "\(result)")
    }

    @Test func aPerUserInstallPutsTheUnitWhereSystemdLooksForIt() async throws {
        let destination = try TemporaryDirectory.make(prefix: "qa-install")
        defer { try? FileManager.default.removeItem(at: destination) }
        let home = "/home/someone"
        let variables = ["DESTDIR=\(destination.path)", "PREFIX=\(home)/.local", "HOME=\(home)",
                         "PRODUCTS=\(PackagePaths.products.path)"]
        let install = try await make(["install"] + variables)
        try #require(install.status == 0, "make install failed: \(install)")
        let files = Set(try tree(destination).filter { !$0.isDirectory }.map(\.path))
        #expect(files.contains("\(home)/.local/share/systemd/user/quickactionsd.service"), "\(files.sorted())")
        let service = try String(
            contentsOfFile: destination.path + "\(home)/.local/share/dbus-1/services/org.quickactions.Broker1.service",
            encoding: .utf8)
        #expect(service.contains("\nExec=/usr/bin/env SWIFT_BACKTRACE=enable=no \(home)/.local/bin/quickactionsd\n"),
                "service file: \(service)")
        let uninstall = try await make(["uninstall"] + variables)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(try tree(destination).isEmpty)
    }

    // MARK: Helpers

    /// Where install puts the Swift runtime, under PREFIX=/usr.
    static let runtimeFolder = "/usr/lib/quickactions/swift/"

    /// The manifest install wrote, from its last line ("…; manifest: PATH").
    static func manifestFile(_ install: CommandResult) -> String? {
        guard let line = install.stderr.split(separator: "\n").last(where: { $0.contains("; manifest: ") }),
              let range = line.range(of: "; manifest: ") else { return nil }
        return String(line[range.upperBound...])
    }

    struct Entry: Hashable, Comparable {
        var path: String
        var isDirectory: Bool
        static func < (a: Entry, b: Entry) -> Bool { a.path < b.path }
    }

    /// Every file and folder under `root`, as installed paths ("/usr/…").
    func tree(_ root: URL) throws -> [Entry] {
        var entries: [Entry] = []
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.path + "/" + relative, isDirectory: &isDirectory)
            entries.append(Entry(path: "/" + relative, isDirectory: isDirectory.boolValue))
        }
        return entries.sorted()
    }

    func make(_ arguments: [String]) async throws -> CommandResult {
        try await Command.run("make", ["-C", PackagePaths.root.path, "--no-print-directory"] + arguments,
                              timeout: .seconds(300))
    }
}
