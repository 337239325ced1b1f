import Foundation
import Glibc
import Testing

@testable import QuickActionsHost

/// `FilePaths.standardized`: the loader's paths as `URL.standardizedFileURL.path` gave them,
/// without Foundation in the host.
@Suite struct FilePathsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let path: String
        let expected: String
        var testDescription: String { path.debugDescription }
    }

    static let absoluteCases: [Case] = [
        Case(path: "/a/b/c", expected: "/a/b/c"),
        Case(path: "/a/./b", expected: "/a/b"),
        Case(path: "/a/../b", expected: "/b"),
        Case(path: "/a/b/..", expected: "/a"),
        Case(path: "/a/b/../", expected: "/a"),
        Case(path: "/a/b/./../c/", expected: "/a/c"),
        Case(path: "/..", expected: "/"),
        Case(path: "/../a", expected: "/a"),
        Case(path: "/a/../../b", expected: "/b"),
        Case(path: "//a//b", expected: "/a/b"),
        Case(path: "/a//../b", expected: "/b"),
        Case(path: "/a/b/", expected: "/a/b"),
        Case(path: "/", expected: "/"),
        Case(path: "/.", expected: "/"),
        Case(path: "/a/.", expected: "/a"),
        Case(path: "/a/..", expected: "/"),
        // Only `.` and `..` themselves are special; percent signs and spaces are plain characters.
        Case(path: "/a/.../b", expected: "/a/.../b"),
        Case(path: "/a/..b/.c", expected: "/a/..b/.c"),
        Case(path: "/a/%20b/c d", expected: "/a/%20b/c d"),
    ]

    @Test(arguments: absoluteCases)
    func anAbsolutePathIsResolvedLexically(_ testCase: Case) {
        #expect(FilePaths.standardized(testCase.path) == testCase.expected)
    }

    /// The same answers as the Foundation code it replaces, for every case above.
    @Test(arguments: absoluteCases)
    func itAgreesWithFoundation(_ testCase: Case) {
        let foundation = URL(fileURLWithPath: testCase.path).standardizedFileURL.path
        #expect(FilePaths.standardized(testCase.path) == foundation)
    }

    /// `..` is resolved by name, not by following a symbolic link up from its target.
    @Test func symbolicLinksAreNotFollowed() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(mkdir(root + "/deep", 0o700) == 0)
        #expect(mkdir(root + "/deep/target", 0o700) == 0)
        #expect(symlink(root + "/deep/target", root + "/link") == 0)
        #expect(FilePaths.standardized(root + "/link/../file") == root + "/file")
    }

    /// Against the process's own working directory, never a changed one: tests run in
    /// parallel in one process, and a chdir here moved every other test's relative paths.
    @Test(arguments: [
        ("rel/x", "/rel/x"), ("./rel", "/rel"), ("../rel", "/rel"), (".", ""), ("a/../b/", "/b"),
    ])
    func aRelativePathIsTakenFromTheWorkingDirectory(_ path: String, _ suffix: String) throws {
        let work = FilePaths.workingDirectory()
        #expect(work.hasPrefix("/"))
        let base = path.hasPrefix("..") ? FilePaths.standardized(work + "/..") : work
        let expected = suffix.isEmpty ? base : (base == "/" ? "" : base) + suffix
        #expect(FilePaths.standardized(path) == expected)
    }

    static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("qa-file-paths-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }
}
