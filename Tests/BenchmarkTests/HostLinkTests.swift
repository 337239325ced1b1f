import Foundation
import QuickActionsTestSupport
import Testing

/// An idle plugin host's memory (issue 14's bar) is mostly the shared libraries it maps:
/// Foundation with ICU and FoundationInternationalization cost 7 MiB of RSS, FoundationEssentials
/// 3.3 MiB, the Dispatch overlay with _StringProcessing and _RegexParser 1.1 MiB. The host links
/// none of them: a C plugin's host never maps them, and a Swift plugin
/// that imports only the SDK brings FoundationEssentials (never the rest), which the host loads
/// from its own runtime folder (DynamicLibrary.loadRuntimeLibraries).
@Suite struct HostLinkTests {
    static let foundationOnly = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]
    /// What `quickactions-host` must not load at start, so that an idle C plugin's host stays small:
    /// no Foundation, no Swift Dispatch overlay (libdispatch's C API serves, WorkQueues), and
    /// not the string-processing modules every Swift module imports implicitly (its modules are
    /// built with -disable-implicit-string-processing-module-import; the two overlays above
    /// would bring them back).
    static let notInTheHost = foundationOnly + [
        "libFoundationEssentials.so", "libswiftDispatch.so", "libswift_StringProcessing.so", "libswift_RegexParser.so",
    ]

    /// What `ldd` says `binary` loads, by file name.
    static func loadedLibraries(_ binary: URL) async throws -> [String] {
        let result = try await Command.run("ldd", [binary.path])
        #expect(result.status == 0, "\(result)")
        return result.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
    }

    static func libraries(of product: String) async throws -> [String] {
        let binary = PackagePaths.products.appendingPathComponent(product)
        try #require(FileManager.default.fileExists(atPath: binary.path), "\(binary.path) is not built")
        let libraries = try await loadedLibraries(binary)
        // The check itself: ldd lists the Swift runtime the binary does load.
        #expect(libraries.contains("libswiftCore.so"), "\(libraries)")
        return libraries
    }

    @Test func theHostLoadsNoFoundationAtAll() async throws {
        let libraries = try await Self.libraries(of: "quickactions-host")
        for library in Self.notInTheHost {
            #expect(!libraries.contains(library), "quickactions-host loads \(library): \(libraries)")
        }
    }

    @Test func aSwiftPluginOnTheSDKLoadsFoundationEssentialsOnly() async throws {
        let libraries = try await Self.libraries(of: "libQABenchSwiftPlugin.so")
        #expect(libraries.contains("libFoundationEssentials.so"), "\(libraries)")
        for library in Self.foundationOnly {
            #expect(!libraries.contains(library), "libQABenchSwiftPlugin.so loads \(library): \(libraries)")
        }
    }
}
