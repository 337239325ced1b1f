import Locking
import Foundation
import Glibc
import QuickActionsABI
import QuickActionsModel
import Testing

@testable import QuickActionsHost

/// Launch, perform ("resume"), completions and will-resign, from C and Swift.
@Suite struct LifecycleTests {
    @Test func launchHandledByTheSwiftPluginSkipsPerform() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        let result = await outcome(of: plugin, request("launch-handled"), launching: true)
        // The plugin lists the callbacks it saw: launch only.
        #expect(result == PerformOutcome(success: true, message: "calls=launch:launch-handled"))
        // A later perform shows perform was not called for the launch item.
        let next = await outcome(of: plugin, request("record"))
        #expect(next == PerformOutcome(success: true, message: "calls=launch:launch-handled,perform:record"))
    }

    @Test func launchNotHandledIsFollowedByPerformWithTheSameItem() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        let result = await outcome(of: plugin, request("record"), launching: true)
        #expect(result == PerformOutcome(success: true, message: "calls=launch:record,perform:record"))
    }

    @Test func resumeReachesPerformAlone() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        let first = await outcome(of: plugin, request("a"))
        let second = await outcome(of: plugin, request("b"))
        #expect(first == PerformOutcome(success: true, message: "calls=perform:a"))
        #expect(second == PerformOutcome(success: true, message: "calls=perform:a,perform:b"))
    }

    @Test func launchHandledByTheCPluginSkipsPerform() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let result = await outcome(of: plugin, request("launch-handled"), launching: true)
        #expect(result == PerformOutcome(success: true, message: "C handled at launch"))
        await drain(plugin)
        // Had perform run, it would have completed a second time ("C has no action…"), which is logged.
        #expect(recorder.loaderLogs(containing: "called again").isEmpty, "\(recorder.logs)")
    }

    @Test func aCPluginPerformsWithTheRequestsTitle() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        let launched = await outcome(of: plugin, request("succeed", title: "Größe"), launching: true)
        #expect(launched == PerformOutcome(success: true, message: "C performed succeed: Größe"))
        let failed = await outcome(of: plugin, request("fail"))
        #expect(failed == PerformOutcome(success: false, message: "C failed on purpose"))
    }

    @Test(arguments: [TestPlugins.cPlugin, TestPlugins.swiftPlugin])
    func aSecondCompletionIsIgnoredAndLogged(_ library: String) async throws {
        let bundle = try TestBundle(plugin: library)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let calls = Counter()
        let result = await outcome(of: plugin, request("twice"))
        plugin.perform(request("twice")) { _ in calls.increment() }
        await drain(plugin)
        #expect(result == PerformOutcome(success: true, message: "first"))
        #expect(calls.value == 1)
        #expect(recorder.loaderLogs(containing: "called again").count == 2, "\(recorder.logs)")
        #expect(plugin.pendingCompletions == 0)
    }

    @Test func aLaunchThatCompletesButReturnsFalseStillCompletesOnce() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let result = await outcome(of: plugin, request("launch-misbehaves"), launching: true)
        await drain(plugin)
        #expect(result == PerformOutcome(success: true, message: "completed in launch"))
        #expect(recorder.loaderLogs(containing: "called again").count == 1, "\(recorder.logs)")
    }

    @Test func aCompletionNeverCalledLeavesThisPluginAndOthersUsable() async throws {
        let cBundle = try TestBundle(plugin: TestPlugins.cPlugin)
        let swiftBundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer {
            cBundle.remove()
            swiftBundle.remove()
        }
        let recorder = Recorder()
        let stuck = try load(cBundle, recorder: recorder)
        let other = try load(swiftBundle, recorder: Recorder())
        let neverCalled = Counter()
        let ticket = stuck.perform(request("never")) { _ in neverCalled.increment() }
        let swiftNever = other.perform(request("never")) { _ in neverCalled.increment() }

        // Both plugins keep serving while those completions are outstanding.
        #expect(await outcome(of: stuck, request("succeed")) == PerformOutcome(success: true, message: "C performed succeed: Title"))
        #expect(await outcome(of: other, request("x")) == PerformOutcome(success: true, message: "calls=perform:never,perform:x"))
        #expect(stuck.pendingCompletions == 1)
        #expect(other.pendingCompletions == 1)

        // The broker gives up; the plugin's late completion is then ignored and logged, not delivered.
        ticket.abandon()
        swiftNever.abandon()
        #expect(stuck.pendingCompletions == 0)
        #expect(other.pendingCompletions == 0)
        let flushed = await outcome(of: stuck, request("complete-stashed"))
        #expect(flushed == PerformOutcome(success: true, message: "flushed"))
        #expect(neverCalled.value == 0)
        #expect(recorder.loaderLogs(containing: "completion \(ticket.completionID) called again").count == 1)
    }

    @Test func aLateCompletionWithoutAbandonIsStillDeliveredOnce() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        let late = Counter()
        let lateOutcome = LockedBox<PerformOutcome?>(nil)
        plugin.perform(request("never")) { result in
            late.increment()
            lateOutcome.set(result)
        }
        #expect(await outcome(of: plugin, request("complete-stashed")) == PerformOutcome(success: true, message: "flushed"))
        #expect(late.value == 1)
        #expect(lateOutcome.get() == PerformOutcome(success: true, message: "late"))
    }

    @Test(arguments: [TestPlugins.cPlugin, TestPlugins.swiftPlugin])
    func willResignLetsThePluginSetItsItemsBeforeCompleting(_ library: String) async throws {
        let bundle = try TestBundle(plugin: library)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            plugin.willResign { continuation.resume() }
        }
        let items = try #require(recorder.lists.last)
        #expect(items.map(\.type) == ["resigned"])
    }

    @Test func theDataDirectoryIsCreatedPrivateOnFirstUse() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let plugin = try load(bundle, recorder: Recorder())
        #expect(!FileManager.default.fileExists(atPath: bundle.dataDirectory.path))
        let result = await outcome(of: plugin, request("data-directory"))
        let file = bundle.dataDirectory.appendingPathComponent("hello.txt").path
        #expect(result == PerformOutcome(success: true, message: file))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "hello")
        var info = stat()
        #expect(stat(bundle.dataDirectory.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    /// A data directory that cannot be made: the plugin gets none, and the log says why in
    /// strerror's words, naming the folder once.
    @Test func aDataDirectoryThatCannotBeMadeIsLoggedPlainly() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let above = bundle.dataDirectory.deletingLastPathComponent().path
        #expect(FileManager.default.createFile(atPath: above, contents: Data()))
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let result = await outcome(of: plugin, request("data-directory"))
        #expect(result == PerformOutcome(success: false, message: "no data directory"))
        let expected = "cannot create data directory \(bundle.dataDirectory.path): \(String(cString: strerror(ENOTDIR)))"
        let lines = recorder.loaderLogs(containing: "cannot create data directory").map(\.message)
        #expect(lines == [expected])
    }
}

/// A value shared between threads.
final class LockedBox<Value: Sendable>: Sendable {
    private let value: Locked<Value>

    init(_ value: Value) { self.value = Locked(value) }

    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func get() -> Value { value.withLock { $0 } }
}
