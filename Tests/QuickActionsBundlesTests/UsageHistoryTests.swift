import Foundation
import QuickActionsBundles
import QuickActionsModel
import Testing

/// The frecency formula and the history's bounds.
@Suite struct UsageHistoryTests {
    static let day: Int64 = 24 * 3600
    static let now: Int64 = 1_800_000_000

    @Test(arguments: [
        // (ages of the uses in days, expected score)
        ([0.0], 1.0),
        ([7.0], 0.5),
        ([14.0], 0.25),
        ([0.0, 7.0], 1.5),
        ([3.5], 0.707_106_781),
        ([-2.0], 1.0),  // a use "in the future" (the clock went back) counts as now
    ])
    func scoreIsTheSumOfHalvingWeights(ages: [Double], expected: Double) {
        var history = UsageHistory()
        for age in ages { history.record(app: "a.b", item: "x", at: Self.now - Int64(age * Double(Self.day))) }
        let score = history.score(app: "a.b", item: "x", now: Self.now)
        #expect(abs(score - expected) < 1e-6, "uses \(ages) days ago scored \(score), expected \(expected)")
    }

    @Test func frequentRecentBeatsOnceAndOld() {
        var history = UsageHistory()
        history.record(app: "a.b", item: "once", at: Self.now - Self.day)
        for hours in [1, 5, 30] { history.record(app: "a.b", item: "often", at: Self.now - Int64(hours) * 3600) }
        history.record(app: "a.b", item: "old", at: Self.now - 60 * Self.day)
        let scores = history.scores(app: "a.b", now: Self.now)
        #expect(scores["often", default: 0] > scores["once", default: 0])
        #expect(scores["once", default: 0] > scores["old", default: 0])
        #expect(scores["never"] == nil)
    }

    @Test func keepsOnlyTheLastUsesOfAnItem() {
        var history = UsageHistory()
        for index in 0..<40 { history.record(app: "a.b", item: "x", at: Int64(index)) }
        let uses = history.apps["a.b"]?["x"] ?? []
        #expect(uses.count == UsageHistory.usesPerItem)
        #expect(uses.first == Int64(40 - UsageHistory.usesPerItem), "the oldest uses go first: \(uses)")
    }

    @Test func dropsTheLongestUnusedItemAndApp() {
        var history = UsageHistory()
        for index in 0...UsageHistory.itemsPerApp { history.record(app: "a.b", item: "item\(index)", at: Int64(100 + index)) }
        #expect(history.apps["a.b"]?.count == UsageHistory.itemsPerApp)
        #expect(history.apps["a.b"]?["item0"] == nil, "item0 was used longest ago")
        for index in 0...UsageHistory.maximumApps { history.record(app: "app\(index)", item: "x", at: Int64(10_000 + index)) }
        #expect(history.apps.count == UsageHistory.maximumApps)
        #expect(history.apps["a.b"] == nil && history.apps["app0"] == nil, "the two apps used longest ago go")
        #expect(history.apps["app\(UsageHistory.maximumApps)"] != nil)
    }

    @Test func forgetOneAppOrAll() {
        var history = UsageHistory()
        history.record(app: "a.b", item: "x", at: 1)
        history.record(app: "a.b", item: "y", at: 1)
        history.record(app: "c.d", item: "x", at: 1)
        let one = history.forget(app: "a.b")
        #expect(one == 2)
        #expect(history.apps.keys.sorted() == ["c.d"])
        let none = history.forget(app: "nobody.here")
        #expect(none == 0)
        let all = history.forget(app: nil)
        #expect(all == 1)
        #expect(history.isEmpty)
    }

    @Test func refusesOverlongAndEmptyIDs() {
        var history = UsageHistory()
        let long = history.record(app: "a.b", item: String(repeating: "x", count: UsageHistory.maximumKeyBytes + 1), at: 1)
        let empty = history.record(app: "", item: "x", at: 1)
        #expect(!long && !empty)
        #expect(history.isEmpty)
    }
}

/// usage.json: round trip, bounds on load, and bad files moved aside.
@Suite struct UsageStoreTests {
    @Test func savesAndLoadsTheSameHistory() throws {
        let directory = try TemporaryDirectory()
        let store = UsageStore(directory: directory.url.appendingPathComponent("state"))
        var history = UsageHistory()
        history.record(app: "a.b", item: "x", at: 5)
        history.record(app: "a.b", item: "x", at: 9)
        history.record(app: "c.d", item: "Fav \"1\"\n", at: 7)
        try store.save(history)
        let loaded = store.load()
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.history == history)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(names == ["usage.json"], "no temporary file is left: \(names)")
    }

    @Test func aMissingFileIsAnEmptyHistory() throws {
        let directory = try TemporaryDirectory()
        let loaded = UsageStore(directory: directory.url).load()
        #expect(loaded.history.isEmpty && loaded.diagnostics.isEmpty)
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("[1,2]", "not a usage file"),
        ("{\"format\":\"quickactions-usage\",\"version\":2,\"apps\":{}}", "version 2 is not 1"),
        ("{\"format\":\"quickactions-usage\",\"version\":1,\"apps\":{\"a.b\":3}}", "the history of \"a.b\" is not an object"),
        ("{\"format\":\"quickactions-usage\",\"version\":1,\"apps\":{\"a.b\":{\"x\":[\"s\"]}}}", "the uses of \"x\" of \"a.b\""),
        ("{\"format\":\"quickactions-usage\",\"version\":1,\"apps\":{\"a.b\":{\"x\":[1e300]}}}", "the uses of \"x\" of \"a.b\""),
    ])
    func aBadFileIsMovedAside(contents: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write(contents, to: "usage.json")
        let loaded = UsageStore(directory: directory.url).load()
        #expect(loaded.history.isEmpty)
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.diagnostics.first?.reason.contains(reason) == true, "\(loaded.diagnostics)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 1 && names[0].hasPrefix("usage.json.corrupt-"), "\(names)")
    }

    @Test func boundsApplyToWhatAFileHolds() throws {
        let directory = try TemporaryDirectory()
        let uses = (0..<30).map(String.init).joined(separator: ",")
        try directory.write("{\"format\":\"quickactions-usage\",\"version\":1,\"apps\":{\"a.b\":{\"x\":[\(uses)]}}}",
                            to: "usage.json")
        let loaded = UsageStore(directory: directory.url).load()
        #expect(loaded.history.apps["a.b"]?["x"]?.count == UsageHistory.usesPerItem)
    }
}

/// A broker killed while saving leaves `.usage.json.tmp-<pid>`; the next load removes it.
@Suite struct UsageStoreDebrisTests {
    @Test func temporaryFilesOfExitedWritersAreRemovedOnLoad() throws {
        let directory = try TemporaryDirectory()
        // A pid that cannot be running: beyond Linux's pid_max.
        try directory.write("{}", to: ".usage.json.tmp-99999999")
        try directory.write("{}", to: ".usage.json.tmp-\(getpid())")
        _ = UsageStore(directory: directory.url).load()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names == [".usage.json.tmp-\(getpid())"], "a live writer's file stays: \(names)")
    }
}
