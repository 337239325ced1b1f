import Foundation
import QuickActionsTestSupport
import Testing

/// `quickactions-bundle check`: every warning the broker would log, and a
/// non-zero exit for a bundle the broker cannot use.
@Suite struct BundleCheckCommandTests {
    static var tool: String { PackagePaths.executable("quickactions-bundle").path }

    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
          <key>CFBundleIdentifier</key><string>com.example.Check</string>
          <key>CFBundleExecutable</key><string>libcheck.so</string>
          <key>CFBundleNmae</key><string>Check</string>
          <key>UIApplicationShortcutItems</key><array>
            <dict>
              <key>UIApplicationShortcutItemType</key><string>open</string>
              <key>UIApplicationShortcutItemTitle</key><string>Open</string>
              <key>UIApplicationShortcutItemSubTitle</key><string>Opens it</string>
              <key>UIApplicationShortcutItemIconFile</key><string>icons/open.png</string>
            </dict>
          </array>
        </dict></plist>
        """

    @Test func checkPrintsEveryWarningAndFailsOnAnUnusableBundle() async throws {
        let directory = try TemporaryDirectory.make(prefix: "qa-bundle-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("com.example.Check.bundle")
        try FileManager.default.createDirectory(at: good, withIntermediateDirectories: true)
        try Self.plist.write(to: good.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        let broken = directory.appendingPathComponent("Empty.bundle")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)

        let warned = try await Command.run(Self.tool, ["check", good.path])
        #expect(warned.status == 0, "warnings alone do not fail: \(warned)")
        let lines = warned.stdout.split(separator: "\n").map(String.init)
        let info = good.appendingPathComponent("Info.plist").path
        #expect(lines.contains("warning: \(info): unknown key \"CFBundleNmae\" is ignored; did you mean CFBundleName?"),
                "\(lines)")
        #expect(lines.contains { $0.contains("unknown key \"UIApplicationShortcutItemSubTitle\" is ignored; "
            + "did you mean UIApplicationShortcutItemSubtitle?") }, "\(lines)")
        #expect(lines.contains { $0.contains("(type \"open\"): icon file") && $0.contains("No such file") }, "\(lines)")
        #expect(lines.contains { $0.contains("libcheck.so") && $0.contains("missing") }, "\(lines)")
        #expect(lines.last == "\(good.path): ok: com.example.Check, 1 static item(s), 4 warning(s)")

        let both = try await Command.run(Self.tool, ["check", good.path, broken.path])
        #expect(both.status == 1, "\(both)")
        #expect(both.stdout.contains("error: \(broken.appendingPathComponent("Info.plist").path): "), "\(both)")
        #expect(both.stdout.hasSuffix("\(broken.path): not usable: the broker skips this bundle\n"), "\(both)")

        let none = try await Command.run(Self.tool, ["check"])
        #expect(none.status == 2, "\(none)")
    }
}
