import Foundation
import QuickActionsBundles
import QuickActionsModel
import Testing

/// Errors in log lines say what the system said, never an NSError dump.
@Suite("plain error descriptions")
struct PlainErrorDescriptionTests {
    static let cases: [(label: String, error: any Error & Sendable, path: String?, expected: String)] = [
        ("a POSIX error", POSIXError(.ENOENT), nil, "No such file or directory"),
        ("a bare NSError in the POSIX domain", NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES)), nil,
         "Permission denied"),
        ("a Cocoa file error naming its file", CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/x/y"]), nil,
         "/x/y: No such file or directory"),
        ("the same when the caller names that file", CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/x/y"]),
         "/x/y", "No such file or directory"),
        ("a Cocoa error with an underlying POSIX error",
         CocoaError(.fileWriteUnknown, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))]),
         nil, "No space left on device"),
        ("the project's own error", SystemCallError(call: "open", path: "/z", errno: ENOENT), nil,
         "open /z: No such file or directory"),
    ]

    @Test("known errors", arguments: cases)
    func describes(_ testCase: (label: String, error: any Error & Sendable, path: String?, expected: String)) {
        #expect(PlainErrorDescription.of(testCase.error, path: testCase.path) == testCase.expected, "\(testCase.label)")
    }

    @Test("what FileManager throws for a folder it cannot create is plain words")
    func realFoundationError() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("qa-plain-\(UUID().uuidString)")
        try Data("a file".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        do {
            try FileManager.default.createDirectory(
                at: blocker.appendingPathComponent("inside"), withIntermediateDirectories: true)
            Issue.record("creating a folder inside a file succeeded")
        } catch {
            let text = PlainErrorDescription.of(error)
            #expect(!text.contains("Error Domain=") && !text.contains("UserInfo="), "\(text)")
            #expect(!text.isEmpty)
        }
    }
}
