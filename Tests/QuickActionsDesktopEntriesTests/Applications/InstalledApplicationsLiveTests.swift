import Foundation
import Glibc
import Locking
import QuickActionsDesktopEntries
import QuickActionsProviding
import QuickActionsTestSupport
import Testing

/// The index follows the folders: added, edited and removed entries, folders made later, each
/// change read alone. Waits are for the inotify burst (100 ms) and bounded, never timed.
@Suite struct InstalledApplicationsLiveTests {
    /// What observers heard.
    final class Heard: Sendable {
        let sets = Locked<[[String: InstalledApplication]]>([])
        var count: Int { sets.withLock { $0.count } }
        var last: [String: InstalledApplication]? { sets.withLock { $0.last } }
        var handler: @Sendable ([String: InstalledApplication]) -> Void {
            { [sets] set in sets.withLock { $0.append(set) } }
        }
    }

    @Test func anEntryAddedEditedAndRemovedIsFollowedAndOnlyTheChangedFileIsReadAgain() async throws {
        let folders = try AppFolders()
        for number in 0..<20 {
            try folders.write(AppFolders.entry(name: "App \(number)"), to: folders.lastSystemApplications, "app\(number).desktop")
        }
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log)
        defer { index.stop() }
        #expect(index.applications.count == 20)
        #expect(index.filesRead == 20)
        let heard = Heard()
        let token = index.observe(heard.handler)
        defer { token.cancel() }

        try folders.write(AppFolders.entry(name: "Renamed"), to: folders.lastSystemApplications, "app7.desktop")
        #expect(await eventually { heard.last?["app7"]?.name.value == "Renamed" })
        #expect(index.filesRead == 21, "one changed file is read alone, not the other 19")
        #expect(heard.last?.count == 20, "observers get the whole set")

        try folders.write(AppFolders.entry(name: "New"), to: folders.homeApplications, "new.desktop")
        #expect(await eventually { heard.last?["new"] != nil })
        #expect(index.filesRead == 22)

        try FileManager.default.removeItem(atPath: folders.lastSystemApplications + "/app3.desktop")
        #expect(await eventually { heard.last?.keys.contains("app3") == false })
        #expect(index.filesRead == 22, "a removal reads nothing")
        #expect(index.applications.count == 20)

        // The home's copy shadows the system's, and its removal brings the system's back.
        try folders.write(AppFolders.entry(name: "Mine"), to: folders.homeApplications, "app5.desktop")
        #expect(await eventually { index.applications["app5"]?.name.value == "Mine" })
        try FileManager.default.removeItem(atPath: folders.homeApplications + "/app5.desktop")
        #expect(await eventually { index.applications["app5"]?.name.value == "App 5" })
        #expect(index.filesRead == 23)
    }

    @Test func aBurstOfChangesIsOneNotification() async throws {
        let folders = try AppFolders()
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log)
        defer { index.stop() }
        let heard = Heard()
        let token = index.observe(heard.handler)
        defer { token.cancel() }
        for number in 0..<10 {
            try folders.write(AppFolders.entry(name: "App \(number)"), to: folders.lastSystemApplications, "app\(number).desktop")
        }
        #expect(await eventually { heard.last?.count == 10 })
        #expect(heard.count <= 2, "ten files written together are one burst (or two, if the writes straddle a burst's end): \(heard.count)")
        #expect(index.filesRead == 10)
    }

    @Test func anApplicationsFolderMadeLaterAndItsSubfoldersAreSeen() async throws {
        let folders = try AppFolders()
        // /usr/local/share does not exist yet at all.
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log)
        defer { index.stop() }
        let heard = Heard()
        let token = index.observe(heard.handler)
        defer { token.cancel() }
        try folders.write(AppFolders.entry(name: "Later"), to: folders.firstSystemApplications, "later.desktop")
        #expect(await eventually { heard.last?["later"] != nil }, "a data folder and its applications folder made later")

        try FileManager.default.createDirectory(atPath: folders.lastSystemApplications + "/kde", withIntermediateDirectories: false)
        try folders.write(AppFolders.entry(name: "Dolphin"), to: folders.lastSystemApplications, "kde/dolphin.desktop")
        #expect(await eventually { heard.last?["kde-dolphin"] != nil }, "a subfolder made later")
        // Once watched, the new subfolder's own changes are seen.
        try folders.write(AppFolders.entry(name: "Konsole"), to: folders.lastSystemApplications, "kde/konsole.desktop")
        #expect(await eventually { heard.last?["kde-konsole"] != nil })

        try FileManager.default.removeItem(atPath: folders.lastSystemApplications + "/kde")
        #expect(await eventually { heard.last.map { !$0.keys.contains("kde-dolphin") && !$0.keys.contains("kde-konsole") } == true })
    }

    @Test func aCancelledObservationHearsNothingMore() async throws {
        let folders = try AppFolders()
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log)
        defer { index.stop() }
        let first = Heard()
        let second = Heard()
        let cancelled = index.observe(first.handler)
        let kept = index.observe(second.handler)
        defer { kept.cancel() }
        #expect(first.count == 0, "no call before a change")
        cancelled.cancel()
        try folders.write(AppFolders.entry(name: "A"), to: folders.lastSystemApplications, "a.desktop")
        #expect(await eventually { second.last?["a"] != nil })
        #expect(first.count == 0)
    }
}

extension InstalledApplicationsLiveTests {
    @Test func anApplicationsFolderRemovedAndMadeAgainIsFollowed() async throws {
        let folders = try AppFolders()
        try folders.write(AppFolders.entry(name: "Mine"), to: folders.homeApplications, "mine.desktop")
        let index = InstalledApplicationIndex(environment: folders.environment(), log: folders.log)
        defer { index.stop() }
        #expect(index.applications["mine"] != nil)
        try FileManager.default.moveItem(atPath: folders.homeApplications, toPath: folders.home + "/applications.old")
        #expect(await eventually { index.applications["mine"] == nil }, "moved away")
        try FileManager.default.moveItem(atPath: folders.home + "/applications.old", toPath: folders.homeApplications)
        #expect(await eventually { index.applications["mine"] != nil }, "moved back")
        try FileManager.default.removeItem(atPath: folders.homeApplications)
        #expect(await eventually { index.applications["mine"] == nil }, "removed")
    }
}
