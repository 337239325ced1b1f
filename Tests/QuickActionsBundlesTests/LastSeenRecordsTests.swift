import Foundation
import Glibc
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

/// The record that decides when stored items may go: only ever moved
/// forward, read from disk each time, and the rule's edge exact.
@Suite struct LastSeenRecordsTests {
    static let app = AppID(unchecked: "org.example.seen")
    static let day = LastSeenRecords.secondsPerDay

    @Test(arguments: [
        (30, 30 * day - 1, false),
        (30, 30 * day, false),
        (30, 30 * day + 1, true),
        (1, day + 1, true),
        (0, 100_000 * day, false),
        (36_500, 36_500 * day + 1, true),
        (30, -day, false),
    ] as [(Int, Int64, Bool)])
    func expiresOnlyAfterMoreThanTheGivenDays(_ days: Int, _ unseenFor: Int64, _ expired: Bool) {
        let now: Int64 = 2_000_000_000
        #expect(LastSeenRecords.isExpired(lastSeen: now - unseenFor, now: now, days: days) == expired)
    }

    @Test func aRecordIsWrittenReadAndNeverMovedBack() throws {
        let directory = try TemporaryDirectory()
        let records = LastSeenRecords(stateDirectory: directory.url)
        #expect(records.read(Self.app) == .none)
        try records.markSeen(Self.app, now: 1_000_000)
        #expect(records.read(Self.app) == .seen(1_000_000))
        #expect(try String(contentsOf: records.fileURL(for: Self.app), encoding: .utf8) == "1000000\n")
        // Within the refresh interval nothing is rewritten; after it, the record moves forward.
        try records.markSeen(Self.app, now: 1_000_000 + LastSeenRecords.refreshInterval - 1)
        #expect(records.read(Self.app) == .seen(1_000_000))
        try records.markSeen(Self.app, now: 1_000_000 + LastSeenRecords.refreshInterval)
        #expect(records.read(Self.app) == .seen(1_000_000 + LastSeenRecords.refreshInterval))
        // The next broker (a fresh process) does not rewrite a record younger than the
        // interval either, and moves an older one forward.
        let seen = 1_000_000 + LastSeenRecords.refreshInterval
        try LastSeenRecords(stateDirectory: directory.url).markSeen(Self.app, now: seen + LastSeenRecords.refreshInterval - 1)
        #expect(records.read(Self.app) == .seen(seen))
        try LastSeenRecords(stateDirectory: directory.url).markSeen(Self.app, now: seen + LastSeenRecords.refreshInterval)
        #expect(records.read(Self.app) == .seen(seen + LastSeenRecords.refreshInterval))
        // Another broker wrote a later time: an earlier sighting never moves it back.
        let other = LastSeenRecords(stateDirectory: directory.url)
        try other.write(5_000_000, for: Self.app)
        let fresh = LastSeenRecords(stateDirectory: directory.url)
        try fresh.markSeen(Self.app, now: 2_000_000)
        #expect(fresh.read(Self.app) == .seen(5_000_000))
        #expect(try records.recordedAppIDs() == [Self.app])
        try records.remove(Self.app)
        try records.remove(Self.app)
        #expect(records.read(Self.app) == .none)
        #expect(try records.recordedAppIDs() == [])
    }

    @Test(arguments: [
        ("not a number", "not a time in seconds"),
        ("12", "not a time in seconds"),
        ("-5\n", "not a time in seconds"),
        (String(repeating: "9", count: 100), "too large"),
    ])
    func aDamagedRecordIsUnusableNamingTheFile(_ contents: String, _ reason: String) throws {
        let directory = try TemporaryDirectory()
        let records = LastSeenRecords(stateDirectory: directory.url)
        try directory.write(contents, to: "last-seen/\(Self.app.rawValue)")
        guard case .unusable(let diagnostic) = records.read(Self.app) else {
            Issue.record("expected unusable, got \(records.read(Self.app))")
            return
        }
        #expect(diagnostic.file == records.fileURL(for: Self.app).path)
        #expect(diagnostic.reason.contains(reason), "\(diagnostic)")
        // Seeing the app replaces it.
        try records.markSeen(Self.app, now: 7)
        #expect(records.read(Self.app) == .seen(7))
    }

    @Test func aListedDirectoryIsRememberedAcrossInstances() throws {
        let directory = try TemporaryDirectory()
        let records = LastSeenRecords(stateDirectory: directory.url)
        #expect(!records.wasListed("/srv/plugins"))
        try records.markListed("/srv/plugins")
        try records.markListed("/srv/plugins")
        #expect(records.wasListed("/srv/plugins"))
        let later = LastSeenRecords(stateDirectory: directory.url)
        #expect(later.wasListed("/srv/plugins"))
        #expect(!later.wasListed("/srv/other"))
        let file = records.listedDirectories.appendingPathComponent(LastSeenRecords.fileName(forDirectory: "/srv/plugins"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "/srv/plugins\n")
        #expect(try records.recordedAppIDs() == [], "directory records are not app records")
    }

    @Test func aRecordOfTheWrongKindIsUnusableAndNeverBlocks() throws {
        let directory = try TemporaryDirectory()
        let records = LastSeenRecords(stateDirectory: directory.url)
        _ = try directory.makeFolder("last-seen")
        #expect(mkfifo(records.fileURL(for: Self.app).path, 0o600) == 0)
        guard case .unusable(let diagnostic) = records.read(Self.app) else {
            Issue.record("expected unusable")
            return
        }
        #expect(diagnostic.reason.contains("not a regular file"))
        try records.markSeen(Self.app, now: 9)
        #expect(records.read(Self.app) == .seen(9), "the rename replaces the FIFO")
        // Hidden temporary files and names that are not app ids are not records.
        try directory.write("1\n", to: "last-seen/.org.example.x.tmp-1")
        try directory.write("1\n", to: "last-seen/not an id")
        #expect(try records.recordedAppIDs() == [Self.app])
    }
}
