import Foundation
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

@testable import QuickActionsProviders

/// The provider on a temporary `$XDG_DATA_HOME` and `$HOME`, with files GLib writes.
final class RecentFixture: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a constant.
    let root: URL
    let home: String
    let dataHome: String
    let xbel: String
    let apps: FakeApplications
    let launcher = RecordingLauncher()
    let published = Published()
    let logs = LogLines()
    let provider: RecentDocumentsProvider

    init(apps: [InstalledApplication] = RecentFixture.standardApps, limit: Int = 5) throws {
        root = try TemporaryDirectory.make(prefix: "qa-recent")
        home = root.appendingPathComponent("home").path
        dataHome = home + "/.local/share"
        xbel = dataHome + "/recently-used.xbel"
        try FileManager.default.createDirectory(atPath: dataHome, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/Documents", withIntermediateDirectories: true)
        self.apps = FakeApplications(apps)
        provider = RecentDocumentsProvider(
            applications: self.apps, launcher: launcher,
            settings: .init(limit: limit, settleDelay: .milliseconds(50), log: logs.log),
            environment: ["HOME": home, "XDG_DATA_HOME": dataHome],
            icons: MimeIcons(dataDirectories: [], available: { $0.hasSuffix("-x-generic") || $0 == "text-plain" }))
    }

    deinit {
        provider.stop()
        try? FileManager.default.removeItem(at: root)
    }

    static let standardApps: [InstalledApplication] = [
        .make("org.gnome.gedit", name: "Text Editor", exec: "gedit %U"),
        .make("org.gnome.eog", name: "Image Viewer", exec: "eog %U"),
    ]

    /// Makes a document under home and returns its URI.
    func document(_ relative: String) throws -> String {
        let path = home + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        return URL(fileURLWithPath: path).absoluteString
    }

    func start() { provider.start(publish: published.publish) }
}

@Suite("Recent documents provider")
struct RecentDocumentsProviderTests {
    @Test("publishes each app's documents from GLib's file: title, ~ folder, MIME icon, uri, newest first")
    func publishesDocuments() async throws {
        let fixture = try RecentFixture()
        let notes = try fixture.document("Documents/notes one.txt")
        let photo = try fixture.document("Pictures/photo.png")
        let older = try fixture.document("older.txt")
        try await GLibBookmarkFile.write([
            .init(uri: notes, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_300)]),
            .init(uri: older, mime: "text/x-csrc", applications: [.init(name: "Text Editor", exec: "x %u", modified: 1_700_000_100)]),
            .init(uri: photo, mime: "image/png", applications: [.init(name: "eog", exec: "eog %u", modified: 1_700_000_200)]),
            .init(uri: "file:///nonexistent/qa/gone.txt", mime: "text/plain",
                  applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_400)]),
        ], to: fixture.xbel)
        fixture.start()
        #expect(await eventually { fixture.published.titles("org.gnome.gedit") == ["notes one.txt", "older.txt"] },
                "got \(String(describing: fixture.published.latest))")
        let apps = try #require(fixture.published.latest)
        #expect(apps.map(\.appID) == ["org.gnome.eog", "org.gnome.gedit"])
        let gedit = try #require(apps.first { $0.appID == "org.gnome.gedit" })
        #expect(gedit.name.value == "Text Editor")
        #expect(gedit.desktopID == "org.gnome.gedit.desktop")
        let first = try #require(gedit.items.first)
        #expect(first.id == notes)
        #expect(first.type == "org.quickactions.recent-document")
        #expect(first.subtitle?.value == "~/Documents")
        #expect(first.icon == "text-plain")
        #expect(first.userInfo == ["uri": .string(notes)])
        #expect(!first.isStatic)
        #expect(gedit.items.last?.icon == "text-x-generic")
        #expect(gedit.items.last?.subtitle?.value == "~")
        let eog = try #require(apps.first { $0.appID == "org.gnome.eog" })
        #expect(eog.items.map(\.title.value) == ["photo.png"])
        #expect(eog.items.first?.icon == "image-x-generic")
    }

    @Test("at most the limit per app")
    func limit() async throws {
        let fixture = try RecentFixture(limit: 2)
        var entries: [GLibBookmarkFile.Entry] = []
        for index in 0..<4 {
            let uri = try fixture.document("d\(index).txt")
            entries.append(.init(uri: uri, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000 + index)]))
        }
        try await GLibBookmarkFile.write(entries, to: fixture.xbel)
        fixture.start()
        #expect(await eventually { fixture.published.titles("org.gnome.gedit") == ["d3.txt", "d2.txt"] })
    }

    @Test("follows the file when GLib replaces it by rename, and re-reads on a deleted document")
    func followsRename() async throws {
        let fixture = try RecentFixture()
        let a = try fixture.document("a.txt")
        let b = try fixture.document("b.txt")
        try await GLibBookmarkFile.write([
            .init(uri: a, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
        ], to: fixture.xbel)
        fixture.start()
        #expect(await eventually { fixture.published.titles("org.gnome.gedit") == ["a.txt"] })
        try await GLibBookmarkFile.write([
            .init(uri: a, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
            .init(uri: b, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_100)]),
        ], to: fixture.xbel)
        #expect(await eventually(.seconds(2)) { fixture.published.titles("org.gnome.gedit") == ["b.txt", "a.txt"] },
                "got \(String(describing: fixture.published.titles("org.gnome.gedit")))")
        // A document deleted: dropped at the next read of the file.
        try FileManager.default.removeItem(atPath: fixture.home + "/b.txt")
        try await GLibBookmarkFile.write([
            .init(uri: a, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
            .init(uri: b, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_200)]),
        ], to: fixture.xbel)
        #expect(await eventually { fixture.published.titles("org.gnome.gedit") == ["a.txt"] })
    }

    @Test("keeps the previous items when the file turns hostile, and logs naming it", arguments: [
        "bomb", "garbage", "sparse", "huge attribute",
    ])
    func keepsPreviousItems(_ kind: String) async throws {
        let fixture = try RecentFixture()
        let a = try fixture.document("a.txt")
        try await GLibBookmarkFile.write([
            .init(uri: a, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
        ], to: fixture.xbel)
        fixture.start()
        #expect(await eventually { fixture.published.titles("org.gnome.gedit") == ["a.txt"] })
        let temporary = fixture.dataHome + "/.recently-used.xbel.tmp"
        switch kind {
        case "bomb":
            try BookmarkFileTests.billionLaughs.write(toFile: temporary, atomically: false, encoding: .utf8)
        case "garbage":
            try "<xbel><bookmark href=".write(toFile: temporary, atomically: false, encoding: .utf8)
        case "sparse":
            _ = FileManager.default.createFile(atPath: temporary, contents: nil)
            let handle = try FileHandle(forWritingAtPath: temporary).unwrapped()
            try handle.truncate(atOffset: 1 << 30)
            try handle.close()
        default:
            try ("<xbel><bookmark href=\"" + String(repeating: "x", count: 100_000) + "\"/></xbel>")
                .write(toFile: temporary, atomically: false, encoding: .utf8)
        }
        #expect(rename(temporary, fixture.xbel) == 0)
        #expect(await eventually { fixture.logs.all.contains { $0.contains(fixture.xbel) && $0.contains("refused") } },
                "logs: \(fixture.logs.all)")
        #expect(fixture.published.titles("org.gnome.gedit") == ["a.txt"])
    }

    @Test("re-matches when the installed applications change")
    func rematches() async throws {
        let fixture = try RecentFixture(apps: [])
        let a = try fixture.document("a.txt")
        try await GLibBookmarkFile.write([
            .init(uri: a, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
        ], to: fixture.xbel)
        fixture.start()
        #expect(await eventually { fixture.published.latest == [] })
        fixture.apps.set(RecentFixture.standardApps)
        #expect(await eventually { fixture.published.titles("org.gnome.gedit") == ["a.txt"] })
        fixture.apps.set([])
        #expect(await eventually { fixture.published.latest == [] })
    }

    @Test("a data folder that vanishes and comes back is watched again")
    func folderReturns() async throws {
        let fixture = try RecentFixture()
        let a = try fixture.document("Documents/a.txt")
        fixture.start()
        #expect(await eventually { fixture.published.latest == [] })
        try FileManager.default.removeItem(atPath: fixture.dataHome)
        try await Task.sleep(for: .milliseconds(200))  // lets the watcher see the folder go; not an assertion
        try FileManager.default.createDirectory(atPath: fixture.dataHome, withIntermediateDirectories: true)
        try await GLibBookmarkFile.write([
            .init(uri: a, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
        ], to: fixture.xbel)
        #expect(await eventually { fixture.published.titles("org.gnome.gedit") == ["a.txt"] })
    }

    @Test("stop ends watching and observing; nothing is published after it")
    func stops() async throws {
        let fixture = try RecentFixture()
        fixture.start()
        #expect(await eventually { fixture.published.count == 1 })
        #expect(fixture.apps.observerCount == 1)
        fixture.provider.stop()
        #expect(fixture.apps.observerCount == 0)
        let a = try fixture.document("a.txt")
        try await GLibBookmarkFile.write([
            .init(uri: a, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
        ], to: fixture.xbel)
        fixture.apps.set(RecentFixture.standardApps)
        #expect(fixture.published.count == 1)
    }
}

@Suite("Recent documents perform")
struct RecentDocumentsPerformTests {
    static func perform(_ provider: RecentDocumentsProvider, _ request: ProvidedPerform) async -> ProvidedOutcome {
        await withCheckedContinuation { continuation in
            provider.perform(request) { continuation.resume(returning: $0) }
        }
    }

    static func item(_ uri: String) -> ProvidedItem {
        ProvidedItem(id: uri, type: RecentDocumentsProvider.itemType, title: "x", userInfo: ["uri": .string(uri)], isStatic: false)
    }

    @Test("opens the document in its app through the launcher, passing the launch context on")
    func opens() async throws {
        let fixture = try RecentFixture()
        let uri = try fixture.document("a b.txt")
        let context = LaunchContext(activationToken: "token-1", startupID: "startup-1")
        let outcome = await Self.perform(
            fixture.provider, ProvidedPerform(appID: "org.gnome.gedit", item: Self.item(uri), launch: context))
        #expect(outcome == .succeeded("Started Text Editor"))
        #expect(fixture.launcher.recorded == [.init(appID: "org.gnome.gedit", action: nil, uris: [uri], context: context)])
    }

    @Test("a document deleted since it was listed is a failure naming it")
    func deleted() async throws {
        let fixture = try RecentFixture()
        let uri = try fixture.document("Documents/gone.txt")
        try FileManager.default.removeItem(atPath: fixture.home + "/Documents/gone.txt")
        let outcome = await Self.perform(fixture.provider, ProvidedPerform(appID: "org.gnome.gedit", item: Self.item(uri)))
        #expect(outcome == .failed("gone.txt was deleted (~/Documents/gone.txt)"))
        #expect(fixture.launcher.recorded.isEmpty)
    }

    @Test("an app whose Exec takes no file fails saying so, unless it is D-Bus activatable")
    func takesNoFile() async throws {
        let fixture = try RecentFixture(apps: [
            .make("org.example.Plain", name: "Plain", exec: "plain --new-window"),
            .make("org.example.Activated", name: "Activated", exec: "activated", dbusActivatable: true),
        ])
        let uri = try fixture.document("a.txt")
        let plain = await Self.perform(fixture.provider, ProvidedPerform(appID: "org.example.Plain", item: Self.item(uri)))
        #expect(plain == .failed("Plain does not open files (its Exec has no %f, %F, %u or %U)"))
        let activated = await Self.perform(fixture.provider, ProvidedPerform(appID: "org.example.Activated", item: Self.item(uri)))
        #expect(activated.success)
        #expect(fixture.launcher.recorded.map(\.appID) == ["org.example.Activated"])
    }

    @Test("an app that is gone or a URI that is not a local file fails, naming it")
    func refusals() async throws {
        let fixture = try RecentFixture()
        let gone = await Self.perform(fixture.provider, ProvidedPerform(appID: "org.gone", item: Self.item("file:///tmp")))
        #expect(gone == .failed("org.gone is not an installed application"))
        let remote = await Self.perform(
            fixture.provider, ProvidedPerform(appID: "org.gnome.gedit", item: Self.item("https://example.org/x")))
        #expect(remote == .failed("https://example.org/x is not a local file"))
    }
}

extension Optional {
    func unwrapped(_ what: String = "value") throws -> Wrapped {
        guard let self else { throw TestSupportError("no \(what)") }
        return self
    }
}
