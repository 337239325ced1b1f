import DBus
import Foundation
import QuickActionsSearch
import Testing

/// The small pure pieces of the bridges: icons, options, the runner file's folder.
@Suite struct BridgePiecesTests {
    @Test(arguments: [
        ("avatar-default", Value.structure([.string("themed"), .variant(.array(.string, [.string("avatar-default")]))])),
        ("/opt/app/Icons/a b%.svg", Value.structure([.string("file"), .variant(.string("file:///opt/app/Icons/a%20b%25.svg"))])),
        ("/tmp/é.png", Value.structure([.string("file"), .variant(.string("file:///tmp/%C3%A9.png"))])),
    ])
    func serializedGIcons(icon: String, expected: Value) {
        #expect(SearchIcon.serializedGIcon(icon) == expected)
    }

    @Test func anEntryFallsBackToItsAppsIcon() {
        var entry = SearchEntry(appID: "a.b", appName: "A", appIcon: "app-icon", itemID: "x", type: "x", title: "X")
        #expect(SearchIcon.name(for: entry) == "app-icon")
        entry.icon = "item-icon"
        #expect(SearchIcon.name(for: entry) == "item-icon")
        entry.appIcon = ""
        entry.icon = nil
        #expect(SearchIcon.name(for: entry) == nil)
    }

    @Test(arguments: [
        (["--no-search", "--verbose"], SearchOptions(gnomeShell: false, krunner: false, dock: false), ["--verbose"]),
        (["--no-krunner", "--plugins", "/p"], SearchOptions(gnomeShell: true, krunner: false, dock: true), ["--plugins", "/p"]),
        (["--no-dock", "--no-gnome-shell"], SearchOptions(gnomeShell: false, krunner: true, dock: false), []),
        ([], SearchOptions(), []),
    ])
    func quickactionsdOptions(arguments: [String], options: SearchOptions, rest: [String]) {
        let extracted = SearchOptions.extract(from: arguments)
        #expect(extracted.options == options)
        #expect(extracted.rest == rest)
    }

    @Test(arguments: [
        (["XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/data/krunner/dbusplugins"),
        (["XDG_DATA_HOME": "relative", "HOME": "/home/u"], "/home/u/.local/share/krunner/dbusplugins"),
        (["HOME": "/home/u"], "/home/u/.local/share/krunner/dbusplugins"),
        (["HOME": "relative"], nil),
    ] as [([String: String], String?)])
    func runnerFileFolder(environment: [String: String], expected: String?) {
        #expect(KRunnerMetadata.userDirectory(environment: environment)?.path == expected)
    }

    @Test func theRunnerFileIsWrittenOnceAndRefusedWithoutAHome() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qa-krunner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try KRunnerMetadata.installForUser(environment: ["XDG_DATA_HOME": folder.path])
        #expect(try String(contentsOf: file, encoding: .utf8) == KRunnerMetadata.contents)
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        try KRunnerMetadata.installForUser(environment: ["XDG_DATA_HOME": folder.path])
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == before)
        #expect(throws: KRunnerMetadataError.self) { try KRunnerMetadata.installForUser(environment: [:]) }
    }
}

/// What a plugin says reaches a notification as plain text.
@Suite struct NotificationTextTests {
    @Test func markupIsEscapedAndTheBodyBounded() {
        #expect(DesktopNotifier.escaped("<a href=\"x\">R&D</a>") == "&lt;a href=\"x\"&gt;R&amp;D&lt;/a&gt;")
        #expect(DesktopNotifier.escaped(String(repeating: "x", count: 5000)).count == 1000)
    }
}
