import Foundation
import QuickActionsCLI
import QuickActionsTestSupport
import Testing

/// One version everywhere: both executables and the broker's Version property.
@Suite("one version, end to end")
struct VersionTests {
    @Test("quickactions --version, quickactionsd --version and the Version property all print the product version")
    func versionsAgree() async throws {
        let harness = try await BrokerHarness()
        let cli = try await CLIProcess.run(["--version"], nil)
        #expect(cli.status == 0, "\(cli)")
        let daemon = try await Command.run(PackagePaths.executable("quickactionsd").path, ["--version"])
        #expect(daemon.status == 0, "\(daemon)")
        let property = try await harness.busctl([
            "get-property", BrokerHarness.busName, BrokerHarness.rootPath, BrokerHarness.interface, "Version",
        ])
        #expect(property.status == 0, "\(property)")
        #expect(cli.stdout == "\(QuickActionsCLI.version)\n")
        #expect(daemon.stdout == "quickactionsd \(QuickActionsCLI.version)\n")
        #expect(property.stdout == "s \"\(QuickActionsCLI.version)\"\n")
    }
}
