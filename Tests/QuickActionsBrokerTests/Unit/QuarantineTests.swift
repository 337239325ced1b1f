import Foundation
import QuickActionsTestSupport
import Testing
@testable import QuickActionsBroker

/// Crash attribution: the shared-memory journal and the crash counts.
@Suite struct QuarantineTests {
    @Test func theJournalReportsOnlyAppsThatWereRunningPluginCode() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-journal")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let (journal, interrupted) = try CrashJournal.open(in: folder)
            #expect(interrupted.isEmpty)
            journal.set("org.example.finished", running: true)
            journal.set("org.example.finished", running: false)
            journal.set("org.example.stuck", running: true)
        }
        // A second broker reads what the first left behind, then starts clean.
        let (_, interrupted) = try CrashJournal.open(in: folder)
        #expect(interrupted == ["org.example.stuck"])
        let (_, again) = try CrashJournal.open(in: folder)
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
        let loaded = Quarantine.load(from: folder)
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
        let loaded = Quarantine.load(from: folder)
        #expect(loaded.records.count == 1)
        #expect(loaded.quarantined("org.example.ok", library: "lib") == 4)
    }
}
