import Foundation
import QuickActionsTestSupport
import Testing

/// The SDK's public surface is the model core and nothing else: a plugin that imports
/// QuickActionsSDK sees items, icons, user info, app ids, limits and log levels, and none of
/// QuickActionsBundles (property lists, strings tables, bundles, item identity, directories, the
/// stores). Each test type-checks a plugin's source file against the built modules with swiftc,
/// as the plugin's own build would.
@Suite struct SDKSurfaceTests {
    static let modules = PackagePaths.products.appendingPathComponent("Modules")
    static let moduleMap = PackagePaths.products.appendingPathComponent("CQuickActionsPlugin.build/module.modulemap")

    /// Type-checks `source`, a file that imports only the SDK; stdout and stderr together.
    static func typecheck(_ source: String) async throws -> (status: Int32, output: String) {
        let sdk = modules.appendingPathComponent("QuickActionsSDK.swiftmodule")
        try #require(
            FileManager.default.fileExists(atPath: sdk.path) && FileManager.default.fileExists(atPath: moduleMap.path),
            "\(sdk.path) or \(moduleMap.path) is missing: run `swift build --build-tests` first")
        let directory = try TemporaryDirectory.make(prefix: "qa-sdk-surface")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Plugin.swift")
        try ("import Foundation\nimport QuickActionsSDK\n\n" + source).write(to: file, atomically: true, encoding: .utf8)
        let result = try await Command.run(
            "swiftc",
            ["-typecheck", "-I", modules.path, "-Xcc", "-fmodule-map-file=\(moduleMap.path)", file.path],
            timeout: .seconds(120))
        return (result.status, result.stdout + result.stderr)
    }

    /// The public types QuickActionsBundles declares at top level, read from its sources, so that
    /// a broker-only type added later is checked too.
    static func brokerOnlyTypes() throws -> [String] {
        let folder = PackagePaths.root.appendingPathComponent("Sources/QuickActionsBundles")
        let declaration = try Regex(#"^public (?:final )?(?:struct|enum|class|actor|protocol|typealias) (\w+)"#)
            .anchorsMatchLineEndings()
        var names: Set<String> = []
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            for match in text.matches(of: declaration) {
                if let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names.sorted()
    }

    @Test func aPluginSeesTheModelCore() async throws {
        let result = try await Self.typecheck("""
            func uses(_ appID: AppID, _ error: AppIDError, _ limitError: ItemLimitError) throws {
                let info: UserInfo = ["n": .int(1), "list": .array([.string("a"), .bytes([1])])]
                let item = ShortcutItem(
                    type: "t", title: "T", icon: ShortcutIcon.type(ShortcutIconType.search), userInfo: info, id: "x")
                try ItemLimits.validate([item])
                _ = UserInfoValue.dictionary(info).encodedSize
                _ = IconTable.name(for: .play)
                _ = ItemLimits.maximumItems
                let level: LogLevel = .warning
                _ = level > .info
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func noBrokerOnlyTypeIsVisibleToAPlugin() async throws {
        let names = try Self.brokerOnlyTypes()
        // The scan found the module's types (a wrong path or pattern would find none).
        for expected in ["DynamicItemStore", "PluginBundle", "BundleReader", "StringsTable", "ItemIdentity", "UsageStore"] {
            #expect(names.contains(expected), "\(expected) not among \(names)")
        }
        let body = names.map { "    _ = \($0).self" }.joined(separator: "\n")
        let result = try await Self.typecheck("func uses() {\n\(body)\n}\n")
        #expect(result.status != 0, "a file using \(names) type-checked against the SDK alone")
        for name in names {
            #expect(result.output.contains("cannot find '\(name)' in scope"), "\(name) is visible through the SDK")
        }
    }

    /// QuickActionsBundles' extension of a core type (icon files resolved inside a bundle) stays
    /// broker-only too.
    @Test func bundleResolutionOfIconsIsNotVisibleToAPlugin() async throws {
        let result = try await Self.typecheck("""
            func uses() throws {
                _ = try IconTable.resolve(.file("a.png"), bundle: URL(fileURLWithPath: "/"))
            }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("has no member 'resolve'"), "\(result.output)")
    }
}
