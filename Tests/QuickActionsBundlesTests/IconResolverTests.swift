import Foundation
import QuickActionsModel
import Testing
@testable import QuickActionsBundles

/// `IconTable.resolve(_:bundle:)`: icons as D-Bus clients get them, files checked inside the bundle.
@Suite struct IconResolverTests {
    @Test func typesAndSymbolsResolveThroughTheTable() throws {
        let bundle = URL(fileURLWithPath: "/nonexistent")
        #expect(try IconTable.resolve(.type(.search), bundle: bundle) == "system-search")
        #expect(try IconTable.resolve(.type(.play), bundle: bundle) == "media-playback-start")
        #expect(try IconTable.resolve(.symbol("heart.fill"), bundle: bundle) == "emblem-favorite")
        #expect(try IconTable.resolve(.symbol("org.example.custom-icon"), bundle: bundle) == "org.example.custom-icon")
        #expect(try IconTable.resolve(.symbol("UIApplicationShortcutIconTypeHome"), bundle: bundle) == "go-home")
    }

    @Test(arguments: [
        (ShortcutIcon.symbol(""), IconError.emptyName),
        (.symbol("/etc/passwd"), .invalidName("/etc/passwd", reason: "contains '/'")),
        (.symbol("a\nb"), .invalidName("a\nb", reason: "contains a control character")),
        (.file(""), .emptyName),
        (.file("/etc/passwd"), .absolutePath("/etc/passwd")),
        (.file("../outside.png"), .parentReference("../outside.png")),
        (.file("icons/../../outside.png"), .parentReference("icons/../../outside.png")),
    ])
    func refusesInvalidNamesAndPaths(_ icon: ShortcutIcon, _ expected: IconError) throws {
        let directory = try TemporaryDirectory()
        #expect(throws: expected) { try IconTable.resolve(icon, bundle: directory.url) }
    }

    @Test func fileInsideTheBundleResolvesToItsAbsolutePath() throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.makeFolder("App")
        try directory.write("png", to: "App/icons/cover.png")
        try directory.write("svg", to: "App/Icon.svg")
        let real = try #require(realpath(bundle.path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        })
        #expect(try IconTable.resolve(.file("icons/cover.png"), bundle: bundle) == real + "/icons/cover.png")
        #expect(try IconTable.resolve(.file("./icons/cover.png"), bundle: bundle) == real + "/icons/cover.png")
        #expect(try IconTable.resolve(.file("Icon"), bundle: bundle) == real + "/Icon.svg")
        #expect(throws: IconError.self) { try IconTable.resolve(.file("missing.png"), bundle: bundle) }
        #expect(throws: IconError.notARegularFile(path: real + "/icons")) {
            try IconTable.resolve(.file("icons"), bundle: bundle)
        }
    }

    @Test func symlinkPointingOutsideTheBundleIsRefused() throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.makeFolder("App")
        let secret = try directory.write("secret", to: "secret.png")
        #expect(symlink(secret.path, bundle.path + "/escape.png") == 0)
        #expect(symlink(directory.path, bundle.path + "/up") == 0)
        do {
            _ = try IconTable.resolve(.file("escape.png"), bundle: bundle)
            Issue.record("expected the symlink to be refused")
        } catch {
            guard case .escapesBundle(let path, let resolved) = error else {
                Issue.record("expected escapesBundle, got \(error)")
                return
            }
            #expect(path == "escape.png")
            #expect(resolved.hasSuffix("/secret.png"))
            #expect(error.description.contains("escape.png"))
        }
        #expect(throws: IconError.self) { try IconTable.resolve(.file("up/secret.png"), bundle: bundle) }
    }

    @Test func symlinkInsideTheBundleIsAllowed() throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.makeFolder("App")
        try directory.write("png", to: "App/real.png")
        #expect(symlink("real.png", bundle.path + "/alias.png") == 0)
        let resolved = try IconTable.resolve(.file("alias.png"), bundle: bundle)
        #expect(resolved.hasSuffix("/App/real.png"))
    }
}
