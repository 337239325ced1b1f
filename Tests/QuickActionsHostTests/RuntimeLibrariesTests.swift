import CQuickActionsHostSupport
import Foundation
import Glibc
import Testing

@testable import QuickActionsHost

/// A plugin host links no Foundation, not even FoundationEssentials; before a plugin is loaded, the
/// Swift runtime libraries it needs come from the folder of the process's own libswiftCore.so.
@Suite struct RuntimeLibrariesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let plugin: String
        let needs: [String]
        let needsNot: [String]
        var testDescription: String { plugin }
    }

    static let cases = [
        // A C plugin (SwiftPM links swiftrt.o, and so libswiftCore, into it too): no Foundation.
        Case(plugin: TestPlugins.cPlugin, needs: ["libc.so.6"], needsNot: ["libFoundation.so"]),
        // A Swift plugin that imports Foundation itself.
        Case(plugin: TestPlugins.swiftPlugin, needs: ["libswiftCore.so", "libFoundation.so"], needsNot: []),
    ]

    @Test(arguments: cases)
    func theDynamicSectionNamesWhatALibraryNeeds(_ testCase: Case) throws {
        let fd = open(TestPlugins.library(testCase.plugin).path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0, "cannot open \(testCase.plugin): \(String(cString: strerror(errno)))")
        defer { close(fd) }
        let needed = try #require(SwiftImageProbe.neededLibraries(descriptor: fd))
        for name in testCase.needs { #expect(needed.contains(name), "\(needed)") }
        for name in testCase.needsNot { #expect(!needed.contains(name), "\(needed)") }
        #expect(Set(needed).count == needed.count, "each library once: \(needed)")
    }

    @Test func aFileThatIsNotELFHasNoDynamicSection() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qa-not-elf-\(getpid())")
        try Data("not an ELF file, just text".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(SwiftImageProbe.neededLibraries(descriptor: fd) == nil)
    }

    @Test func theRuntimeFolderIsTheOneLibswiftCoreWasLoadedFrom() throws {
        let folder = try #require(DynamicLibrary.runtimeFolder)
        var info = stat()
        try #require(stat(folder + "/libswiftCore.so", &info) == 0, "\(folder)")
        // The very file mapped, by inode (the loader's path may go through a symbolic link that
        // /proc/self/maps shows resolved). procfs files have no size: read to the end.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let mapped = maps.split(separator: "\n").filter { $0.hasSuffix("/libswiftCore.so") }.compactMap { line -> UInt64? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 6 ? UInt64(fields[4]) : nil
        }
        #expect(!mapped.isEmpty, "no libswiftCore.so in /proc/self/maps")
        #expect(mapped.allSatisfy { $0 == UInt64(info.st_ino) }, "\(folder): inode \(info.st_ino), mapped \(mapped)")
    }

    @Test func aLibraryNotLoadedHasNoPath() {
        #expect(qa_loaded_library_path("libquickactions-never-loaded.so.9") == nil)
    }
}
