import Foundation
import QuickActionsBundles
import QuickActionsModel
import QuickActionsTestSupport

/// The example plugins assembled into bundles the way `make plugins` does: `quickactions-bundle`
/// run on the build products (the folder beside the test bundle, where `swift build` puts the
/// `libQuickActionsExample<Name>.so` products), into a fresh temporary plugin directory.
///
/// ``remove()`` deletes the folder; every test calls it.
struct AssembledExamples {
    /// The plugin directory holding `<Name>.bundle`.
    let directory: URL
    /// What the assembler printed: one bundle path per line.
    let printed: [String]

    /// The example names, as their folders in plugins/ are called.
    static let all = ["Contacts", "Favorites", "Music", "Stacks"]

    /// Assembles `names` (every example when empty).
    init(_ names: [String] = []) async throws {
        let directory = try TemporaryDirectory.make(prefix: "qa-examples")
        let result = try await Self.assemble(into: directory, names)
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw TestSupportError("quickactions-bundle failed: \(result)")
        }
        self.directory = directory
        printed = result.stdout.split(separator: "\n").map(String.init)
    }

    /// Runs `quickactions-bundle` with these arguments after `--products <products>`.
    static func runAssembler(_ arguments: [String], products: URL = PackagePaths.products) async throws -> CommandResult {
        try await Command.run(
            PackagePaths.executable("quickactions-bundle").path, ["--products", products.path] + arguments,
            timeout: .seconds(120))
    }

    static func assemble(
        into directory: URL, _ names: [String] = [], source: URL = PackagePaths.root.appendingPathComponent("plugins")
    ) async throws -> CommandResult {
        try await runAssembler(["--source", source.path, "--output", directory.path] + names)
    }

    /// The bundle folder of example `name`.
    func bundleURL(_ name: String) -> URL {
        directory.appendingPathComponent("\(name).bundle", isDirectory: true)
    }

    /// Reads example `name`'s bundle as the broker does.
    func bundle(_ name: String) throws -> PluginBundle {
        let outcome = BundleReader.read(bundleAt: bundleURL(name))
        guard let bundle = outcome.bundle, outcome.diagnostics.isEmpty else {
            throw TestSupportError("\(name).bundle does not read cleanly: \(outcome.diagnostics)")
        }
        return bundle
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
