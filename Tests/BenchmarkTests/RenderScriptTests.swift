import Foundation
import QuickActionsTestSupport
import Testing

/// scripts/render-benchmarks.py renders BENCHMARKS.md from a results file: its own unit tests
/// (scripts/tests, on a small hand-made results file) run here, so `make test` runs them.
@Suite struct RenderScriptTests {
    @Test("the render script's unit tests pass")
    func renderScriptTests() async throws {
        let result = try await Command.run(
            "/usr/bin/python3", ["-m", "unittest", "discover", "-s", PackagePaths.root.appendingPathComponent("scripts/tests").path],
            timeout: .seconds(120))
        #expect(result.status == 0, "python3 -m unittest failed: \(result)")
        // unittest reports on stderr: "Ran N tests", then "OK" (with skips, if matplotlib is missing).
        #expect(result.stderr.contains("\nOK"), "\(result.stderr)")
    }
}
