import Foundation
import Glibc
import Testing

@testable import QuickActionsHost

/// The host says why it could not create a plugin's data directory in the words strerror
/// uses (as the broker's PlainErrorDescription does), naming another file only when the
/// error is about one, without Foundation's NSError dumps.
@Suite struct DataDirectoryErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        /// Makes the error and returns it with the path the log line already names.
        let make: @Sendable (URL) -> (error: any Error, path: String)
        let expected: @Sendable (URL) -> String
        var testDescription: String { label }
    }

    static func createDirectory(_ url: URL) -> any Error {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return error
        }
        return CocoaError(.featureUnsupported)  // Fails the comparison below: creation was expected to fail.
    }

    static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

    static let cases: [Case] = [
        Case(label: "a folder below a regular file (FileManager's own error)",
             make: { root in
                 let path = root.appendingPathComponent("file/data")
                 return (createDirectory(path), path.path)
             },
             expected: { _ in text(ENOTDIR) }),
        Case(label: "a regular file where the folder should be",
             make: { root in
                 let path = root.appendingPathComponent("file")
                 return (createDirectory(path), path.path)
             },
             expected: { _ in text(EEXIST) }),
        Case(label: "an error about another file names that file",
             make: { root in
                 let other = root.appendingPathComponent("other").path
                 let error = CocoaError(.fileWriteUnknown, userInfo: [
                     "NSFilePath": other, "NSUnderlyingError": POSIXError(.EACCES),
                 ])
                 return (error, root.appendingPathComponent("data").path)
             },
             expected: { root in root.appendingPathComponent("other").path + ": " + text(EACCES) }),
        Case(label: "a file error without an underlying one",
             make: { root in (CocoaError(.fileWriteOutOfSpace), root.path) },
             expected: { _ in text(ENOSPC) }),
        Case(label: "a POSIX error",
             make: { root in (POSIXError(.EROFS), root.path) },
             expected: { _ in text(EROFS) }),
        Case(label: "any other error describes itself",
             make: { root in (PluginLoadError.fileMissing(library: "/x/lib.so"), root.path) },
             expected: { _ in "\(PluginLoadError.fileMissing(library: "/x/lib.so"))" }),
    ]

    @Test(arguments: cases)
    func theReasonIsPlain(_ testCase: Case) throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("qa-data-dir-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(FileManager.default.createFile(atPath: root.appendingPathComponent("file").path, contents: Data()))
        let (error, path) = testCase.make(root)
        let description = PluginHostContext.plainDescription(of: error, path: path)
        #expect(description == testCase.expected(root))
        #expect(!description.contains("Domain="), "\(description)")
    }
}
