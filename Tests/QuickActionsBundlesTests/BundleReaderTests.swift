import Foundation
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct BundleReaderTests {
    @Test func readsABundleWithItsTablesAndIdentity() throws {
        let directory = try TemporaryDirectory()
        let url = try BundleFixtures.writeBundle("Music", in: directory, plist: BundleFixtures.fullInfoPlist())
        try directory.write("\"CFBundleDisplayName\" = \"Musik\";\n\"Play\" = \"Abspielen\";", to: "Music/de.lproj/InfoPlist.strings")
        var utf16 = Data([0xFF, 0xFE])
        for unit in "\"Play\" = \"Lire\"; \"Resume playback\" = \"Reprendre\";".utf16 {
            withUnsafeBytes(of: unit.littleEndian) { utf16.append(contentsOf: $0) }
        }
        try directory.write(utf16, to: "Music/fr.lproj/InfoPlist.strings")
        try directory.write("\"Search\" = \"Find\";", to: "Music/Base.lproj/InfoPlist.strings")
        try directory.write(Data(), to: "Music/icons/cover.png")

        let result = BundleReader.read(bundleAt: url)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let bundle = try #require(result.bundle)
        #expect(bundle.appID.rawValue == "com.example.music")
        #expect(bundle.executableURL.lastPathComponent == "libMusic.so")
        #expect(Set(bundle.localizations.tables.keys) == ["de", "fr", "Base"])
        #expect(bundle.displayName(locale: "de_DE.UTF-8") == "Musik")
        #expect(bundle.displayName(locale: "it_IT") == "Music")
        let french = bundle.localizedStaticItems(locale: "fr_FR.UTF-8")
        #expect(french.map(\.title) == ["Lire", "Find", "Cover"])
        #expect(french.first?.subtitle == "Reprendre")
        #expect(bundle.localizedStaticItems(locale: "de_AT").first?.subtitle == "Resume playback")

        let plistIdentity = try #require(FileIdentity.of(path: bundle.infoPlistURL.path))
        #expect(bundle.identity.infoPlist == plistIdentity)
        #expect(bundle.identity.executable == FileIdentity.of(path: bundle.executableURL.path))
        #expect(bundle.identity.executable != nil)
    }

    @Test func identityChangesWhenTheFileIsReplaced() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("one", to: "f")
        let before = try #require(FileIdentity.of(path: file.path))
        #expect(FileIdentity.of(path: file.path) == before)
        try directory.write("two!", to: "f.new")
        #expect(rename(directory.path + "/f.new", file.path) == 0)
        let after = try #require(FileIdentity.of(path: file.path))
        #expect(after != before)
        #expect(after.size == 4)
        #expect(FileIdentity.of(path: directory.path + "/missing") == nil)
    }

    @Test func brokenInfoPlistFailsTheBundleNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("<plist><dict><key>oops", to: "Broken/Info.plist")
        let result = BundleReader.read(bundleAt: directory.url.appendingPathComponent("Broken"))
        #expect(result.bundle == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.file == directory.path + "/Broken/Info.plist")
        #expect(diagnostic.reason.contains("not a property list"))
    }

    @Test func missingInfoPlistFailsTheBundle() throws {
        let directory = try TemporaryDirectory()
        let folder = try directory.makeFolder("Empty")
        let result = BundleReader.read(bundleAt: folder)
        #expect(result.bundle == nil)
        #expect(result.diagnostics.first?.reason.contains("cannot be read") == true)
    }

    @Test func brokenStringsTableIsAWarningAndOthersStillLoad() throws {
        let directory = try TemporaryDirectory()
        let url = try BundleFixtures.writeBundle("App", in: directory, plist: BundleFixtures.minimal())
        try directory.write("\"a\" = \"b\"\n\"c\" = \"d\";", to: "App/de.lproj/InfoPlist.strings")
        try directory.write("\"a\" = \"B\";", to: "App/fr.lproj/InfoPlist.strings")
        let result = BundleReader.read(bundleAt: url)
        let bundle = try #require(result.bundle)
        #expect(Array(bundle.localizations.tables.keys) == ["fr"])
        let warning = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.file.hasSuffix("App/de.lproj/InfoPlist.strings"))
        #expect(warning.reason.contains("line 2, column 1"), "\(warning.reason)")
    }

    @Test func missingExecutableIsAWarning() throws {
        let directory = try TemporaryDirectory()
        try directory.write(try BundleFixtures.data(BundleFixtures.minimal()), to: "App/Info.plist")
        let result = BundleReader.read(bundleAt: directory.url.appendingPathComponent("App"))
        let bundle = try #require(result.bundle)
        #expect(bundle.identity.executable == nil)
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.diagnostics.first?.file.hasSuffix("App/libapp.so") == true)
    }

    @Test func oversizedInfoPlistIsRefusedUnread() throws {
        let directory = try TemporaryDirectory()
        let big = Data(count: BundleManifest.maximumInfoPlistSize + 1)
        try directory.write(big, to: "Big/Info.plist")
        let result = BundleReader.read(bundleAt: directory.url.appendingPathComponent("Big"))
        #expect(result.bundle == nil)
        #expect(result.diagnostics.first?.reason.contains("more than") == true)
    }

    @Test func fifoInPlaceOfInfoPlistIsRefusedWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        let folder = try directory.makeFolder("Fifo")
        #expect(mkfifo(folder.path + "/Info.plist", 0o600) == 0)
        let result = BundleReader.read(bundleAt: folder)
        #expect(result.bundle == nil)
        #expect(result.diagnostics.first?.reason.contains("not a regular file") == true, "\(result.diagnostics)")
    }
}
