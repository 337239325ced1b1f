import Foundation
import Glibc
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBroker

/// Crash attribution: the shared-memory journal and the crash counts.
@Suite struct QuarantineTests {
    @Test func theJournalReportsOnlyAppsThatWereRunningPluginCode() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-journal")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let opened = CrashJournal.open(in: folder)
            let journal = opened.journal
            #expect(opened.interrupted.isEmpty)
            #expect(opened.problems.isEmpty)
            journal.set("org.example.finished", running: true)
            journal.set("org.example.finished", running: false)
            journal.set("org.example.stuck", running: true)
        }
        // A second broker reads what the first left behind, then starts clean.
        let interrupted = CrashJournal.open(in: folder).interrupted
        #expect(interrupted == ["org.example.stuck"])
        let again = CrashJournal.open(in: folder).interrupted
        #expect(again.isEmpty)
    }

    @Test func threeCrashesOfTheSameFileQuarantineUntilItChanges() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-quarantine")
        defer { try? FileManager.default.removeItem(at: folder) }
        var quarantine = Quarantine()
        for expected in 1...3 {
            #expect(quarantine.recordCrash(of: "org.example.app", library: "1:2:3:4.5") == expected)
            #expect((quarantine.quarantined("org.example.app", library: "1:2:3:4.5") != nil) == (expected >= 3))
        }
        try quarantine.save(to: folder)
        let (loaded, problems) = Quarantine.load(from: folder)
        #expect(problems.isEmpty)
        #expect(loaded.quarantined("org.example.app", library: "1:2:3:4.5") == 3)
        #expect(loaded.quarantined("org.example.app", library: "1:2:3:9.9") == nil)
        var changed = loaded
        #expect(changed.recordCrash(of: "org.example.app", library: "1:2:3:9.9") == 1)
    }

    @Test func aDamagedCrashFileIsIgnoredLineByLine() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-quarantine")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "garbage\norg.example.ok 4 lib\norg.example.bad -1 lib\n\u{0}\u{1}"
            .write(to: folder.appendingPathComponent(Quarantine.fileName), atomically: true, encoding: .utf8)
        let (loaded, problems) = Quarantine.load(from: folder)
        #expect(loaded.records.count == 1)
        #expect(loaded.quarantined("org.example.ok", library: "lib") == 4)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.first?.contains("crashes:1: not") == true, "\(problems)")
    }

    /// Something other than a regular file where a state file belongs: a
    /// folder, a FIFO (which would block a plain open for ever), a symlink.
    struct WrongKind: Sendable, CustomStringConvertible {
        var description: String
        var reason: String
        var make: @Sendable (URL) throws -> Void
    }

    static let wrongKinds: [WrongKind] = [
        WrongKind(description: "a folder", reason: "not a regular file") { url in
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        },
        WrongKind(description: "a FIFO", reason: "not a regular file") { url in
            guard mkfifo(url.path, 0o600) == 0 else { throw TestSupportError("mkfifo \(url.path) failed") }
        },
        WrongKind(description: "a symlink", reason: "symbolic link") { url in
            let target = url.deletingLastPathComponent().appendingPathComponent("target")
            try Data("org.example.app 9 lib\n".utf8).write(to: target)
            try FileManager.default.createSymbolicLink(at: url, withDestinationURL: target)
        },
    ]

    @Test(arguments: wrongKinds)
    func aCrashJournalOfTheWrongKindIsMovedAsideAndANewOneMade(_ kind: WrongKind) throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-journal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(CrashJournal.fileName)
        try kind.make(path)
        let opened = CrashJournal.open(in: folder)
        #expect(opened.interrupted.isEmpty)
        #expect(opened.problems.count == 1, "\(opened.problems)")
        #expect(opened.problems.first?.contains(path.path) == true)
        #expect(opened.problems.first?.contains(kind.reason) == true, "\(opened.problems)")
        #expect(opened.problems.first?.contains("moved aside to \(path.path).corrupt-") == true, "\(opened.problems)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        // And it works: a flag set now is read by the next broker.
        opened.journal.set("org.example.stuck", running: true)
        #expect(CrashJournal.open(in: folder).interrupted == ["org.example.stuck"])
    }

    @Test(arguments: wrongKinds)
    func aCrashFileOfTheWrongKindIsMovedAside(_ kind: WrongKind) throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-quarantine")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(Quarantine.fileName)
        try kind.make(path)
        let (loaded, problems) = Quarantine.load(from: folder)
        #expect(loaded.records.isEmpty)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains(kind.reason) == true, "\(problems)")
        #expect(problems.first?.contains("moved aside to \(path.path).corrupt-") == true, "\(problems)")
        #expect(!FileManager.default.fileExists(atPath: path.path))
        var quarantine = loaded
        _ = quarantine.recordCrash(of: "org.example.app", library: "lib")
        try quarantine.save(to: folder)
        #expect(Quarantine.load(from: folder).quarantine.records.count == 1)
    }

    @Test func aJournalInAFolderThatCannotHoldFilesWorksInMemory() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-journal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAFolder = folder.appendingPathComponent("state")
        try Data("a file".utf8).write(to: notAFolder)
        let opened = CrashJournal.open(in: notAFolder)
        #expect(opened.problems.contains { $0.contains(notAFolder.path) && $0.contains("not counted across restarts") },
                "\(opened.problems)")
        opened.journal.set("org.example.app", running: true)
        opened.journal.flag(for: "org.example.app")?.set(false)
    }
}
