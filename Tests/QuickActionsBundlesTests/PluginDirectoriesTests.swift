import Foundation
import Glibc
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct PluginDirectoriesTests {
    @Test(arguments: [
        (["/a", "/b"], ["QUICKACTIONS_PLUGIN_PATH": "/env"], ["/a", "/b"]),
        ([], ["QUICKACTIONS_PLUGIN_PATH": "/x::/y:", "XDG_DATA_HOME": "/d"], ["/x", "/y"]),
        ([], ["QUICKACTIONS_PLUGIN_PATH": "::", "HOME": "/home/u"],
         ["/home/u/.local/share/quickactions/plugins", "/usr/local/share/quickactions/plugins", "/usr/share/quickactions/plugins"]),
        ([], ["HOME": "/home/u"],
         ["/home/u/.local/share/quickactions/plugins", "/usr/local/share/quickactions/plugins", "/usr/share/quickactions/plugins"]),
        ([], ["HOME": "/home/u", "XDG_DATA_HOME": "/data/", "XDG_DATA_DIRS": "/opt/share:relative::/srv/"],
         ["/data/quickactions/plugins", "/opt/share/quickactions/plugins", "/srv/quickactions/plugins"]),
        ([], ["HOME": "/home/u", "XDG_DATA_HOME": "relative", "XDG_DATA_DIRS": ""],
         ["/home/u/.local/share/quickactions/plugins", "/usr/local/share/quickactions/plugins", "/usr/share/quickactions/plugins"]),
        ([], [:], ["/usr/local/share/quickactions/plugins", "/usr/share/quickactions/plugins"]),
        ([], ["XDG_DATA_HOME": "/usr/share", "XDG_DATA_DIRS": "/usr/share"], ["/usr/share/quickactions/plugins"]),
    ] as [([String], [String: String], [String])])
    func resolvesDirectoriesInPrecedenceOrder(_ plugins: [String], _ environment: [String: String], _ expected: [String]) {
        #expect(PluginDirectories.resolve(plugins: plugins, environment: environment).map(\.path) == expected)
    }

    @Test func firstBundleWithAnAppIDWinsAndDuplicatesAreReported() throws {
        let directory = try TemporaryDirectory()
        var first = BundleFixtures.minimal(id: "com.example.dup")
        first["CFBundleDisplayName"] = "First"
        var second = BundleFixtures.minimal(id: "com.example.dup")
        second["CFBundleDisplayName"] = "Second"
        try BundleFixtures.writeBundle("Z-Dup", in: directory, plist: first, under: "high")
        try BundleFixtures.writeBundle("A-Dup", in: directory, plist: second, under: "low")
        try BundleFixtures.writeBundle("Other", in: directory, plist: BundleFixtures.minimal(id: "com.example.other"), under: "low")
        try BundleFixtures.writeBundle(".Hidden", in: directory, plist: BundleFixtures.minimal(id: "com.example.hidden"), under: "low")
        try directory.write("not a bundle", to: "low/README")
        try directory.write("broken", to: "low/Broken/Info.plist")

        let scan = PluginDirectories.scan([
            directory.url.appendingPathComponent("high"),
            directory.url.appendingPathComponent("missing"),
            directory.url.appendingPathComponent("low"),
        ])
        #expect(scan.bundles.map(\.appID.rawValue) == ["com.example.dup", "com.example.other"])
        #expect(scan.bundles.first?.manifest.displayName == "First")
        let duplicate = try #require(scan.diagnostics.first { $0.reason.contains("duplicate") })
        #expect(duplicate.file == directory.path + "/low/A-Dup")
        #expect(duplicate.reason.contains(directory.path + "/high/Z-Dup"))
        #expect(scan.diagnostics.contains { $0.severity == .error && $0.file.hasSuffix("low/Broken/Info.plist") })
        #expect(scan.diagnostics.count == 2, "\(scan.diagnostics)")
    }

    @Test func withinADirectoryFoldersAreTakenInNameOrder() throws {
        let directory = try TemporaryDirectory()
        var a = BundleFixtures.minimal(id: "com.example.same")
        a["CFBundleDisplayName"] = "A"
        var b = a
        b["CFBundleDisplayName"] = "B"
        try BundleFixtures.writeBundle("b", in: directory, plist: b)
        try BundleFixtures.writeBundle("a", in: directory, plist: a)
        let scan = PluginDirectories.scan([directory.url])
        #expect(scan.bundles.map(\.manifest.displayName) == ["A"])
    }
}

/// A plugin directory that cannot be listed is reported, never taken as empty.
@Suite struct PluginDirectoryListingTests {
    @Test(arguments: ["missing", "file", "fifo"])
    func aDirectoryThatCannotBeListedIsUnlistedNotEmpty(_ kind: String) throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("plugins")
        switch kind {
        case "file": try directory.write("x", to: "plugins")
        case "fifo": #expect(mkfifo(target.path, 0o600) == 0)
        default: break
        }
        try BundleFixtures.writeBundle("App", in: directory, plist: BundleFixtures.minimal(id: "com.example.app"), under: "other")
        let scan = PluginDirectories.scan([target, directory.url.appendingPathComponent("other")])
        #expect(scan.bundles.map(\.appID.rawValue) == ["com.example.app"])
        #expect(scan.unlisted.map(\.directory.path) == [target.path])
        #expect(scan.unlisted.first?.missing == (kind == "missing"))
        #expect(scan.unlisted.first?.reason == (kind == "missing" ? "No such file or directory" : "not a folder"))
        #expect(!scan.isComplete)
        var diagnostics: [Diagnostic] = []
        #expect(PluginDirectories.bundleFolders(in: target, diagnostics: &diagnostics).isEmpty)
        #expect(diagnostics.count == (kind == "missing" ? 0 : 1))
    }

    @Test func aBundleWhoseInfoPlistCannotBeReadMakesTheScanIncomplete() throws {
        let directory = try TemporaryDirectory()
        try BundleFixtures.writeBundle("Good", in: directory, plist: BundleFixtures.minimal(id: "com.example.good"))
        _ = try directory.makeFolder("Loop")
        try FileManager.default.createSymbolicLink(
            atPath: directory.url.appendingPathComponent("Loop/Info.plist").path, withDestinationPath: "Info.plist")
        try directory.write("broken", to: "Broken/Info.plist")
        _ = try directory.makeFolder("Empty")
        let scan = PluginDirectories.scan([directory.url])
        #expect(scan.bundles.map(\.appID.rawValue) == ["com.example.good"])
        #expect(scan.unreadableBundles.map(\.lastPathComponent) == ["Loop"],
                "a broken or missing Info.plist is a bad bundle, not an unknown one")
        #expect(scan.unlisted.isEmpty)
        #expect(!scan.isComplete)
    }
}
