import Foundation
import QuickActionsTestSupport
import Testing

/// The guide's C compile line catches a misspelt entry symbol: with its
/// flags, `quickactions_plugin_entri` does not compile (the header declares
/// the right name), while the right spelling does.
struct GuideCompileFlagsTests {
    /// The warning flags and language standard of the guide's `cc` line.
    static func guideFlags() throws -> [String] {
        let guide = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/plugin-guide.md"), encoding: .utf8)
        let lines = guide.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("cc ") }, "the guide has no cc line")
        var command = ""
        for line in lines[start...] {
            command += " " + line.replacingOccurrences(of: "\\", with: "")
            if !line.hasSuffix("\\") { break }
        }
        return command.split(separator: " ").map(String.init).filter { $0.hasPrefix("-W") || $0.hasPrefix("-std") }
    }

    static func source(entry: String) -> String {
        """
        #include <quickactions_plugin.h>
        #include <stddef.h>
        static qa_status demo_init(const qa_plugin *plugin, const qa_host *host, void **state, char *error, size_t size) {
            (void)plugin; (void)host; (void)error; (void)size;
            *state = NULL;
            return QA_STATUS_OK;
        }
        static void demo_perform(void *state, const qa_request *request, qa_completion completion) {
            (void)state; (void)request; (void)completion;
        }
        QA_PLUGIN_EXPORT const qa_plugin *\(entry)(void) {
            static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(
                .name = "Demo", .init = demo_init, .perform = demo_perform);
            return &plugin;
        }
        """
    }

    @Test(arguments: [("quickactions_plugin_entry", true), ("quickactions_plugin_entri", false)])
    func theGuidesFlagsRefuseAMisspeltEntry(_ entry: String, _ compiles: Bool) async throws {
        let flags = try Self.guideFlags()
        #expect(flags.contains("-Werror=missing-prototypes") || flags.contains("-Wmissing-prototypes"), "\(flags)")
        let directory = try TemporaryDirectory.make(prefix: "qa-guide-cflags")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plugin.c")
        try Self.source(entry: entry).write(to: file, atomically: true, encoding: .utf8)
        let include = PackagePaths.root.appendingPathComponent("Sources/CQuickActionsPlugin/include").path
        let result = try await Command.run("cc", flags + [
            "-shared", "-fPIC", "-I", include, "-o", directory.appendingPathComponent("plugin.so").path, file.path,
        ])
        #expect((result.status == 0) == compiles, "\(result)")
        if !compiles {
            #expect(result.stderr.contains("quickactions_plugin_entri"), "the error names the misspelt symbol: \(result)")
        }
    }
}
