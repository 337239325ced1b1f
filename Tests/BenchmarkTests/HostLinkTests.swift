import Foundation
import QuickActionsTestSupport
import Testing

/// An idle plugin host's memory (issue 14's bar) is mostly the shared libraries it maps:
/// Foundation with ICU and FoundationInternationalization cost 7 MiB of RSS. The host and a
/// Swift plugin that imports only the SDK link FoundationEssentials, never those.
@Suite struct HostLinkTests {
    static let foundationOnly = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]

    /// What `ldd` says `binary` loads, by file name.
    static func loadedLibraries(_ binary: URL) async throws -> [String] {
        let result = try await Command.run("ldd", [binary.path])
        #expect(result.status == 0, "\(result)")
        return result.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
    }

    @Test(arguments: ["quickactions-host", "libQABenchSwiftPlugin.so"])
    func loadsNoFoundation(_ product: String) async throws {
        let binary = PackagePaths.products.appendingPathComponent(product)
        try #require(FileManager.default.fileExists(atPath: binary.path), "\(binary.path) is not built")
        let libraries = try await Self.loadedLibraries(binary)
        // The check itself: ldd lists the Swift runtime the binary does load.
        #expect(libraries.contains("libswiftCore.so"), "\(libraries)")
        #expect(libraries.contains("libFoundationEssentials.so"), "\(libraries)")
        for library in Self.foundationOnly {
            #expect(!libraries.contains(library), "\(product) loads \(library): \(libraries)")
        }
    }
}
