import Foundation
import Glibc
import Testing

@testable import QuickActionsHost

/// `FilePaths.createDirectories`: a plugin's data directory made as FileManager made it
/// (every new folder 0700, whatever the umask; existing folders untouched), and the reason it
/// could not be made in strerror's words, naming another folder only when that one failed.
@Suite(.serialized) struct DirectoryCreationTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    @Test(arguments: [mode_t(0o022), 0o077, 0o277])
    func everyNewFolderHasTheModeAskedForWhateverTheUmask(_ mask: mode_t) throws {
        let root = try FilePathsTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let previous = umask(mask)
        defer { umask(previous) }
        try FilePaths.createDirectories(root + "/a/b/c", mode: 0o700)
        for path in [root + "/a", root + "/a/b", root + "/a/b/c"] {
            #expect(Self.mode(path) == 0o700, "\(path)")
        }
    }

    @Test func existingFoldersAreLeftAsTheyAre() throws {
        let root = try FilePathsTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(mkdir(root + "/shared", 0o755) == 0)
        #expect(chmod(root + "/shared", 0o755) == 0)
        #expect(mkdir(root + "/target", 0o750) == 0)
        #expect(chmod(root + "/target", 0o750) == 0)
        #expect(symlink(root + "/target", root + "/link") == 0)
        try FilePaths.createDirectories(root + "/shared/data", mode: 0o700)
        try FilePaths.createDirectories(root + "/shared", mode: 0o700)
        try FilePaths.createDirectories(root + "/link", mode: 0o700)
        try FilePaths.createDirectories(root + "/link/sub/", mode: 0o700)
        #expect(Self.mode(root + "/shared") == 0o755)
        #expect(Self.mode(root + "/shared/data") == 0o700)
        #expect(Self.mode(root + "/target") == 0o750)
        #expect(Self.mode(root + "/target/sub") == 0o700)
    }

    struct Failure: CustomTestStringConvertible, Sendable {
        let label: String
        /// The folder to create below the test's root.
        let folder: String
        /// The folder the error names, below the root.
        let culprit: String
        let code: Int32
        var testDescription: String { label }
    }

    static let longName = String(repeating: "n", count: Int(NAME_MAX) + 1)

    static let failures: [Failure] = [
        Failure(label: "a regular file where the folder should be", folder: "/file", culprit: "/file", code: EEXIST),
        Failure(label: "a folder below a regular file", folder: "/file/data", culprit: "/file/data", code: ENOTDIR),
        Failure(label: "a folder above it that cannot be made", folder: "/\(longName)/data",
                culprit: "/\(longName)", code: ENAMETOOLONG),
    ]

    @Test(arguments: failures)
    func theReasonIsPlainAndNamesTheFolderThatFailed(_ failure: Failure) throws {
        let root = try FilePathsTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
        let requested = root + failure.folder
        let error = try #require(throws: DirectoryCreationError.self) {
            try FilePaths.createDirectories(requested, mode: 0o700)
        }
        #expect(error == DirectoryCreationError(path: root + failure.culprit, code: failure.code))
        let text = String(cString: strerror(failure.code))
        let expected = failure.culprit == failure.folder ? text : root + failure.culprit + ": " + text
        #expect(error.reason(creating: requested) == expected)
    }
}
