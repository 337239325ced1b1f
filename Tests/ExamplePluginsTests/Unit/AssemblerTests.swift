import Foundation
import Glibc
import QuickActionsTestSupport
import Testing

/// `quickactions-bundle`: assembling, replacing, and refusing with the value at fault.
@Suite struct AssemblerTests {
    @Test func assemblesEveryExampleIntoABundleWithSafeModes() async throws {
        let examples = try await AssembledExamples()
        defer { examples.remove() }
        #expect(examples.printed == AssembledExamples.all.map { examples.bundleURL($0).path })
        let contents = try FileManager.default.contentsOfDirectory(atPath: examples.directory.path).sorted()
        #expect(contents == AssembledExamples.all.map { "\($0).bundle" }, "no staging folder may be left behind")
        for name in AssembledExamples.all {
            let bundle = try examples.bundle(name)
            for (path, mode) in try modes(under: bundle.url) {
                let expected: mode_t
                if path == bundle.url.path || isFolder(path) {
                    expected = 0o755
                } else if path == bundle.executableURL.path {
                    expected = 0o755
                } else {
                    expected = 0o644
                }
                #expect(mode == expected, "\(path): mode \(String(mode, radix: 8)), expected \(String(expected, radix: 8))")
            }
            #expect(FileManager.default.fileExists(atPath: bundle.executableURL.path), "\(name): library missing")
        }
    }

    @Test func reassemblingReplacesTheWholeBundle() async throws {
        let examples = try await AssembledExamples(["Contacts"])
        defer { examples.remove() }
        let stray = examples.bundleURL("Contacts").appendingPathComponent("stray.txt")
        try Data("left over".utf8).write(to: stray)
        let again = try await AssembledExamples.assemble(into: examples.directory, ["Contacts"])
        #expect(again.status == 0, "\(again)")
        #expect(!FileManager.default.fileExists(atPath: stray.path), "a file of the old bundle survived")
        let contents = try FileManager.default.contentsOfDirectory(atPath: examples.directory.path)
        #expect(contents == ["Contacts.bundle"])
    }

    @Test func anUnknownExampleIsNamedAndNothingIsWritten() async throws {
        let output = try TemporaryDirectory.make(prefix: "qa-assembler")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await AssembledExamples.assemble(into: output, ["Nope"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no example 'Nope'"), "\(result)")
        #expect(result.stderr.contains("Contacts, Favorites, Music, Stacks"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    @Test(arguments: [
        (["--output", "/tmp/x"], "--products is required"),
        (["--source"], "--source needs a folder"),
        (["--bogus"], "unknown option '--bogus'"),
    ])
    func aWrongCommandLineExitsWithStatus2(_ arguments: [String], _ message: String) async throws {
        let result = try await Command.run(PackagePaths.executable("quickactions-bundle").path, arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test func helpDescribesTheCommand() async throws {
        let result = try await Command.run(PackagePaths.executable("quickactions-bundle").path, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: quickactions-bundle check BUNDLE..."))
        #expect(result.stdout.contains("quickactions-bundle --products DIR --output DIR"))
        #expect(result.stdout.contains("EXIT STATUS"))
    }

    @Test func aMissingLibraryIsNamedWithTheProductToBuild() async throws {
        let output = try TemporaryDirectory.make(prefix: "qa-assembler")
        let products = try TemporaryDirectory.make(prefix: "qa-products")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: products)
        }
        let result = try await AssembledExamples.runAssembler(
            ["--source", PackagePaths.root.appendingPathComponent("plugins").path, "--output", output.path, "Music"],
            products: products)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(products.path)/libQuickActionsExampleMusic.so is missing"), "\(result)")
        #expect(result.stderr.contains("swift build --product QuickActionsExampleMusic"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    /// Info.plists the assembler must refuse, with what its message must say.
    static let brokenManifests: [(plist: String, files: [String], message: String)] = [
        (manifest(item: "<key>UIApplicationShortcutItemType</key><string>a</string>"), [],
         "no UIApplicationShortcutItemTitle"),
        (manifest(item: """
            <key>UIApplicationShortcutItemType</key><string>a</string>
            <key>UIApplicationShortcutItemTitle</key><string>A</string>
            <key>UIApplicationShortcutItemIconFile</key><string>Icons/missing.svg</string>
            """), [], "UIApplicationShortcutItems[0] (type \"a\"): icon file"),
        ("<plist><dict><key>CFBundleIdentifier</key>", [], "Info.plist"),
        (manifest(item: "<key>UIApplicationShortcutItemType</key><string>a</string>"
                  + "<key>UIApplicationShortcutItemTitle</key><string>A</string>"),
         ["Icons/link"], "neither a regular file nor a folder"),
    ]

    @Test(arguments: brokenManifests)
    func aBrokenExampleIsRefusedAndNothingIsWritten(_ plist: String, _ links: [String], _ message: String) async throws {
        let source = try TemporaryDirectory.make(prefix: "qa-source")
        let output = try TemporaryDirectory.make(prefix: "qa-assembler")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: output)
        }
        let resources = source.appendingPathComponent("Broken/Bundle")
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        try Data(plist.utf8).write(to: resources.appendingPathComponent("Info.plist"))
        for link in links {
            let url = resources.appendingPathComponent(link)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/etc/hostname")
        }
        let result = try await AssembledExamples.assemble(into: output, source: source)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty, "left behind")
    }

    /// An Info.plist for the Music library with one item made of `item`'s keys.
    static func manifest(item: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>org.example.broken</string>
        <key>CFBundleExecutable</key><string>libQuickActionsExampleMusic.so</string>
        <key>UIApplicationShortcutItems</key><array><dict>\(item)</dict></array>
        </dict></plist>
        """
    }

    private func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Every path under `root` (itself included) with its permission bits.
    private func modes(under root: URL) throws -> [(String, mode_t)] {
        var paths = [root.path]
        if let enumerator = FileManager.default.enumerator(atPath: root.path) {
            for case let relative as String in enumerator {
                paths.append(root.appendingPathComponent(relative).path)
            }
        }
        return try paths.map { path in
            var status = stat()
            guard lstat(path, &status) == 0 else { throw TestSupportError("lstat \(path): errno \(errno)") }
            return (path, status.st_mode & 0o7777)
        }
    }
}
